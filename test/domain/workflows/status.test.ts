import t from 'tap'
import {
  entityStatusOf, milestoneStatusOf, stageOutcome, type InstanceStatus, type StageApproval, type WorkflowStage,
} from '../../../src/domain/workflows/index.js'

const stage = (policy: WorkflowStage['policy'], quorum?: number): WorkflowStage =>
  ({ key: 's', name: 'S', approver_role: 'committee_member', policy, ...(quorum ? { quorum } : {}) })
const approval = (approver: string, status: StageApproval['status'], source: StageApproval['source'] = 'role'): StageApproval =>
  ({ approver, status, source, round: 1 })

t.test('a stage\'s outcome comes from its approvals', async (t) => {
  const [a, b, c] = ['a', 'b', 'c']
  t.equal(stageOutcome(stage('all'), [approval(a, 'approved'), approval(b, 'pending')]), 'open')
  t.equal(stageOutcome(stage('all'), [approval(a, 'approved'), approval(b, 'approved')]), 'approved')
  t.equal(stageOutcome(stage('any'), [approval(a, 'pending'), approval(b, 'approved')]), 'approved')
  t.equal(stageOutcome(stage('quorum', 2), [approval(a, 'approved'), approval(b, 'pending'), approval(c, 'pending')]), 'open')
  t.equal(stageOutcome(stage('quorum', 2), [approval(a, 'approved'), approval(b, 'pending'), approval(c, 'approved')]), 'approved')
  t.equal(stageOutcome(stage('any'), [approval(a, 'approved'), approval(b, 'rejected')]), 'rejected', 'the veto outweighs an approval')
  t.equal(stageOutcome(stage('all'), [approval(a, 'revision_requested'), approval(b, 'pending')]), 'revision_requested')
  t.equal(stageOutcome(stage('quorum', 3), [approval(a, 'approved'), approval(b, 'pending')]), 'rejected', 'a quorum out of reach rejects')
  t.equal(stageOutcome(stage('all'), [approval(a, 'delegated'), approval(b, 'approved', 'delegation')]), 'approved', 'a delegate stands for the delegator')
  t.equal(stageOutcome(stage('all'), [approval(a, 'delegated'), approval(b, 'pending', 'delegation'), approval(c, 'approved')]), 'open')
  t.equal(stageOutcome(stage('all'), [approval(a, 'pending'), approval(b, 'approved', 'override')]), 'approved', 'an override decides')
  t.equal(stageOutcome(stage('all'), [approval(a, 'pending'), approval(b, 'approved', 'escalation')]), 'approved', 'an escalated admin decides')
  t.equal(stageOutcome(stage('all'), [approval(a, 'approved'), approval(b, 'pending'), approval(b, 'approved', 'escalation')]), 'approved')
})

t.test('the entity\'s status follows the instance', async (t) => {
  const expected: Record<InstanceStatus, string> = {
    in_review: 'submitted', approved: 'approved', rejected: 'rejected', revision_requested: 'revision_requested', withdrawn: 'withdrawn',
  }
  t.equal(entityStatusOf(null), 'draft')
  for (const [status, entity] of Object.entries(expected)) t.equal(entityStatusOf({ status: status as InstanceStatus }), entity, status)
})

t.test('a graduate milestone\'s MilestoneStatus', async (t) => {
  t.equal(milestoneStatusOf(null, false), 'not_started')
  t.equal(milestoneStatusOf(null, true), 'in_progress', 'the first edit')
  t.equal(milestoneStatusOf({ status: 'in_review' }, true), 'submitted')
  t.equal(milestoneStatusOf({ status: 'approved' }, true), 'approved')
  for (const back of ['rejected', 'revision_requested', 'withdrawn'] as const) t.equal(milestoneStatusOf({ status: back }, true), 'in_progress', back)
})
