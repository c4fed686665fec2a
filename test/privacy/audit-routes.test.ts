import t from 'tap'
import { permissions } from '../../src/auth/permissions.js'
import type { AuditEntry } from '../../src/privacy/audit-entry.js'
import { buildTestApp } from '../helpers/app.js'
import { department, path, type CallerKind } from './department.js'

t.test('only admins read the audit log: no permission, group or API key opens it to anyone else', async (t) => {
  const { callers, admin, userIds, app } = await department(t)
  const read = (caller: CallerKind) => callers[caller]({ method: 'GET', url: '/api/admin/audit?limit=1' })
  for (const caller of ['advisor', 'staff', 'student'] as const) {
    const refused = await read(caller)
    t.equal(refused.statusCode, 403, caller)
    t.equal(refused.json().error, 'Permission denied: admins only')
    t.equal(refused.json().code, 'ADKS_PERMISSION_DENIED')
  }
  t.equal((await read('admin')).statusCode, 200, 'an admin')
  t.equal((await admin({ method: 'GET', url: '/api/admin/audit/verify' })).statusCode, 200)

  const auditors = await admin({ method: 'POST', url: '/api/groups', payload: { name: 'Auditors', permissions: ['view_audit'], members: [userIds.staff] } })
  t.equal(auditors.statusCode, 400, 'view_audit is no permission: a group cannot grant it')
  t.match(auditors.json().error, /permissions/)
  t.equal(auditors.json().code, 'ADKS_VALIDATION_FAILED')
  const everything = await admin({ method: 'POST', url: '/api/groups', payload: { name: 'Everything', permissions: [...permissions], members: [userIds.staff] } })
  t.equal(everything.statusCode, 201)
  t.equal((await read('staff')).statusCode, 403, 'a member of a group granting every permission there is')
  t.equal((await callers.staff({ method: 'GET', url: '/api/admin/audit/verify' })).statusCode, 403)

  const auditorKey = await admin({ method: 'POST', url: '/api/api-keys', payload: { name: 'auditor', permissions: ['view_audit'] } })
  t.equal(auditorKey.statusCode, 400, 'nor can a key be given it')
  const key = await admin({ method: 'POST', url: '/api/api-keys', payload: { name: 'writer', permissions: ['read_people', 'write_publications'] } })
  t.equal(key.statusCode, 201)
  const keyed = await callers.apiKey({ method: 'GET', url: '/api/admin/audit', headers: { 'X-API-Key': key.json().key } })
  t.equal(keyed.statusCode, 403, 'a key of an admin, with a write permission, still cannot read it')
  t.equal(keyed.json().code, 'ADKS_API_KEY_NOT_ALLOWED')

  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
    t.equal((await admin({ method, url: '/api/admin/audit', payload: {} })).statusCode, 404, `no ${method} on the log`)
    t.equal((await admin({ method, url: '/api/admin/audit/1', payload: {} })).statusCode, 404, `no ${method} on an entry`)
  }
  t.match(await app.auditLog.verify(), { intact: true })
})

t.test('a group stored with view_audit loses it when the service starts, and its member is refused', async (t) => {
  const { app, admin, callers, userIds } = await department(t)
  t.equal((await callers.staff({ method: 'GET', url: '/api/admin/audit' })).statusCode, 403, 'a user exists once they have made a request')
  const created = await admin({ method: 'POST', url: '/api/groups', payload: { name: 'Auditors', permissions: ['read_people'], members: [userIds.staff] } })
  t.equal(created.statusCode, 201)
  const id = created.json()._id as string
  // As an older version of the service left it: written straight into the store.
  const groups = app.store.collection('groups')
  t.ok(await groups.updateOne({ _id: id }, { $set: { permissions: ['view_audit', 'read_people'] } }))

  const restarted = await buildTestApp(t, {}, { store: app.store })
  const stored = await groups.findById(id)
  t.same(stored?.permissions, ['read_people'], 'view_audit removed, the rest kept')
  const staff = restarted.as('stu@dept.edu', 'staff')
  const refused = await staff({ method: 'GET', url: '/api/admin/audit' })
  t.equal(refused.statusCode, 403, 'the former auditor is refused')
  t.equal(refused.json().error, 'Permission denied: admins only')
  t.equal(refused.json().code, 'ADKS_PERMISSION_DENIED')
  t.same((await staff({ method: 'GET', url: '/api/auth/permissions' })).json().groups, [{ id, name: 'Auditors', permissions: ['read_people'] }])
  t.equal((await callers.staff({ method: 'GET', url: '/api/admin/audit' })).statusCode, 403, 'on the first instance too')

  await buildTestApp(t, {}, { store: app.store })
  t.equal((await groups.findById(id))?._version, stored?._version, 'started again: nothing left to change')
})

t.test('filters, paging and order of the audit log; each read is itself an entry', async (t) => {
  const { callers, admin, ids, userIds } = await department(t)
  const transcriptOf = (caller: CallerKind, id: string) => callers[caller]({ method: 'GET', url: `/api/students/${path(id)}/transcript` })
  await transcriptOf('student', ids.una)
  await transcriptOf('advisor', ids.una)
  await transcriptOf('otherStudent', ids.una)
  await transcriptOf('otherStudent', ids.otto)
  const list = async (query: string) => {
    const res = await admin({ method: 'GET', url: `/api/admin/audit?${query}` })
    t.equal(res.statusCode, 200, query)
    return res.json() as { items: AuditEntry[]; total: number; limit: number; offset: number }
  }

  const all = await list('')
  t.same(all.items.map((e) => e.seq), Array.from({ length: all.total }, (_, i) => all.total - i), 'newest first, every entry')
  t.equal(all.limit, 50)
  const transcripts = await list('resourceType=transcript')
  t.same(transcripts.items.map((e) => [e.userId, e.resourceId, e.success]), [
    [userIds.otherStudent, ids.otto, true], [userIds.otherStudent, ids.una, false], [userIds.advisor, ids.una, true], [userIds.student, ids.una, true],
  ])
  t.equal((await list(`resourceType=transcript&resourceId=${path(ids.una)}`)).total, 3)
  t.same((await list(`userId=${path(userIds.otherStudent!)}`)).items.map((e) => e.resourceId), [ids.otto, ids.una])

  const reads = await list('resourceType=audit-log')
  t.equal(reads.total, 4, 'the four reads before this one')
  t.match(reads.items[0], { userId: userIds.admin, action: 'view', resourceId: null, route: '/api/admin/audit', success: true })

  const page = await list('resourceType=transcript&limit=2&offset=1')
  t.same(page.items.map((e) => e.resourceId), [ids.una, ids.una])
  t.equal(page.total, 4)

  const newest = transcripts.items[0]!.timestamp
  const oldest = transcripts.items[3]!.timestamp
  const atOrAfter = transcripts.items.filter((e) => e.timestamp >= newest).map((e) => e.seq)
  const atOrBefore = transcripts.items.filter((e) => e.timestamp <= oldest).map((e) => e.seq)
  t.same((await list(`resourceType=transcript&from=${encodeURIComponent(newest)}`)).items.map((e) => e.seq), atOrAfter, 'from is inclusive')
  t.same((await list(`resourceType=transcript&to=${encodeURIComponent(oldest)}`)).items.map((e) => e.seq), atOrBefore, 'to is inclusive')
  t.ok(atOrAfter.length < 4 && atOrBefore.length < 4, 'and both leave something out')
  const today = newest.slice(0, 10)
  t.equal((await list(`resourceType=transcript&from=${today}&to=${today}`)).total, 4, 'a bare date as to means the whole day')
  t.equal((await list('resourceType=transcript&to=2000-01-01')).total, 0)
  t.equal((await list(`resourceType=transcript&from=${today}T00:00:00%2B14:00`)).total, 4, 'a zoned time')

  const bad: [string, RegExp][] = [
    ['from=yesterday', /'from' must be an ISO 8601 date/],
    ['to=2025-01-01T10:00', /'to' must be an ISO 8601 date or a date-time with a time zone/],
    ['from=2025-02-01&to=2025-01-01', /'from' is after 'to'/],
    ['resourceType=grades', /'resourceType' must be one of: enrollment, grade, transcript, degree-progress, student-plan, audit-log/],
    ['limit=0', /'limit'/],
    ['limit=201', /'limit'/],
    ['userId[$ne]=x', /unknown parameter/],
    ['action=view', /unknown parameter 'action'/],
  ]
  for (const [query, message] of bad) {
    const res = await admin({ method: 'GET', url: `/api/admin/audit?${query}` })
    t.equal(res.statusCode, 400, query)
    t.match(res.json().error, message, query)
    t.equal(res.json().code, 'ADKS_VALIDATION_FAILED', query)
  }
})
