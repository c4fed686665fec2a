import { createServer, type RequestListener } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { TransportError } from '../../src/net/outbound.js'
import { postPinned } from '../../src/notifications/webhooks/transport.js'

async function serve(t: Test, handler: RequestListener): Promise<number> {
  const server = createServer(handler)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return (server.address() as AddressInfo).port
}

const post = (port: number, options: { timeoutMs?: number; signal?: AbortSignal; host?: string } = {}) => postPinned(
  { url: new URL(`http://${options.host ?? '127.0.0.1'}:${port}/in?x=1`), address: '127.0.0.1', family: 4 },
  { headers: { 'content-type': 'application/json' }, body: Buffer.from('{"a":1}'), timeoutMs: options.timeoutMs ?? 30_000, maxBytes: 4096, ...(options.signal ? { signal: options.signal } : {}) },
)

t.test('the answer: its status, its Location, and no more than 4 KB of its body', async (t) => {
  let seen: { url?: string; host?: string; body?: string } = {}
  const port = await serve(t, (request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (c: Buffer) => chunks.push(c))
    request.on('end', () => {
      seen = { url: request.url!, host: request.headers.host!, body: Buffer.concat(chunks).toString() }
      if (request.headers.host?.startsWith('moved.example')) {
        response.writeHead(307, { location: 'http://169.254.169.254/' }).end()
        return
      }
      response.writeHead(202, { 'content-type': 'text/plain' }).end('x'.repeat(10_000))
    })
  })
  const answer = await post(port, { host: 'hooks.example' })
  t.equal(answer.status, 202)
  t.equal(answer.body, 'x'.repeat(4096), 'cut at 4 KB')
  t.same(seen, { url: '/in?x=1', host: `hooks.example:${port}`, body: '{"a":1}' }, 'the URL\'s host and path, at the pinned address')
  const moved = await post(port, { host: 'moved.example' })
  t.match(moved, { status: 307, location: 'http://169.254.169.254/' }, 'a redirect is answered, not followed')
})

t.test('timeouts, dropped connections and aborts reject, and leave nothing unhandled', async (t) => {
  const dropping = await serve(t, (request) => request.on('data', () => request.socket.destroy()))
  await t.rejects(post(dropping), new TransportError('network', 'socket hang up'), 'a dropped connection is a network error')
  const refused = postPinned({ url: new URL('http://127.0.0.1:1/'), address: '127.0.0.1', family: 4 }, { headers: {}, body: Buffer.from(''), timeoutMs: 30_000, maxBytes: 10 })
  await t.rejects(refused, { name: 'TransportError', failure: 'network', message: /ECONNREFUSED/ }, 'a refused connection is a network error')

  const hang = await serve(t, () => {})
  await t.rejects(post(hang, { timeoutMs: 200 }), new TransportError('timeout', 'no complete answer within 200 ms'))
  await t.rejects(post(hang, { signal: AbortSignal.abort(new Error('shutting down')) }), { message: 'shutting down' }, 'an abort before sending')
  const controller = new AbortController()
  setTimeout(() => controller.abort(new Error('shutting down')), 50)
  await t.rejects(post(hang, { signal: controller.signal }), { message: 'shutting down' }, 'an abort while waiting')
  // A destroyed request's error event would surface here as an uncaught exception if it had no listener.
  await new Promise((resolve) => setTimeout(resolve, 50))
})
