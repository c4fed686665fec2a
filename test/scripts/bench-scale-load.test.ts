import { createServer } from 'node:http'
import t, { type Test } from 'tap'
import { pairedTimed, timedLoad } from '../../scripts/bench/scale-load.js'

async function server(t: Test, status: (url: string) => number): Promise<string> {
  const s = createServer((request, response) => response.writeHead(status(request.url ?? '/')).end('{}'))
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve))
  t.teardown(() => s.close())
  return `http://127.0.0.1:${(s.address() as { port: number }).port}`
}

t.test('each answer is timed for the percentiles, and a non-2xx answer is an error', async (t) => {
  const base = await server(t, (url) => (url === '/missing' ? 404 : 200))
  const options = { connections: 2, durationSeconds: 1 }
  const ok = await timedLoad('ok', { url: `${base}/`, headers: {}, pid: process.pid }, options)
  t.equal(ok.errors, 0)
  t.ok(ok.latency.requests > 0, 'answers timed')
  t.ok(ok.latency.p50 <= ok.latency.p95 && ok.latency.p95 <= ok.latency.p99, 'percentiles in order')
  t.type(ok.cpuUs, 'number', 'the server\'s CPU time per request, given its pid')
  const missing = await timedLoad('missing', { url: `${base}/missing`, headers: {}, pid: undefined }, options)
  t.ok(missing.errors > 0 && missing.errors === missing.latency.errors, 'the 404s count as errors')
  t.equal(missing.cpuUs, undefined)

  const paired = await pairedTimed('ok', { url: `${base}/`, headers: {}, pid: undefined }, { url: `${base}/`, headers: {}, pid: undefined }, { ...options, rounds: 3 })
  t.equal(paired.bare.name, 'bare Fastify: GET /')
  t.equal(paired.ratio, paired.rps / paired.bare.rps, 'the ratio of the round reported')
})
