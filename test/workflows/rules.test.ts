import t from 'tap'
import { keyPrincipal, emails, rejection, workflowDepartment } from './support.js'
import { testActor } from '../helpers/actor.js'

const thesis = (student: string, advisor: string) => ({ student, advisor, title: 'T', abstract: 'A', term: '25F' })

t.test('who sees an entity: its student, advisors and approvers, admins; not others, nor API keys', async (t) => {
  const { workflows, as, ids } = await workflowDepartment(t)
  const draft = await workflows.create('honors_thesis', as('una'), testActor, thesis(ids.una, ids.fay))
  await workflows.submit('honors_thesis', as('una'), testActor, draft._id)
  for (const who of ['una', 'fay', 'fred', 'admin'] as const) {
    t.equal((await workflows.get('honors_thesis', as(who), draft._id))._id, draft._id, `${who} sees it`)
    t.equal((await workflows.list('honors_thesis', as(who), { limit: 10, offset: 0 })).total, 1, `${who} lists it`)
  }
  for (const who of ['gus', 'gina', 'stu'] as const) {
    t.equal((await rejection(t, workflows.get('honors_thesis', as(who), draft._id))).statusCode, 404, `${who} gets 404`)
    t.equal((await rejection(t, workflows.history('honors_thesis', as(who), draft._id))).statusCode, 404)
    t.equal((await workflows.list('honors_thesis', as(who), { limit: 10, offset: 0 })).total, 0, `${who} lists nothing`)
    t.equal((await rejection(t, workflows.decide('honors_thesis', as(who), testActor, draft._id, { decision: 'approve' }))).statusCode, 404)
  }
  const instanceId = (await workflows.get('honors_thesis', as('una'), draft._id)).instance!._id
  t.equal((await rejection(t, workflows.catalog.instance(as('gus'), instanceId))).statusCode, 404)
  t.equal((await workflows.catalog.instances(as('gus'), { limit: 10, offset: 0 })).total, 0)
  t.equal((await workflows.catalog.instances(as('fay'), { limit: 10, offset: 0 })).total, 1)
  const key = keyPrincipal(emails.admin, 'admin')
  for (const call of [
    workflows.get('honors_thesis', key, draft._id), workflows.list('honors_thesis', key, { limit: 10, offset: 0 }),
    workflows.pending('honors_thesis', key, { limit: 10, offset: 0 }), workflows.catalog.instances(key, { limit: 10, offset: 0 }),
    workflows.create('honors_thesis', key, testActor, thesis(ids.una, ids.fay)), workflows.catalog.definitions(key),
  ]) t.equal((await rejection(t, call)).statusCode, 403, 'an API key never reaches workflows, even an admin\'s')
  t.equal((await rejection(t, workflows.pending('honors_thesis', as('fay'), { approver: ids.admin, limit: 10, offset: 0 }))).statusCode, 403,
    "only admins see another's queue")
  t.equal((await workflows.pending('honors_thesis', as('admin'), { approver: ids.fay, limit: 10, offset: 0 })).total, 1)
})

t.test('who creates', async (t) => {
  const { workflows, as, ids } = await workflowDepartment(t)
  t.equal((await workflows.create('honors_thesis', as('fay'), testActor, thesis(ids.una, ids.fay))).student, ids.una, 'an advisor creates for the student')
  t.equal((await rejection(t, workflows.create('honors_thesis', as('gus'), testActor, thesis(ids.una, ids.fay)))).statusCode, 403, 'not another faculty member')
  t.equal((await rejection(t, workflows.create('fellowships', as('una'), testActor, { applicant: ids.gina, fellowship: 'F', statement: 'S' }))).statusCode, 403,
    'a fellowship application only for oneself')
  t.equal((await workflows.create('fellowships', as('una'), testActor, { fellowship: 'F', statement: 'S' })).applicant, ids.una, 'the applicant defaults to the caller')
  t.equal((await rejection(t, workflows.create('award_nominations', as('una'), testActor, { nominee: ids.gina, award: 'A', statement: 'S' }))).statusCode, 403,
    'students do not nominate')
  t.equal((await workflows.create('award_nominations', as('stu'), testActor, { nominee: ids.gina, award: 'A', statement: 'S' })).nominator, ids.stu, 'staff nominate, as nominator')
  t.equal((await rejection(t, workflows.create('honors_thesis', as('una'), testActor, { ...thesis(ids.una, ids.fay), status: 'approved' }))).statusCode, 400,
    'status is the workflow\'s')
  t.equal((await rejection(t, workflows.create('honors_thesis', as('una'), testActor, { ...thesis(ids.una, ids.fay), term: 'soon' }))).statusCode, 400, 'bad input is a 400')
})

t.test('comments, unresolvable stages, the nominator, milestones, legacy history', async (t) => {
  const { workflows, records, as, ids, app } = await workflowDepartment(t)
  const draft = await workflows.create('honors_thesis', as('una'), testActor, thesis(ids.una, ids.fay))
  const long = await rejection(t, workflows.submit('honors_thesis', as('una'), testActor, draft._id, { comment: 'x'.repeat(10_001) }))
  t.equal(long.statusCode, 400)
  t.match(long.message, /comment/, 'the 400 names the field')
  await workflows.submit('honors_thesis', as('una'), testActor, draft._id, { comment: 'x'.repeat(10_000) })
  t.equal((await rejection(t, workflows.decide('honors_thesis', as('fay'), testActor, draft._id, { decision: 'approve', comment: 'y'.repeat(10_001) }))).statusCode, 400)

  // Gus advises no one: an independent research request he supervises asks him; one by a student with no advisor has nobody.
  const orphan = await records.create('UndergraduateStudent', { first_name: 'O', last_name: 'X', email: 'orphan@dept.edu' }, { actor: testActor })
  const request = await workflows.create('major_plans', as('admin'), testActor, { plan: (await records.create('StudentPlan', {
    student: orphan._id, plan_name: 'P', target_degree: (await records.create('Degree', { name: 'Art', degree_type: 'BA' }, { actor: testActor }))._id, planned_courses: [],
  }, { actor: testActor }))._id }).catch((error: Error & { statusCode?: number }) => error)
  t.equal((request as { statusCode?: number }).statusCode, 409, 'a stage that resolves to nobody is a 409 at submit')
  t.match((request as Error).message, /advisor/, 'naming the missing role')
  t.equal((await records.find(app.schema.class('MajorPlanApproval')!, {})).length, 0, 'and leaves no request behind')

  const nomination = await workflows.create('award_nominations', as('c1'), testActor, { nominee: ids.una, award: 'A', statement: 'S' })
  const { instance } = await workflows.submit('award_nominations', as('c1'), testActor, nomination._id)
  t.notOk(instance.stages[0]!.approvals.some((a) => a.approver === ids.c1), 'the nominator is not asked on their committee')
  t.equal((await rejection(t, workflows.decide('award_nominations', as('c1'), testActor, nomination._id, { decision: 'approve' }))).statusCode, 403)

  const milestone = await workflows.create('graduate_milestones', as('gina'), testActor, { student: ids.gina, milestone_type: 'dissertation_proposal', title: 'P', documents: [] })
  t.equal(milestone.milestone_status, 'not_started')
  t.equal((await workflows.update('graduate_milestones', as('gina'), testActor, milestone._id, { title: 'Q' })).milestone_status, 'in_progress', 'the first edit starts it')
  t.equal((await workflows.submit('graduate_milestones', as('gina'), testActor, milestone._id)).entity.milestone_status, 'submitted')

  await records.create('LegacyApproval', { entity: draft._id, domain: 'honors_thesis', approver: 'old-dean', decision: 'approved', decided_at: '2020-01-01T00:00:00.000Z', source: 'paper' }, { actor: testActor })
  const { items } = await workflows.history('honors_thesis', as('una'), draft._id)
  t.same(items.map((i) => [i.action, i.legacy ?? false]), [['approve', true], ['submit', false]], 'legacy rows show first, in time order')
})

t.test('definitions: a new version for new instances; running instances keep theirs', async (t) => {
  const { workflows, as, ids } = await workflowDepartment(t)
  const { items } = await workflows.catalog.definitions(as('una'))
  t.same(items.map((d) => d.domain).toSorted(), ['award_nominations', 'fellowships', 'graduate_milestones', 'honors_thesis', 'independent_research', 'major_plans'])
  t.same(items.find((d) => d.domain === 'graduate_milestones')!.stages.map((s) => `${s.approver_role}:${s.policy}`), ['advisor:all', 'committee_member:all', 'department_admin:any'])
  const v1 = items.find((d) => d.domain === 'honors_thesis')!
  const first = await workflows.create('honors_thesis', as('una'), testActor, thesis(ids.una, ids.fay))
  await workflows.submit('honors_thesis', as('una'), testActor, first._id)
  t.equal((await rejection(t, workflows.catalog.updateDefinition(as('fay'), testActor, v1._id, { domain: 'honors_thesis', name: 'x', stages: v1.stages }))).statusCode, 403)
  const bad = await rejection(t, workflows.catalog.updateDefinition(as('admin'), testActor, v1._id, { domain: 'honors_thesis', name: 'x', stages: [{ key: 'a', name: 'A', approver_role: 'advisor', policy: 'quorum' }] }))
  t.equal(bad.statusCode, 400)
  const v2 = await workflows.catalog.updateDefinition(as('admin'), testActor, v1._id, { domain: 'honors_thesis', name: 'Admins only', stages: [v1.stages[1]!] })
  t.equal(v2.version, 2)
  t.same((await workflows.catalog.definition(as('admin'), v1._id)).stages, v1.stages, 'version 1 is unchanged')
  const second = await workflows.create('honors_thesis', as('una'), testActor, thesis(ids.una, ids.fay))
  const started = await workflows.submit('honors_thesis', as('una'), testActor, second._id)
  t.equal(started.instance.workflow_version, 2)
  t.equal(started.instance.current_stage, 'department')
  const old = await workflows.decide('honors_thesis', as('fay'), testActor, first._id, { decision: 'approve' })
  t.equal(old.instance.workflow_version, 1, 'the running instance goes on with version 1')
  t.equal(old.instance.current_stage, 'department')
})
