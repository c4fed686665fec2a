import t from 'tap'
import { auditCollection } from '../../src/privacy/audit-log.js'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import type { Store } from '../../src/store/port.js'
import { tempDir } from '../helpers/temp-dir.js'
import { department, path } from './department.js'

/**
 * A real embedded store, wrapped so that inserts into the audit collection fail while `failing` is set:
 * a fault injected into a real component (as if the store refused that one collection's writes), every
 * other operation reaching the store unchanged.
 */
function withFailingAudit(store: Store) {
  const state = { failing: false }
  const bind = <T extends object>(target: T, prop: string | symbol) => {
    const value = Reflect.get(target, prop) as unknown
    return typeof value === 'function' ? value.bind(target) : value
  }
  const wrapped = new Proxy(store, {
    get(target, prop) {
      if (prop !== 'collection') return bind(target, prop)
      return (name: string) => {
        const collection = target.collection(name)
        if (name !== auditCollection) return collection
        return new Proxy(collection, {
          get: (inner, key) => key === 'insertOne' && state.failing ? async () => { throw new Error('audit store refused the write') } : bind(inner, key),
        })
      }
    },
  })
  return { store: wrapped, state }
}

t.test('when the audit entry cannot be written, nothing is served', async (t) => {
  let real: EmbeddedStore | undefined
  real = await EmbeddedStore.open(await tempDir(t, async () => real?.close()))
  const { store, state } = withFailingAudit(real)
  const lines: string[] = []
  const { callers, ids, auditEntries, app } = await department(t, { LOG_LEVEL: 'error' }, { store, logStream: { write: (line: string) => { lines.push(line) } } })
  const before = (await auditEntries()).length
  state.failing = true

  const reads: [string, keyof typeof callers, string][] = [
    ['the student\'s own transcript', 'student', `/api/students/${path(ids.una)}/transcript`],
    ['an advisor reading enrollments', 'advisor', `/api/students/${path(ids.una)}/enrollments`],
    ['an instructor reading the roster', 'instructor', `/api/sections/${path(ids.section)}/enrollments`],
    ['an admin reading the audit log', 'admin', '/api/admin/audit'],
    ['a refused student', 'otherStudent', `/api/students/${path(ids.una)}/transcript`],
    ['an anonymous caller', 'anonymous', `/api/students/${path(ids.una)}/transcript`],
  ]
  for (const [label, caller, url] of reads) {
    const res = await callers[caller]({ method: 'GET', url })
    t.equal(res.statusCode, 503, label)
    t.same(res.json(), {
      success: false, statusCode: 503, code: 'ADKS_AUDIT_UNAVAILABLE',
      error: `The access could not be recorded in the audit log, so nothing is served; try again shortly; quote request id ${String(res.headers['x-request-id'])} when reporting it`,
    }, label)
    t.equal(res.headers['retry-after'], '5', label)
  }

  const write = await callers.admin({
    method: 'POST', url: '/api/enrollments', payload: { student: ids.otto, course: ids.cs101, term: '25F', status: 'completed', grade: 'C' },
  })
  t.equal(write.statusCode, 503, 'a write whose audit entry fails')
  t.match(write.json().error, /change was saved, but it could not be recorded in the audit log/)
  t.equal(write.json().code, 'ADKS_AUDIT_UNAVAILABLE')
  t.notOk(write.headers.location, 'and its location is withheld with the rest')
  t.notMatch(write.body, /Otto|"grade"/)

  t.equal((await callers.admin({ method: 'GET', url: '/api/people' })).statusCode, 200, 'routes that are not audited carry on')
  t.equal((await auditEntries()).length, before, 'nothing reached the log')
  const logged = lines.filter((line) => line.includes('audit entry could not be written'))
  t.equal(logged.length, reads.length + 1, 'each withheld answer is logged as an error')
  t.match(JSON.parse(logged[0]!), { level: 50, audit: { resourceType: 'transcript', resourceId: ids.una, success: true }, err: { message: 'audit store refused the write' } })

  state.failing = false
  const again = await callers.student({ method: 'GET', url: `/api/students/${path(ids.una)}/transcript` })
  t.equal(again.statusCode, 200, 'served again once the log can be written')
  const otto = await callers.admin({ method: 'GET', url: `/api/students/${path(ids.otto)}/enrollments` })
  t.equal(otto.json().total, 1, 'the withheld write had been applied, as its answer said')
  t.match(await app.auditLog.verify(), { intact: true, checked: before + 2 })
})
