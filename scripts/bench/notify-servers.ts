/**
 * The remote parties of `npm run bench:notify`, on loopback: an SMTP server that notes when each message
 * was accepted, and webhook receivers that count deliveries. Arrival times only: the tests
 * (test/notifications) check what the messages say.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { performance } from 'node:perf_hooks'
import { SMTPServer } from 'smtp-server'

export interface Arrival {
  readonly at: number
  readonly text: string
}

export interface BenchSmtp {
  readonly url: string
  readonly arrivals: Arrival[]
  close(): Promise<void>
}

export async function benchSmtp(): Promise<BenchSmtp> {
  const arrivals: Arrival[] = []
  const server = new SMTPServer({
    authOptional: true, disabledCommands: ['STARTTLS'], logger: false, size: 1024 * 1024,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', () => {
        arrivals.push({ at: performance.now(), text: Buffer.concat(chunks).toString('utf8') })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.server.address() as AddressInfo
  return { url: `smtp://127.0.0.1:${port}`, arrivals, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

export interface BenchReceiver {
  readonly url: string
  readonly arrivals: number[]
  close(): Promise<void>
}

export async function benchReceiver(): Promise<BenchReceiver> {
  const arrivals: number[] = []
  const server: Server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      arrivals.push(performance.now())
      response.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`, arrivals,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) }),
  }
}

/** Resolves once `check` holds, polling every few milliseconds; fails after `boundMs`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, boundMs = 120_000): Promise<void> {
  const deadline = Date.now() + boundMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
