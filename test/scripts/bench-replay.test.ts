import { createServer } from 'node:http'
import { gzipSync } from 'node:zlib'
import t from 'tap'
import { record, replayScenarios } from '../../scripts/bench/replay.js'

t.test('a recorded answer keeps its bytes as sent and its headers, but not the connection headers', async (t) => {
  const body = gzipSync(JSON.stringify({ items: ['x'.repeat(2000)] }))
  const seen: (string | undefined)[] = []
  const server = createServer((request, response) => {
    seen.push(request.headers.authorization)
    response.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-cache': 'hit' }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => server.close())
  const { port } = server.address() as { port: number }
  const scenario = { name: 'cached list', url: `http://127.0.0.1:${port}/list`, headers: { authorization: 'Bearer abc', 'accept-encoding': 'gzip' } }

  const recorded = await record(scenario)
  t.same(seen, ['Bearer abc'], 'the request goes out with the scenario\'s headers')
  t.same(Buffer.from(recorded.body, 'base64'), body, 'the body is kept compressed, byte for byte')
  t.same(recorded.headers, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-cache': 'hit' })
  t.ok(recorded.size > body.length + 100, 'the size counts every header line sent, the connection\'s included')

  const [replay] = replayScenarios('http://127.0.0.1:9', [recorded])
  t.same(replay, {
    name: `bare Fastify sending the answer of cached list (${recorded.size.toLocaleString('en-US')} bytes)`,
    url: 'http://127.0.0.1:9/0', headers: scenario.headers, replays: 'cached list',
  })
})
