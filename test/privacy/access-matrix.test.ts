import t, { type Test } from 'tap'
import type { AuditEntry } from '../../src/privacy/audit-entry.js'
import { callerKinds, department, path, type CallerKind } from './department.js'

type Ids = Awaited<ReturnType<typeof department>>['ids']

interface Endpoint {
  readonly url: (ids: Ids) => string
  readonly resourceType: AuditEntry['resourceType']
  readonly resourceId: (ids: Ids) => string | null
  /** Callers answered 200, with the basis their audit entry records (null: the route records none). */
  readonly allowed: Partial<Record<CallerKind, string | null>>
  /** Whether a signed-in caller reaches the handler's access rule (which then records basis none). */
  readonly ruleInHandler: boolean
}

const studentRule = { student: 'self', advisor: 'advisor', admin: 'admin' }

/** Every protected endpoint; a new one (degree progress) is one more line. */
const endpoints: Record<string, Endpoint> = {
  'student enrollments': { url: (ids) => `/api/students/${path(ids.una)}/enrollments`, resourceType: 'enrollment', resourceId: (ids) => ids.una, allowed: studentRule, ruleInHandler: true },
  'student transcript': { url: (ids) => `/api/students/${path(ids.una)}/transcript`, resourceType: 'transcript', resourceId: (ids) => ids.una, allowed: studentRule, ruleInHandler: true },
  'student degree progress': { url: (ids) => `/api/students/${path(ids.una)}/degree-progress`, resourceType: 'degree-progress', resourceId: (ids) => ids.una, allowed: studentRule, ruleInHandler: true },
  'student progress': { url: (ids) => `/api/student-progress/${path(ids.una)}`, resourceType: 'degree-progress', resourceId: (ids) => ids.una, allowed: studentRule, ruleInHandler: true },
  'section roster': { url: (ids) => `/api/sections/${path(ids.section)}/enrollments`, resourceType: 'enrollment', resourceId: (ids) => ids.section, allowed: { instructor: 'instructor', admin: 'admin' }, ruleInHandler: true },
  'audit log': { url: () => '/api/admin/audit', resourceType: 'audit-log', resourceId: () => null, allowed: { admin: null }, ruleInHandler: false },
  'audit verification': { url: () => '/api/admin/audit/verify', resourceType: 'audit-log', resourceId: () => null, allowed: { admin: null }, ruleInHandler: false },
}

const entryFields = [
  'action', 'apiKeyId', 'apiKeyPrefix', 'authMethod', 'basis', 'hash', 'ipAddress', 'method', 'prevHash', 'reason', 'requestId',
  'resourceId', 'resourceType', 'role', 'route', 'seq', 'statusCode', 'success', 'timestamp', 'userAgent', 'userId',
]
const roles: Record<CallerKind, string | null> = {
  student: 'student', advisor: 'faculty', instructor: 'faculty', otherStudent: 'student', faculty: 'faculty', staff: 'staff', admin: 'admin', apiKey: 'admin', anonymous: null,
}

function expectedStatus(endpoint: Endpoint, caller: CallerKind): number {
  if (caller === 'anonymous') return 401
  return caller in endpoint.allowed ? 200 : 403
}

function expectedBasis(endpoint: Endpoint, caller: CallerKind): string | null {
  if (caller in endpoint.allowed) return endpoint.allowed[caller] ?? null
  return endpoint.ruleInHandler && caller !== 'anonymous' && caller !== 'apiKey' ? 'none' : null
}

/** One department for the whole file: the tests below run in order and account for what earlier ones did. */
const dept = await department(t)

t.test('each protected endpoint × each kind of caller: the status, and exactly one audit entry saying so', async (t) => {
  const { callers, userIds, auditEntries, ids } = dept
  for (const [name, endpoint] of Object.entries(endpoints)) {
    for (const caller of callerKinds) {
      const label = `${name} as ${caller}`
      const before = await auditEntries()
      const res = await callers[caller]({ method: 'GET', url: endpoint.url(ids), headers: { 'user-agent': 'matrix-test' } })
      const status = expectedStatus(endpoint, caller)
      t.equal(res.statusCode, status, label)
      if (status !== 200) {
        t.type(res.json().error, 'string', `${label}: the refusal carries an error message`)
        t.notMatch(res.body, /Una|A-|B\+|"items"/, `${label}: a refusal shows no data`)
      }
      t.equal(res.headers['cache-control'], 'no-store', `${label}: never stored by a cache`)
      const added = (await auditEntries()).slice(before.length)
      t.equal(added.length, 1, `${label}: exactly one audit entry`)
      const entry = added[0]!
      t.same(Object.keys(entry).filter((k) => k !== '_id').sort(), entryFields, `${label}: the entry's fields`)
      t.match(entry, {
        userId: userIds[caller], resourceType: endpoint.resourceType, resourceId: endpoint.resourceId(ids), action: 'view',
        success: status < 400, statusCode: status, ipAddress: '127.0.0.1', role: roles[caller], basis: expectedBasis(endpoint, caller),
        authMethod: caller === 'apiKey' ? 'api-key' : caller === 'anonymous' ? 'none' : 'bearer',
        method: 'GET', requestId: res.headers['x-request-id'], userAgent: 'matrix-test', seq: before.length + 1,
      }, label)
      t.equal(entry.reason, status < 400 ? null : res.json().error, `${label}: a failure's reason is its error message`)
      t.ok(Math.abs(Date.parse(entry.timestamp) - Date.now()) < 60_000, `${label}: timestamped now`)
      if (caller === 'apiKey') t.match(entry, { apiKeyId: /^ApiKey\//, apiKeyPrefix: /^adks_/ }, `${label}: names the key`)
      else t.match(entry, { apiKeyId: null, apiKeyPrefix: null })
    }
  }
})

t.test('an allowed caller gets the records; unknown and malformed ids are refused and audited', async (t) => {
  const { callers, ids, auditEntries, app } = dept
  const una = await callers.advisor({ method: 'GET', url: `/api/students/${path(ids.una)}/enrollments` })
  t.equal(una.json().total, 3)
  t.ok(una.json().items.every((e: { student: string }) => e.student === ids.una))
  const roster = await callers.instructor({ method: 'GET', url: `/api/sections/${path(ids.section)}/enrollments` })
  t.same(roster.json().items.map((e: { _id: string }) => e._id), [ids.enrollment])

  const odd: [string, CallerKind, string, number, string][] = [
    ['a student that does not exist, as admin', 'admin', '/api/students/UndergraduateStudent%2Fnobody/transcript', 404, 'UndergraduateStudent/nobody'],
    ['a student that does not exist, as another student', 'otherStudent', '/api/students/UndergraduateStudent%2Fnobody/transcript', 403, 'UndergraduateStudent/nobody'],
    ['a faculty id in place of a student', 'admin', `/api/students/${path(ids.fay)}/enrollments`, 400, ids.fay],
    ['a faculty id, as the faculty member', 'advisor', `/api/students/${path(ids.fay)}/transcript`, 400, ids.fay],
    ['an id as two raw path segments', 'student', `/api/students/${ids.una}/transcript`, 200, ids.una],
    ['a section that does not exist', 'instructor', '/api/sections/Section%2Fnone/enrollments', 404, 'Section/none'],
    ['a course id in place of a section', 'admin', `/api/sections/${path(ids.cs101)}/enrollments`, 400, ids.cs101],
    ['an unknown query parameter', 'student', `/api/students/${path(ids.una)}/transcript?studentId=${path(ids.otto)}`, 400, ids.una],
  ]
  for (const [label, caller, url, status, resourceId] of odd) {
    const before = (await auditEntries()).length
    const res = await callers[caller]({ method: 'GET', url })
    t.equal(res.statusCode, status, label)
    const added = (await auditEntries()).slice(before)
    t.equal(added.length, 1, `${label}: one audit entry`)
    t.match(added[0], { resourceId, success: status < 400, statusCode: status }, label)
  }
  if (!(await app.auditLog.verify()).intact) t.fail('the chain is intact after all of these')
})

async function reassign(t: Test) {
  const { callers, ids, admin } = dept
  const transcript = (caller: CallerKind) => callers[caller]({ method: 'GET', url: `/api/students/${path(ids.una)}/transcript` })
  t.equal((await transcript('advisor')).statusCode, 200, 'Fay advises Una')
  t.equal((await transcript('faculty')).statusCode, 403, 'Gus does not')
  const moved = await admin({ method: 'PUT', url: `/api/people/${path(ids.una)}`, payload: { advisors: [ids.gus] } })
  t.equal(moved.statusCode, 200)
  t.equal((await transcript('advisor')).statusCode, 403, 'the former advisor is refused at once')
  t.equal((await transcript('faculty')).statusCode, 200, 'the new advisor is allowed at once')
}

t.test('the advisor relation is read on every request, so a reassignment counts at once', reassign)
