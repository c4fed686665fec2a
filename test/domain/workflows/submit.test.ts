import t from 'tap'
import { checkDefinition, start, type WorkflowDefinition } from '../../../src/domain/workflows/index.js'
import { directory, fellowship, instanceOf, standing, student, t0, thesis } from './fixtures.js'

t.test('submitting starts round 1 with the first stage active and its approvers pending', async (t) => {
  const instance = instanceOf(start({ definition: thesis, entity: 'ThesisRequest/1', submitter: student, directory, now: t0, comment: 'please review' }))
  t.match(instance, {
    workflow: 'Workflow/thesis', workflow_version: 1, domain: 'honors_thesis', entity: 'ThesisRequest/1', submitter: student,
    excluded: [], status: 'in_review', round: 1, current_stage: 'advisor',
  })
  t.same(instance.stages.map((s) => s.status), ['active', 'waiting'])
  t.same(standing(instance, 'advisor'), ['Faculty/ada:pending', 'Faculty/alan:pending'])
  t.same(instance.stages[0]!.approvals.map((a) => a.source), ['role', 'role'])
  t.equal(instance.stages[0]!.activated_at, t0.toISOString())
  t.equal(instance.stages[0]!.due_at, '2025-09-08T12:00:00.000Z', 'due_at = activated_at + due_in_days')
  t.same(instance.stages[1]!.approvals, [], 'later stages resolve their approvers when they activate')
  t.same(instance.history, [{ at: t0.toISOString(), actor: student, action: 'submit', round: 1, comment: 'please review' }])
})

t.test('a stage without due_in_days has no due_at', async (t) => {
  const instance = instanceOf(start({ definition: fellowship, entity: 'FellowshipApplication/1', submitter: student, directory, now: t0 }))
  t.equal(instance.stages[0]!.due_at, undefined)
})

t.test('a stage that resolves to nobody is refused at submit, naming the missing role', async (t) => {
  const noAdmins = { roles: { ...directory.roles, department_admin: [] }, groups: directory.groups }
  t.same(start({ definition: thesis, entity: 'ThesisRequest/1', submitter: student, directory: noAdmins, now: t0 }), {
    ok: false, code: 'conflict', reason: 'stage department has nobody to decide: no department_admin who may decide on this entity',
  })
  const noAdvisor = start({ definition: thesis, entity: 'ThesisRequest/1', submitter: student, directory: { roles: { department_admin: ['User/root'] } }, now: t0 })
  t.match(noAdvisor, { ok: false, code: 'conflict', reason: /no advisor/ })
  const smallGroup = { ...directory, groups: { 'Group/fellows': ['Faculty/grace'] } }
  t.match(start({ definition: fellowship, entity: 'FellowshipApplication/1', submitter: student, directory: smallGroup, now: t0 }), {
    ok: false, code: 'conflict', reason: 'stage committee needs 2 approvals but only 1 committee_member (members of Group/fellows) may decide on this entity',
  }, 'a quorum the group cannot reach is refused too')
})

t.test('people barred from deciding are never asked: the submitter and the excluded (a nominator)', async (t) => {
  const byAdvisor = instanceOf(start({ definition: thesis, entity: 'ThesisRequest/1', submitter: 'Faculty/ada', directory, now: t0 }))
  t.same(standing(byAdvisor, 'advisor'), ['Faculty/alan:pending'], 'an advisor submitting for the student is not asked')
  const nomination = instanceOf(start({
    definition: fellowship, entity: 'AwardNomination/1', submitter: 'Faculty/barbara', excluded: ['Faculty/barbara', 'Faculty/ada'],
    directory, now: t0,
  }))
  t.same(nomination.excluded, ['Faculty/ada'], 'the submitter is not repeated among the excluded')
  t.same(standing(nomination, 'advisor'), ['Faculty/alan:pending'])
  const onlyExcluded = { ...directory, roles: { ...directory.roles, advisor: ['Faculty/ada'] } }
  t.match(start({ definition: thesis, entity: 'ThesisRequest/1', submitter: student, excluded: ['Faculty/ada'], directory: onlyExcluded, now: t0 }), {
    ok: false, code: 'conflict', reason: /stage advisor has nobody to decide/,
  }, 'a stage whose only holder is excluded resolves to nobody')
})

t.test('a person is asked once per stage', async (t) => {
  const repeated = { ...directory, roles: { ...directory.roles, advisor: ['Faculty/ada', 'Faculty/ada', 'Faculty/alan'] } }
  const instance = instanceOf(start({ definition: thesis, entity: 'ThesisRequest/1', submitter: student, directory: repeated, now: t0 }))
  t.same(standing(instance, 'advisor'), ['Faculty/ada:pending', 'Faculty/alan:pending'])
})

t.test('comments longer than 10,000 characters are invalid, naming the field', async (t) => {
  t.same(start({ definition: thesis, entity: 'ThesisRequest/1', submitter: student, directory, now: t0, comment: 'x'.repeat(10_001) }), {
    ok: false, code: 'invalid', field: 'comment', reason: 'comment is 10001 characters long; at most 10000 are allowed',
  })
  t.ok(start({ definition: thesis, entity: 'ThesisRequest/1', submitter: student, directory, now: t0, comment: '😀'.repeat(10_000) }).ok,
    '10,000 characters outside the basic plane are still 10,000 characters')
})

t.test('definitions the engine cannot run are invalid', async (t) => {
  const stage = thesis.stages[0]!
  const cases: [string, WorkflowDefinition['stages'], string][] = [
    ['no stages', [], 'stages'],
    ['a repeated key', [stage, stage], 'stages[1].key'],
    ['quorum without a number', [{ ...stage, policy: 'quorum' }], 'stages[0].quorum'],
    ['a quorum with policy all', [{ ...stage, quorum: 2 }], 'stages[0].quorum'],
    ['a group on an advisor stage', [{ ...stage, group: 'Group/x' }], 'stages[0].group'],
    ['due in 0 days', [{ ...stage, due_in_days: 0 }], 'stages[0].due_in_days'],
  ]
  for (const [label, stages, field] of cases) {
    const definition = { ...thesis, stages }
    t.match(checkDefinition(definition), { ok: false, code: 'invalid', field }, label)
    t.match(start({ definition, entity: 'ThesisRequest/1', submitter: student, directory, now: t0 }), { ok: false, code: 'invalid', field }, `${label}: start refuses`)
  }
  t.equal(checkDefinition(fellowship), undefined, 'the seeded shape is valid')
})
