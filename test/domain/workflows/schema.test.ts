import { fileURLToPath } from 'node:url'
import t from 'tap'
import {
  approvalPolicies, approvalRoles, approvalSources, approvalStatuses, entityStatuses, instanceStatuses, milestoneStatuses,
  stageStatuses, workflowActions,
} from '../../../src/domain/workflows/index.js'
import { compileSchema } from '../../../src/schema/index.js'
import { buildTestApp } from '../../helpers/app.js'

const schemaDir = fileURLToPath(new URL('../../../schema/', import.meta.url))
const entities = ['ThesisRequest', 'IndependentResearchRequest', 'FellowshipApplication', 'AwardNomination', 'MajorPlanApproval', 'GraduateMilestone']

t.test('the engine and the class schema list the same values', async (t) => {
  const { enums } = (await compileSchema(schemaDir)).model
  const pairs: [string, readonly string[]][] = [
    ['ApprovalRole', approvalRoles], ['ApprovalPolicy', approvalPolicies], ['StageStatus', stageStatuses],
    ['ApprovalStatus', approvalStatuses], ['ApprovalSource', approvalSources], ['EntityStatus', entityStatuses],
    ['InstanceStatus', instanceStatuses], ['MilestoneStatus', milestoneStatuses], ['WorkflowAction', workflowActions],
  ]
  for (const [name, values] of pairs) t.same(enums.get(name)?.values, values, name)
})

t.test('workflow classes are served at /api/schemas like every class, and by no generic record route', async (t) => {
  const { app, as } = await buildTestApp(t)
  const user = as('workflow-reader@dept.edu', 'user')
  const get = async (name: string, variant = 'record') => {
    const response = await user({ method: 'GET', url: `/api/schemas/${name}?variant=${variant}` })
    t.equal(response.statusCode, 200, `${name} is served`)
    return response.json()
  }

  const workflow = await get('Workflow')
  t.match(workflow, { title: 'Workflow', required: ['_id', 'type', '_version', '_created_at', '_updated_at', 'domain', 'name', 'version', 'stages'] })
  const stage = workflow.properties.stages.items
  t.same(Object.keys(stage.properties), ['key', 'name', 'approver_role', 'group', 'policy', 'quorum', 'due_in_days'], 'a stage has the design\'s fields')
  t.same(stage.properties.approver_role.enum, ['advisor', 'committee_member', 'department_admin'])
  t.same(stage.properties.policy.enum, ['all', 'any', 'quorum'])
  t.equal(stage.properties.group['x-reference'], 'Group', 'a stage may name a group')

  t.match(await get('MilestoneStatus'), { type: 'string', enum: ['not_started', 'in_progress', 'submitted', 'approved'] })
  t.match(await get('ApprovalRole'), { type: 'string', enum: ['advisor', 'committee_member', 'department_admin'] })

  const thesis = await get('ThesisRequest', 'create')
  t.same(Object.keys(thesis.properties).filter((p) => p !== 'type'), ['status', 'student', 'advisor', 'second_reader', 'title', 'abstract', 'term'])
  t.same(thesis.properties.status.enum, ['draft', 'submitted', 'revision_requested', 'approved', 'rejected', 'withdrawn'])
  t.equal(thesis.properties.student['x-reference'], 'UndergraduateStudent')
  t.notOk(thesis.required.includes('second_reader'), 'the second reader is optional')

  const instance = await get('WorkflowInstance')
  const stageInstance = instance.properties.stages.items
  t.same(stageInstance.properties.status.enum, ['waiting', 'active', 'approved', 'rejected', 'skipped'])
  t.same(stageInstance.properties.approvals.items.properties.status.enum, ['pending', 'approved', 'rejected', 'revision_requested', 'delegated'])
  t.same(Object.keys(instance.properties.history.items.properties), ['at', 'actor', 'on_behalf_of', 'action', 'stage', 'round', 'comment', 'delegate_to'])
  t.equal(instance.properties.history.items.properties.comment.maxLength, 10000, 'comments up to 10,000 characters')
  t.same(instance.properties.entity.pattern, `^(${entities.join('|')})/[A-Za-z0-9._~-]{1,160}$`, 'an instance names an entity of any domain')

  const milestone = await get('GraduateMilestone')
  t.same(milestone.properties.milestone_type.enum, ['mentoring_form', 'annual_review', 'masters_thesis', 'dissertation_proposal', 'dissertation_defense'])
  t.equal((await get('LegacyApproval')).properties.entity['x-reference'], 'WorkflowEntity')

  const listed = (await user({ method: 'GET', url: '/api/schemas' })).json().items as { name: string; collection?: string; path?: string }[]
  const stored = ['Workflow', 'WorkflowInstance', 'LegacyApproval', ...entities]
  for (const name of stored) {
    const item = listed.find((i) => i.name === name)
    t.ok(item?.collection, `${name} is stored`)
    t.equal(item?.path, undefined, `${name} has no generic path`)
    t.equal(app.schema.resourceOf(name), undefined, `${name} has no generic resource`)
  }
  t.equal(listed.find((i) => i.name === 'LegacyApproval')?.collection, 'legacy_approvals')
  const protectedCollections = app.schema.collections.filter((c) => c.protected).map((c) => c.name)
  for (const name of ['workflow_instances', 'legacy_approvals', 'thesis_requests', 'graduate_milestones', 'award_nominations']) {
    t.ok(protectedCollections.includes(name), `${name} is held apart from the catalog`)
  }
  for (const name of ['WorkflowInstance', 'LegacyApproval', ...entities]) {
    t.equal(app.schema.class(name)!.metadata.student, true, `${name} is a student record: never in the shared cache for others`)
  }
})
