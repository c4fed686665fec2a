import t from 'tap'
import { tempDir } from '../helpers/temp-dir.js'
import { freePort, mintToken, startServer, type ServerProcess } from './server-process.js'

/** What a record must look like after the restart: absent, or present with these fields. */
type State = { readonly present: false } | { readonly present: true; readonly fields: Record<string, unknown> }

interface Tracked {
  readonly label: string
  id?: string
  /** The state the last acknowledged write left. */
  acked?: State
  /** The state the write that was in flight when the server died would leave; it may or may not have landed. */
  inFlight?: State
}

const workers = 8
const acknowledgementsBeforeKill = 240

t.test('a server killed with SIGKILL right after acknowledging writes has all of them after a restart', async (t) => {
  const env = { PORT: String(await freePort()), DATA_DIR: await tempDir(t) }
  const token = await mintToken(env, 'durability@dept.edu', 'admin')
  const headers = { authorization: `Bearer ${token}` }
  let server: ServerProcess = await startServer(t, env)
  const tracked: Tracked[] = []
  let acknowledged = 0
  let killed = false

  async function write(record: Tracked, method: string, path: string, body: object | undefined, next: State): Promise<Record<string, unknown>> {
    record.inFlight = next
    const response = await fetch(`${server.url}${path}`, {
      method, headers: body ? { ...headers, 'content-type': 'application/json' } : headers, ...(body ? { body: JSON.stringify(body) } : {}),
    })
    const answer = await response.json() as Record<string, unknown>
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`)
    record.acked = next
    delete record.inFlight
    if (++acknowledged === acknowledgementsBeforeKill) {
      // Nothing between the acknowledgement and the kill: no flush, no close, no await.
      server.child.kill('SIGKILL')
      killed = true
    }
    return answer
  }

  /** One chain of writes per record, records one after another: create, update twice, sometimes delete. */
  async function worker(n: number): Promise<void> {
    const courses = n % 2 === 0
    for (let seq = 0; !killed; seq++) {
      const record: Tracked = { label: `worker ${n} record ${seq}` }
      tracked.push(record)
      if (courses) {
        const course_code = `DU${String.fromCharCode(65 + n)} ${100 + seq}`
        record.id = `Course/${course_code.replace(' ', '-')}`
        const created = await write(record, 'POST', '/api/courses', { course_code, title: 'Draft' }, { present: true, fields: { course_code, title: 'Draft', _version: 1 } })
        if (created._id !== record.id) throw new Error(`unexpected id ${String(created._id)}`)
      } else {
        const created = await write(record, 'POST', '/api/people', { type: 'Staff', first_name: `Worker${n}`, last_name: 'Draft' }, { present: true, fields: { last_name: 'Draft', _version: 1 } })
        record.id = String(created.id)
      }
      const field = courses ? 'title' : 'last_name'
      const path = `${courses ? '/api/courses' : '/api/people'}/${encodeURIComponent(record.id)}`
      for (const version of [2, 3]) {
        if (killed) return
        const value = `Revision ${version} of ${record.label}`
        await write(record, 'PUT', path, { [field]: value }, { present: true, fields: { [field]: value, _version: version } })
      }
      if (killed) return
      if (seq % 3 === 1) await write(record, 'DELETE', path, undefined, { present: false })
    }
  }

  const outcomes = await Promise.allSettled(Array.from({ length: workers }, (_, n) => worker(n)))
  const failures = outcomes.flatMap((o) => (o.status === 'rejected' && !killed ? [String(o.reason)] : []))
  t.same(failures, [], 'no write failed before the kill')
  t.ok(killed, `the server was killed after ${acknowledgementsBeforeKill} acknowledged writes`)
  if (!killed) server.child.kill('SIGKILL')
  t.same(await server.exited, { code: null, signal: 'SIGKILL' }, 'it died of SIGKILL')
  const interrupted = tracked.filter((r) => r.inFlight).length
  t.comment(`${tracked.length} records written, ${interrupted} writes in flight at the kill`)

  server = await startServer(t, env)
  let checked = 0
  for (const record of tracked) {
    if (!record.acked || !record.id) continue
    const path = `${record.id.startsWith('Course/') ? '/api/courses' : '/api/people'}/${encodeURIComponent(record.id)}`
    const response = await fetch(`${server.url}${path}`, { headers })
    const found: State = response.status === 404 ? { present: false } : { present: true, fields: await response.json() as Record<string, unknown> }
    const matches = (expected: State | undefined) => expected !== undefined && expected.present === found.present
      && (!expected.present || Object.entries(expected.fields).every(([k, v]) => (found as { fields: Record<string, unknown> }).fields[k] === v))
    t.ok(matches(record.acked) || matches(record.inFlight), `${record.label} (${record.id}) is as last acknowledged: ${JSON.stringify(found)}`)
    checked++
  }
  t.ok(checked >= acknowledgementsBeforeKill / 4, `${checked} acknowledged records were checked`)
  const deleted = tracked.filter((r) => r.acked && !r.acked.present && !r.inFlight).length
  t.ok(deleted > 0, `acknowledged deletes were among them (${deleted})`)
})
