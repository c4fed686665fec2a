import t from 'tap'
import { decide } from '../../src/domain/workflows/index.js'
import { callerOf } from '../../src/workflows/identity.js'
import { domainSpec } from '../../src/workflows/registry.js'
import { buildTestApp } from '../helpers/app.js'
import { rejection, workflowDepartment } from './support.js'
import { testActor } from '../helpers/actor.js'

const thesis = (student: string, advisor: string) => ({ student, advisor, title: 'T', abstract: 'A', term: '25F' })

t.test('a death between the instance write and the entity write: the entity waits, the sweep submits it', async (t) => {
  const d = await workflowDepartment(t)
  const { workflows, as, ids, records } = d
  const draft = await workflows.create('honors_thesis', as('una'), testActor, thesis(ids.una, ids.fay))
  const entity = (await records.get(draft._id, 'ThesisRequest'))!
  // The first write of submit, by the code path submit uses, and no second one.
  const { instance } = await workflows.recordSubmission(domainSpec('honors_thesis'), await callerOf(as('una'), d.app.people), entity, undefined)
  t.equal(instance.status, 'in_review')
  t.equal((await records.get(draft._id))?.status, 'draft', 'the entity lags its instance')
  const edit = await rejection(t, workflows.update('honors_thesis', as('una'), testActor, draft._id, { title: 'Sneaky' }))
  t.equal(edit.statusCode, 409, 'an entity whose instance is in review is not edited, whatever its status says')
  t.same(await workflows.repair(testActor), { repaired: 1 })
  t.equal((await records.get(draft._id))?.status, 'submitted')
  t.same(await workflows.repair(testActor), { repaired: 0 }, 'a second sweep finds nothing')
  const again = await workflows.submit('honors_thesis', as('una'), testActor, draft._id)
  t.equal(again.instance._version, instance._version, 'submitting again is a repeat, not a second instance')
})

t.test('a death after a final decision: the sweep approves the entity and marks the plan', async (t) => {
  const d = await workflowDepartment(t)
  const { workflows, as, ids, records } = d
  const degree = (await records.create('Degree', { name: 'Physics', degree_type: 'BS' }, { actor: testActor }))._id
  const plan = (await records.create('StudentPlan', { student: ids.una, plan_name: 'Main', target_degree: degree, planned_courses: [] }, { actor: testActor }))._id
  const request = await workflows.create('major_plans', as('una'), testActor, { plan })
  t.equal(request.status, 'submitted', 'a major plan is submitted as it is made')
  await workflows.decide('major_plans', as('fay'), testActor, request._id, { decision: 'approve' })
  await workflows.decide('major_plans', as('fred'), testActor, request._id, { decision: 'approve' })
  const instance = (await workflows.instancesStore.ofEntity(request._id))!
  const definition = (await workflows.definitionsStore.byId(instance.workflow))!
  // The admin's approval written to the instance only.
  const acted = await workflows.instancesStore.act(instance._id, (current) =>
    decide(current, definition, { actor: { id: ids.admin, admin: true }, decision: 'approve', directory: { roles: {} }, now: new Date() }))
  t.equal(acted.instance.status, 'approved')
  t.equal((await records.get(request._id))?.status, 'submitted')
  t.equal((await records.get(plan))?.approved_at, undefined)
  t.same(await workflows.repair(testActor), { repaired: 1 })
  t.equal((await records.get(request._id))?.status, 'approved')
  t.equal((await records.get(plan))?.approval, request._id, 'the plan is marked approved by the repair')
})

t.test('a plan changed after its final decision but before the approval was projected: the sweep approves the entity, not the plan', async (t) => {
  const d = await workflowDepartment(t)
  const { workflows, as, ids, records, app } = d
  const degree = (await records.create('Degree', { name: 'Biology', degree_type: 'BS' }, { actor: testActor }))._id
  const student = (await records.get(ids.una))!
  const plan = await app.plans.create(student, { student: ids.una, plan_name: 'Main', target_degree: degree, planned_courses: [] }, { actor: testActor })
  const request = await workflows.create('major_plans', as('una'), testActor, { plan: plan._id })
  await workflows.decide('major_plans', as('fay'), testActor, request._id, { decision: 'approve' })
  await workflows.decide('major_plans', as('fred'), testActor, request._id, { decision: 'approve' })
  const instance = (await workflows.instancesStore.ofEntity(request._id))!
  const definition = (await workflows.definitionsStore.byId(instance.workflow))!
  // The admin's approval written to the instance only; the process dies before the projection.
  await workflows.instancesStore.act(instance._id, (current) =>
    decide(current, definition, { actor: { id: ids.admin, admin: true }, decision: 'approve', directory: { roles: {} }, now: new Date() }))
  const fenced = (await records.get(plan._id))!
  t.equal(fenced.review, request._id, 'the plan names its review')
  const changed = await app.plans.update(student, fenced, { plan_name: 'Changed' }, { by: as('una'), actor: testActor })
  t.equal(changed.review, undefined, 'the change voids the approval before the plan ever carried it')
  t.same(await workflows.repair(testActor), { repaired: 1 })
  t.equal((await records.get(request._id))?.status, 'approved')
  const after = (await records.get(plan._id))!
  t.same([after.approval, after.approved_at, after.plan_name], [undefined, undefined, 'Changed'], 'the late projection does not mark the changed plan')
  t.match((await workflows.history('major_plans', as('una'), request._id)).items.at(-1), { action: 'voided', actor: ids.una })
})

t.test('an entity submitted with no instance returns to draft', async (t) => {
  const { workflows, as, ids, records } = await workflowDepartment(t)
  const draft = await workflows.create('honors_thesis', as('una'), testActor, thesis(ids.una, ids.fay))
  await records.update(draft._id, { status: 'submitted' }, { actor: testActor })
  t.same(await workflows.repair(testActor), { repaired: 1 })
  t.equal((await records.get(draft._id))?.status, 'draft')
})

t.test('one sweep over many requests repairs exactly those out of step, leaving the rest', async (t) => {
  const d = await workflowDepartment(t)
  const { workflows, as, ids, records } = d
  const una = await callerOf(as('una'), d.app.people)
  const lagging: string[] = []
  const inStep: string[] = []
  const orphaned: string[] = []
  for (let i = 0; i < 9; i++) {
    const draft = await workflows.create('honors_thesis', as('una'), testActor, { ...thesis(ids.una, ids.fay), title: `T${i}` })
    if (i % 3 === 0) {
      await workflows.recordSubmission(domainSpec('honors_thesis'), una, (await records.get(draft._id, 'ThesisRequest'))!, undefined)
      lagging.push(draft._id)
    } else if (i % 3 === 1) {
      await workflows.submit('honors_thesis', as('una'), testActor, draft._id)
      inStep.push(draft._id)
    } else {
      await records.update(draft._id, { status: 'submitted' }, { actor: testActor })
      orphaned.push(draft._id)
    }
  }
  t.same(await workflows.repair(testActor), { repaired: lagging.length + orphaned.length })
  for (const id of [...lagging, ...inStep]) t.equal((await records.get(id))?.status, 'submitted', `${id} in review`)
  for (const id of orphaned) t.equal((await records.get(id))?.status, 'draft', `${id} back to draft`)
  t.same(await workflows.repair(testActor), { repaired: 0 })
})

t.test('the sweep runs at start-up', async (t) => {
  const d = await workflowDepartment(t)
  const draft = await d.workflows.create('honors_thesis', d.as('una'), testActor, thesis(d.ids.una, d.ids.fay))
  await d.workflows.recordSubmission(domainSpec('honors_thesis'), await callerOf(d.as('una'), d.app.people), (await d.records.get(draft._id, 'ThesisRequest'))!, undefined)
  const dataDir = d.app.config.dataDir
  await d.app.close()
  const { app } = await buildTestApp(t, { DATA_DIR: dataDir })
  t.equal((await app.records.get(draft._id))?.status, 'submitted', 'the restarted service repaired the entity before serving')
})

t.test("a plan's approval fields are the workflow's alone", async (t) => {
  const { app, records, ids } = await workflowDepartment(t)
  const student = (await records.get(ids.una))!
  const degree = (await records.create('Degree', { name: 'Chemistry', degree_type: 'BS' }, { actor: testActor }))._id
  const forged = await rejection(t, app.plans.create(student, { student: ids.una, plan_name: 'P', target_degree: degree, planned_courses: [], approved_at: '2025-01-01T00:00:00.000Z' }, { actor: testActor }))
  t.equal(forged.statusCode, 400)
  const plan = await app.plans.create(student, { student: ids.una, plan_name: 'P', target_degree: degree, planned_courses: [] }, { actor: testActor })
  t.equal((await rejection(t, app.plans.update(student, plan, { approval: 'MajorPlanApproval/x' }, { actor: testActor }))).statusCode, 400)
})
