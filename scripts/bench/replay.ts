import { request } from 'node:http'
import type { Scenario } from './scenarios.js'

/** One answer of the service as it went over the wire: its headers and its body's bytes. */
export interface Recorded {
  readonly name: string
  readonly headers: Record<string, string>
  /** Base64. */
  readonly body: string
  /** Header and body bytes as sent. */
  readonly size: number
  /** The request's headers, sent again to the replay. */
  readonly requestHeaders: Record<string, string>
}

// Node's HTTP server writes these itself, for the replay as for the service.
const connectionHeaders = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'])

/** Reads a scenario's URL once, keeping the body exactly as sent (compressed when it came compressed). */
export function record(scenario: Scenario): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    request(scenario.url, { headers: scenario.headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('error', reject)
      response.on('end', () => {
        const body = Buffer.concat(chunks)
        const headers: Record<string, string> = {}
        let headerBytes = 0
        for (let i = 0; i < response.rawHeaders.length; i += 2) {
          const [name, value] = [response.rawHeaders[i]!, response.rawHeaders[i + 1]!]
          headerBytes += name.length + value.length + 4
          if (!connectionHeaders.has(name.toLowerCase())) headers[name.toLowerCase()] = value
        }
        resolve({ name: scenario.name, headers, body: body.toString('base64'), size: headerBytes + body.length, requestHeaders: scenario.headers })
      })
    }).on('error', reject).end()
  })
}

/**
 * The recorded exchanges as scenarios of the replay server (scripts/bench/replay-server.ts), in the same
 * order: the same request headers in, the same answer out.
 */
export function replayScenarios(base: string, recorded: readonly Recorded[]): Scenario[] {
  return recorded.map(({ name, size, requestHeaders }, i) => ({
    name: `bare Fastify sending the answer of ${name} (${size.toLocaleString('en-US')} bytes)`,
    url: `${base}/${i}`,
    headers: requestHeaders,
    replays: name,
  }))
}
