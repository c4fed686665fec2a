/**
 * History is read under the record's own rules (docs/history.md; docs/privacy.md): a student's protected
 * records' history only by the student, their advisors and admins, every read audited; a student's id never
 * reaches, through any history or past state, a caller who may not see that student; API keys read history
 * only where they read the record.
 */
import t from 'tap'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { people, path, workflowDepartment } from '../routes/workflows/support.js'

t.test('history follows the record\'s read rules, redaction and audit', async (t) => {
  const d = await workflowDepartment(t)
  const { admin, callers, ids, apiKey } = d

  // A lab whose members once included Gabe, a graduate student only his advisor Fay (and admins) may see.
  const created = await admin({ method: 'POST', url: '/api/labs', payload: { name: 'Vision', pi: ids.fay, members: [ids.gabe, ids.cal] } })
  t.equal(created.statusCode, 201, created.body)
  const lab = created.json()._id as string
  const stamp = created.json()._updated_at as string
  t.equal((await admin({ method: 'PUT', url: `/api/labs/${path(lab)}`, payload: { members: [ids.cal] } })).statusCode, 200)
  t.equal((await admin({ method: 'PUT', url: `/api/labs/${path(lab)}`, payload: { description: 'Seeing machines' } })).statusCode, 200)
  const views = {
    history: `/api/labs/${path(lab)}/history`,
    then: `/api/labs/${path(lab)}?as_of=${encodeURIComponent(stamp)}`,
  }
  for (const [who, caller] of [['an unrelated faculty member', callers.gus], ['another student', callers.otto]] as const) {
    for (const [what, url] of Object.entries(views)) {
      const answer = await caller({ method: 'GET', url })
      t.equal(answer.statusCode, 200, `${who}: ${what}`)
      t.notOk(answer.body.includes(ids.gabe), `${who} never sees the hidden student's id in the ${what}`)
      t.ok(answer.body.includes(ids.cal), `${who} sees the rest of the ${what}`)
    }
  }
  const advisor = await callers.fay({ method: 'GET', url: views.history })
  t.ok(advisor.body.includes(ids.gabe), 'his advisor sees him in the history')
  const removal = (advisor.json().items as { version: number; changes: { path: string; before?: unknown }[] }[]).find((e) => e.version === 2)!
  t.ok(removal.changes.some((c) => c.path.startsWith('/members/') && c.before === ids.gabe), 'with what changed')
  const hidden = (await callers.gus({ method: 'GET', url: views.history })).json().items as { version: number; changes: unknown[] }[]
  t.same(hidden.find((e) => e.version === 2)!.changes, [], 'a change only to what the caller may not see shows as no change')

  // An enrollment's history: the student, their advisor and admins; every read audited, refusals too.
  const course = (await admin({ method: 'POST', url: '/api/courses', payload: { course_code: 'CS 410', title: 'Vision', credits: 3 } })).json()._id as string
  const enrollment = (await admin({ method: 'POST', url: '/api/enrollments', payload: { student: ids.una, course, term: '25F', status: 'enrolled' } })).json()._id as string
  t.equal((await admin({ method: 'PUT', url: `/api/enrollments/${path(enrollment)}`, payload: { status: 'completed', grade: 'B' } })).statusCode, 200)
  const url = `/api/students/${path(ids.una)}/enrollments/${path(enrollment)}/history`
  for (const [who, caller] of [['the student', callers.una], ['her advisor', callers.fay], ['an admin', admin]] as const) {
    const answer = await caller({ method: 'GET', url })
    t.equal(answer.statusCode, 200, `${who} reads it`)
    t.match(answer.json(), { total: 2, items: [{ version: 2, changes: [{ path: '/status', before: 'enrolled', after: 'completed' }] }] })
  }
  const otto = await callers.otto({ method: 'GET', url })
  t.equal(otto.statusCode, 403, 'another student may not')
  t.equal(otto.json().code, 'ADKS_STUDENT_ACCESS_DENIED')
  t.equal((await callers.gus({ method: 'GET', url })).statusCode, 403, 'nor an unrelated faculty member')
  t.equal((await callers.otto({ method: 'GET', url: `/api/students/${path(ids.otto)}/enrollments/${path(enrollment)}/history` })).statusCode, 404, 'nor through their own id')
  t.equal((await apiKey({ method: 'GET', url })).statusCode, 403, 'nor an API key')
  const audit = (await admin({ method: 'GET', url: `/api/admin/audit?resourceType=enrollment&resourceId=${encodeURIComponent(enrollment)}&limit=200` })).json().items as { userId: string; success: boolean; action: string }[]
  t.ok(audit.some((e) => e.userId === userIdForEmail(people.otto.email) && e.success === false && e.action === 'view'), 'the refusal is audited')
  t.ok(audit.some((e) => e.userId === userIdForEmail(people.una.email) && e.success === true), 'and the student\'s read')

  // A plan's history: the same rule.
  const planUrl = `/api/student-plans/${path(d.plan)}/history`
  t.equal((await callers.una({ method: 'GET', url: planUrl })).statusCode, 200, 'the student reads her plan\'s history')
  t.equal((await callers.otto({ method: 'GET', url: planUrl })).statusCode, 403, 'another student may not')

  // API keys: people's details are open to keys, so their history is; labs' details are not.
  const faculty = await apiKey({ method: 'GET', url: `/api/people/${path(ids.fay)}/history` })
  t.equal(faculty.statusCode, 200, 'a key reads a faculty member\'s history, as it reads the record')
  t.equal((await apiKey({ method: 'GET', url: `/api/people/${path(ids.una)}/history` })).statusCode, 404, 'never a student\'s, which a key may not read')
  t.equal((await apiKey({ method: 'GET', url: views.history })).statusCode, 403, 'nor a lab\'s, whose details keys do not read')
  t.equal((await callers.otto({ method: 'GET', url: `/api/people/${path(ids.una)}/history` })).statusCode, 404, 'a student never reads another undergraduate\'s history')
  t.equal((await callers.otto({ method: 'POST', url: `/api/labs/${path(lab)}/restore`, payload: { version: 1 } })).statusCode, 403, 'a restore needs the write permission')
})
