import { request, type ClientRequest, type IncomingMessage } from 'node:http'
import t from 'tap'
import { tempDir } from '../helpers/temp-dir.js'
import { freePort, mintToken, startServer } from './server-process.js'

interface Answer {
  readonly status: number
  readonly body: string
}

function collect(req: ClientRequest): Promise<Answer> {
  return new Promise((resolve, reject) => {
    req.once('error', reject)
    req.once('response', (res: IncomingMessage) => {
      let body = ''
      res.on('data', (chunk: Buffer) => { body += chunk.toString() })
      res.once('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
  })
}

/** Polls `check` until it answers something, for at most 30 s: the steps wait on what the server does, not on a clock. */
async function until<T>(check: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 30_000
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`no ${what} within 30 s`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

t.test('SIGTERM lets in-flight requests finish, refuses new connections and exits 0', async (t) => {
  // The grace is far longer than the test needs, so that a busy machine cannot cut the requests short; the
  // process exits as soon as they have finished. LOG_LEVEL info has the server log each request it reads.
  const env = { PORT: String(await freePort()), DATA_DIR: await tempDir(t), SHUTDOWN_GRACE_MS: '120000', LOG_LEVEL: 'info' }
  const token = await mintToken(env, 'shutdown@dept.edu', 'admin')
  const server = await startServer(t, env)
  const auth = { authorization: `Bearer ${token}` }
  for (const code of ['SHUT 200', 'SHUT 201']) {
    const created = await fetch(`${server.url}/api/courses`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ course_code: code, title: 'Before' }) })
    t.equal(created.status, 201, `${code} created before the signal`)
  }

  const incoming = () => server.stdout().split('\n').filter((line) => line.includes('"msg":"incoming request"')).length
  const seen = incoming()
  // Requests whose bodies are only half sent when the signal arrives: in flight, and unable to finish early.
  const writes: [string, string, object, number][] = [
    ...[0, 1, 2].map((i): [string, string, object, number] => ['POST', '/api/courses', { course_code: `SHUT ${100 + i}`, title: `Created during shutdown ${i}` }, 201]),
    ...['SHUT-200', 'SHUT-201'].map((key): [string, string, object, number] => ['PUT', `/api/courses/Course%2F${key}`, { title: 'Updated during shutdown' }, 200]),
  ]
  const slow = writes.map(([method, path, payload, expected]) => {
    const body = JSON.stringify(payload)
    const req = request(`${server.url}${path}`, { method, headers: { ...auth, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } })
    const answer = collect(req)
    req.write(body.slice(0, 10))
    return { label: `${method} ${path}`, req, answer, rest: body.slice(10), expected }
  })
  await until(async () => (incoming() >= seen + writes.length ? true : undefined), 'log line for each request in flight')

  server.child.kill('SIGTERM')
  const refused = await until(async () => {
    const answer = await fetch(`${server.url}/health`).then((r) => `answered ${r.status}`, (e: Error) => String((e.cause as Error | undefined)?.message ?? e.message))
    return /ECONNREFUSED|answered 503/.test(answer) ? answer : undefined
  }, 'refusal of a new connection')
  t.match(refused, /ECONNREFUSED|answered 503/, `a new connection after SIGTERM is not served normally (${refused})`)
  t.equal(server.child.exitCode, null, 'the process waits for the requests in flight')

  for (const { req, rest } of slow) req.end(rest)
  for (const { label, answer, expected } of slow) {
    const { status, body } = await answer
    t.equal(status, expected, `in-flight ${label} finished: ${body}`)
  }

  t.same(await server.exited, { code: 0, signal: null }, 'the process exits 0')
  t.notMatch(server.stderr(), /error/i, 'nothing went wrong on the way down')

  const again = await startServer(t, env)
  const listed = await (await fetch(`${again.url}/api/courses?search=shut&limit=10`, { headers: auth })).json() as { items: { course_code: string; title: string }[] }
  t.same(listed.items.map((c) => `${c.course_code}: ${c.title}`), [
    'SHUT 100: Created during shutdown 0', 'SHUT 101: Created during shutdown 1', 'SHUT 102: Created during shutdown 2',
    'SHUT 200: Updated during shutdown', 'SHUT 201: Updated during shutdown',
  ], 'the writes finished during shutdown are stored')
})
