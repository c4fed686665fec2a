import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Webhook } from 'standardwebhooks'
import type { Test } from 'tap'
import { ferpaViolations } from './ferpa.js'

/** One request the receiver got, as it got it, with what the reference library and the FERPA check made of it. */
export interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
  /** The secrets (by position in `secrets` when it came) under which `Webhook.verify` accepted it. */
  readonly verifiedBy: readonly number[]
  /** Why verification failed under each secret that refused it. */
  readonly refusals: readonly string[]
  readonly violations: readonly string[]
  /** What it answered: a status, 'hung', or a redirect. */
  readonly answered: number | 'hung'
}

type Plan = { status: number; location?: string } | 'hang'

export interface Receiver {
  /** `http://127.0.0.1:<port>`; any path is accepted. */
  readonly url: string
  readonly requests: Received[]
  /** The secrets each request is verified with (set after the webhook is created or rotated). */
  secrets: string[]
  /** What requests answer when nothing is scripted (200 unless set). */
  answerAll(status: number): void
  /** The next requests answer these, in order (then the default again). */
  script(...plans: (number | 'hang' | { status: number; location: string })[]): void
  /** Polls until `check` holds, for at most `ms` (default 30 s); throws, failing the test, when it never does. */
  until(check: () => boolean, what: string, ms?: number): Promise<void>
  /** Answers the requests left hanging, with 200. */
  release(): void
}

/**
 * A webhook receiver on loopback over real HTTP, as a department's system would run one: every request
 * is checked with the Standard Webhooks reference library (`standardwebhooks`) under each of the
 * secrets it is given, and its body with the FERPA check. It answers 200 unless told to answer another
 * status, or scripted to answer statuses, redirect, or hang. Closed when the test ends.
 */
export async function startReceiver(t: Test): Promise<Receiver> {
  const requests: Received[] = []
  const plans: Plan[] = []
  const hanging = new Set<ServerResponse>()
  const state = { secrets: [] as string[], status: 200 }
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      const verifiedBy: number[] = []
      const refusals: string[] = []
      state.secrets.forEach((secret, index) => {
        try {
          new Webhook(secret).verify(body, {
            'webhook-id': String(request.headers['webhook-id']),
            'webhook-timestamp': String(request.headers['webhook-timestamp']),
            'webhook-signature': String(request.headers['webhook-signature']),
          })
          verifiedBy.push(index)
        } catch (error) {
          refusals.push(`secret ${index}: ${(error as Error).message}`)
        }
      })
      const plan = plans.shift() ?? { status: state.status }
      requests.push({
        path: request.url ?? '', headers: request.headers, body, verifiedBy, refusals,
        violations: ferpaViolations(body), answered: plan === 'hang' ? 'hung' : plan.status,
      })
      if (plan === 'hang') {
        hanging.add(response)
        return
      }
      response.writeHead(plan.status, { 'content-type': 'text/plain', ...(plan.location ? { location: plan.location } : {}) })
      response.end(`answered ${plan.status}`)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  t.teardown(async () => {
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  })
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get secrets() { return state.secrets },
    set secrets(value: string[]) { state.secrets = value },
    answerAll(status) {
      state.status = status
    },
    script(...next) {
      plans.push(...next.map((plan): Plan => (plan === 'hang' ? 'hang' : typeof plan === 'number' ? { status: plan } : plan)))
    },
    async until(check, what, ms = 30_000) {
      const deadline = Date.now() + ms
      while (!check()) {
        if (Date.now() > deadline) {
          throw new Error(`timed out after ${ms} ms waiting for ${what}`)
        }
        await new Promise((resolve) => setTimeout(resolve, 25))
      }
    },
    release() {
      for (const response of hanging) response.end('released')
      hanging.clear()
    },
  }
}
