import t, { type Test } from 'tap'
import { userIdForEmail } from '../../../src/auth/tokens.js'
import { decide, delegateTo, instanceOf, path, pendingIn, people, spec, workflowDepartment, type Department, type Inject, type InstanceView, type Name } from './support.js'

/** Conflicts of interest (docs/workflows.md): whom an entity is about, and a nominator, are never asked and never decide. */

async function ok(t: Test, res: Awaited<ReturnType<Inject>>, status: number, label: string) {
  t.equal(res.statusCode, status, `${label} (${res.body.slice(0, 300)})`)
  return res.json()
}

/** Sets a committee group's members (users), as an admin keeps them. */
async function setGroup(t: Test, d: Department, name: string, members: Name[]) {
  const groups = (await d.admin({ method: 'GET', url: '/api/groups?limit=200' })).json().items as { _id: string; name: string }[]
  const group = groups.find((g) => g.name === name)!
  const users = members.map((m) => userIdForEmail(people[m].email))
  await ok(t, await d.admin({ method: 'PUT', url: `/api/groups/${path(group._id)}`, payload: { members: users } }), 200, `${name}: ${members.join(', ')}`)
}

/** Creates and submits an entity as `who`; the instance as an admin reads it. */
async function submit(t: Test, d: Department, domain: 'award_nominations' | 'fellowships' | 'graduate_milestones', who: Inject, body: object) {
  const { base } = spec(domain)
  const created = await ok(t, await who({ method: 'POST', url: base, payload: body }), 201, `${domain}: created`)
  const submitted = await ok(t, await who({ method: 'POST', url: `${base}/${path(created._id)}/submit` }), 200, `${domain}: submitted`)
  return { id: created._id as string, instance: submitted.instance._id as string }
}

const askedIn = (instance: InstanceView, key: string) =>
  instance.stages.find((s) => s.key === key)!.approvals.filter((a) => a.round === instance.round).map((a) => a.approver).sort()

async function queue(d: Department, domain: 'award_nominations' | 'fellowships' | 'graduate_milestones', who: Inject) {
  return (await who({ method: 'GET', url: spec(domain).pendingPath })).json() as { total: number; items: { id: string }[] }
}

t.test('the nominee on an awards committee of three is not asked, is refused if they try, and no one delegates to them', async (t) => {
  const d = await workflowDepartment(t)
  const { id, instance } = await submit(t, d, 'award_nominations', d.callers.gus, { nominee: d.ids.cal, award: 'Teaching prize', statement: 'Cal teaches well' })
  const started = await instanceOf(d, instance)
  t.same(askedIn(started, 'committee'), [d.ids.cora, d.ids.cyd].sort(), 'the stage asks the other two')
  t.same((await queue(d, 'award_nominations', d.callers.cal)).total, 0, "the nominee's queue is empty")
  t.equal((await queue(d, 'award_nominations', d.callers.cora)).items[0]?.id, id, 'the others are asked')
  const tried = await decide(d, 'award_nominations', 'cal', id, 'approve', { stage: 'committee' })
  t.equal(tried.statusCode, 404, 'the nominee, not asked, does not even see the nomination')
  const handed = await delegateTo(d, 'award_nominations', 'cora', id, d.ids.cal)
  t.equal(handed.statusCode, 403, 'no one delegates to the nominee')
  t.match(handed.json().error, /conflict of interest/)
  t.equal(handed.json().code, 'ADKS_PERMISSION_DENIED')
  for (const who of ['cora', 'cyd'] as const) await ok(t, await decide(d, 'award_nominations', who, id, 'approve'), 200, `${who} approves`)
  const after = await instanceOf(d, instance)
  t.equal(after.current_stage, 'department', 'the quorum of the two asked completes the stage')
  t.notOk(after.history.some((h) => h.actor === d.ids.cal), 'the nominee never acted')
})

t.test('a nominator on the committee is not asked and is refused (403: the nomination is theirs to see)', async (t) => {
  const d = await workflowDepartment(t)
  const { id, instance } = await submit(t, d, 'award_nominations', d.callers.cal, { nominee: d.ids.una, award: 'Best student', statement: 'Una' })
  t.same(askedIn(await instanceOf(d, instance), 'committee'), [d.ids.cora, d.ids.cyd].sort())
  t.same((await queue(d, 'award_nominations', d.callers.cal)).total, 0, "the nominator's queue is empty")
  const tried = await decide(d, 'award_nominations', 'cal', id, 'approve', { stage: 'committee' })
  t.equal(tried.statusCode, 403)
  t.match(tried.json().error, /own submission/)
  t.equal(tried.json().code, 'ADKS_PERMISSION_DENIED')
})

t.test('a fellowship applicant on the committee is not asked and is refused; too few others left is a 409 at submit naming the role', async (t) => {
  const d = await workflowDepartment(t)
  await setGroup(t, d, 'Fellowship committee', ['cal', 'cora', 'gabe'])
  const { id, instance } = await submit(t, d, 'fellowships', d.callers.gabe, { applicant: d.ids.gabe, fellowship: 'Travel grant', statement: 'A conference' })
  await ok(t, await decide(d, 'fellowships', 'fay', id, 'approve'), 200, 'the advisor approves')
  const atCommittee = await instanceOf(d, instance)
  t.equal(atCommittee.current_stage, 'committee')
  t.same(askedIn(atCommittee, 'committee'), [d.ids.cal, d.ids.cora].sort(), 'the committee stage asks the other two')
  t.same((await queue(d, 'fellowships', d.callers.gabe)).total, 0, "the applicant's queue is empty")
  const tried = await decide(d, 'fellowships', 'gabe', id, 'approve', { stage: 'committee' })
  t.equal(tried.statusCode, 403)
  t.match(tried.json().error, /own submission/)
  t.equal(tried.json().code, 'ADKS_PERMISSION_DENIED')

  // An admin applying for someone else (a second admin decides the last stage): the applicant is then
  // not the submitter, and is still left out.
  await ok(t, await d.as('abe@dept.edu', 'admin')({ method: 'GET', url: '/api/auth/me' }), 200, 'a second admin signs in')
  const forGabe = await submit(t, d, 'fellowships', d.admin, { applicant: d.ids.gabe, fellowship: 'Summer grant', statement: 'Research' })
  await ok(t, await decide(d, 'fellowships', 'fay', forGabe.id, 'approve'), 200, 'the advisor approves')
  t.same(pendingIn(await instanceOf(d, forGabe.instance)).sort(), [d.ids.cal, d.ids.cora].sort(), 'the applicant is left out though an admin submitted')
  const byApplicant = await decide(d, 'fellowships', 'gabe', forGabe.id, 'approve', { stage: 'committee' })
  t.equal(byApplicant.statusCode, 403)
  t.match(byApplicant.json().error, /conflict of interest/)
  t.equal(byApplicant.json().code, 'ADKS_PERMISSION_DENIED')

  await setGroup(t, d, 'Fellowship committee', ['cal', 'gabe'])
  const { base } = spec('fellowships')
  const draft = await ok(t, await d.callers.gabe({ method: 'POST', url: base, payload: { applicant: d.ids.gabe, fellowship: 'Book grant', statement: 'Books' } }), 201, 'created')
  const refused = await d.callers.gabe({ method: 'POST', url: `${base}/${path(draft._id)}/submit` })
  t.equal(refused.statusCode, 409, 'a quorum of 2 with one other member cannot be met')
  t.match(refused.json().error, /committee_member/)
  t.equal(refused.json().code, 'ADKS_WORKFLOW_CONFLICT')
  t.equal((await d.callers.gabe({ method: 'GET', url: `${base}/${path(draft._id)}` })).json().status, 'draft', 'no instance was started')
})

t.test('a student on the committee group a milestone stage names is left out of their own milestone, which an admin submits; refused if they try', async (t) => {
  const d = await workflowDepartment(t)
  // A second admin: the first one submits, so may not decide.
  const abe = d.as('abe@dept.edu', 'admin')
  await ok(t, await abe({ method: 'GET', url: '/api/auth/me' }), 200, 'a second admin signs in')
  const members = (['cal', 'cora', 'gabe'] as const).map((n) => userIdForEmail(people[n].email))
  const group = await ok(t, await d.admin({ method: 'POST', url: '/api/groups', payload: { name: 'Graduate studies committee', members } }), 201, 'a committee with a student seat')
  const current = ((await d.admin({ method: 'GET', url: '/api/workflows' })).json().items as { _id: string; domain: string }[]).find((w) => w.domain === 'graduate_milestones')!
  const stages = [
    { key: 'advisor', name: 'Advisor', approver_role: 'advisor', policy: 'all' },
    { key: 'committee', name: 'Graduate studies committee', approver_role: 'committee_member', group: group._id, policy: 'all' },
    { key: 'department', name: 'Department', approver_role: 'department_admin', policy: 'any' },
  ]
  await ok(t, await d.admin({ method: 'PUT', url: `/api/workflows/${path(current._id)}`, payload: { domain: 'graduate_milestones', name: 'Milestones, studies committee', stages } }), 200, 'a new version')
  const { id, instance } = await submit(t, d, 'graduate_milestones', d.admin, { student: d.ids.gabe, milestone_type: 'annual_review', title: 'Year 1', documents: [] })
  await ok(t, await decide(d, 'graduate_milestones', 'fay', id, 'approve'), 200, 'the advisor approves')
  const atCommittee = await instanceOf(d, instance)
  t.same(askedIn(atCommittee, 'committee'), [d.ids.cal, d.ids.cora].sort(), 'policy all asks every member but the student')
  t.same((await queue(d, 'graduate_milestones', d.callers.gabe)).total, 0, "the student's queue is empty")
  const tried = await decide(d, 'graduate_milestones', 'gabe', id, 'approve', { stage: 'committee' })
  t.equal(tried.statusCode, 403)
  t.match(tried.json().error, /conflict of interest/)
  t.equal(tried.json().code, 'ADKS_PERMISSION_DENIED')
  for (const who of ['cal', 'cora'] as const) await ok(t, await decide(d, 'graduate_milestones', who, id, 'approve'), 200, `${who} approves`)
  t.same(pendingIn(await instanceOf(d, instance)), [userIdForEmail('abe@dept.edu')], 'the department stage asks the admin who did not submit')
})

t.test('an admin the nomination is about is not asked and cannot override, with or without a reason', async (t) => {
  const d = await workflowDepartment(t)
  const abe = d.as('abe@dept.edu', 'admin')
  const abeId = await ok(t, await d.admin({ method: 'POST', url: '/api/people', payload: { type: 'Staff', first_name: 'Abe', last_name: 'Admin', email: 'abe@dept.edu' } }), 201, 'Abe has a Person')
  await ok(t, await abe({ method: 'GET', url: '/api/auth/me' }), 200, 'Abe signs in')
  const { id, instance } = await submit(t, d, 'award_nominations', d.callers.gus, { nominee: abeId.id, award: 'Service award', statement: 'Abe serves' })
  for (const who of ['cal', 'cora'] as const) await ok(t, await decide(d, 'award_nominations', who, id, 'approve'), 200, `${who} approves`)
  t.same(pendingIn(await instanceOf(d, instance)), [d.ids.admin], 'the department stage asks only the other admin')
  t.same((await queue(d, 'award_nominations', abe)).total, 0, "the nominee admin's queue is empty")
  const override = await decide(d, 'award_nominations', abe, id, 'approve', { override: true, comment: 'I am an admin' })
  t.equal(override.statusCode, 403, 'an override does not lift the conflict')
  t.match(override.json().error, /conflict of interest/)
  t.equal(override.json().code, 'ADKS_PERMISSION_DENIED')
  t.equal((await decide(d, 'award_nominations', abe, id, 'reject', { comment: 'no' })).statusCode, 403, 'nor does a plain decision')
  t.match(await ok(t, await decide(d, 'award_nominations', 'admin', id, 'approve'), 200, 'the other admin decides'), { instance: { status: 'approved' } })
})
