import t from 'tap'
import type { components } from '../../web/src/api/schema.js'
import { awaiting, runConcerns, studentDomains } from '../../web/src/home/reads.js'
import { inboxTitle, majorPlanTitle } from '../../web/src/workflows/titles.js'

type Instance = components['schemas']['WorkflowInstance']
type Stage = Instance['stages'][number]
type Approval = NonNullable<Stage['approvals']>[number]

const now = Date.parse('2026-03-10T12:00:00Z')
const approval = (approver: string, extra: Partial<Approval> = {}): Approval => ({ approver, status: 'pending', source: 'role', round: 1, ...extra })
function instance(domain: Instance['domain'], stages: Stage[], extra: Partial<Instance> = {}): Instance {
  return {
    _id: `WorkflowInstance/${Math.random()}`, type: 'WorkflowInstance', _version: 1, _created_at: '', _updated_at: '', workflow: 'Workflow/x', workflow_version: 1,
    domain, entity: 'ThesisRequest/x', submitter: 'UndergraduateStudent/una', excluded: [], status: 'in_review', round: 1, current_stage: stages[0]!.key, stages, history: [], ...extra,
  }
}

t.test('what awaits the caller: pending approvals of the current round in the stage under way, as the queues read them', async (t) => {
  const me = ['User/fay', 'Faculty/fay']
  const instances = [
    instance('honors_thesis', [{ key: 'advisor', status: 'active', approvals: [approval('Faculty/fay')] }]),
    // Past its due time: overdue, for her and for the department.
    instance('honors_thesis', [{ key: 'advisor', status: 'active', due_at: '2026-03-01T00:00:00Z', approvals: [approval('Faculty/fay')] }]),
    // Marked overdue by the sweep, asked of her by her User id.
    instance('major_plans', [{ key: 'admin', status: 'active', approvals: [approval('User/fay', { overdue: true })] }]),
    // Her approval is of an earlier round, or already given, or the stage is not the one under way.
    instance('fellowships', [{ key: 'committee', status: 'active', approvals: [approval('Faculty/fay', { round: 1 })] }], { round: 2 }),
    instance('fellowships', [{ key: 'committee', status: 'active', approvals: [approval('Faculty/fay', { status: 'approved' })] }]),
    instance('graduate_milestones', [{ key: 'advisor', status: 'approved', approvals: [approval('Faculty/fay')] }, { key: 'committee', status: 'waiting' }], { current_stage: 'committee' }),
    // Someone else's, overdue: counted for the department only.
    instance('award_nominations', [{ key: 'committee', status: 'active', due_at: '2026-03-09T00:00:00Z', approvals: [approval('Faculty/cal')] }]),
    // Not in review: nothing awaits.
    instance('honors_thesis', [{ key: 'advisor', status: 'active', approvals: [approval('Faculty/fay')] }], { status: 'revision_requested' }),
  ]
  const seen = awaiting(instances, me, now)
  t.equal(seen.total, 3, 'three await her')
  t.equal(seen.overdue, 2, 'two of them overdue')
  t.same([...seen.byDomain], [['thesis', 2], ['major-plans', 1]], 'by the app\'s domain keys')
  t.equal(seen.overdueAnywhere, 3, 'three overdue in the department')
  t.same(awaiting([], me, now), { total: 0, overdue: 0, byDomain: new Map(), overdueAnywhere: 0 })
})

t.test('sync runs to look at: the newest real run of each kind, when refused, failed or with rows in error', async (t) => {
  const run = (id: string, kind: string, status: string, extra: { dry_run?: boolean; errors?: unknown[] } = {}) => ({ _id: id, kind, status, dry_run: false, errors: [], ...extra })
  const runs = [
    run('r6', 'people', 'completed', { dry_run: true, errors: [{}] }),
    run('r5', 'people', 'completed', { errors: [{}, {}] }),
    run('r4', 'sections', 'refused'),
    run('r3', 'courses', 'completed'),
    run('r2', 'courses', 'failed'),
    run('r1', 'sections', 'completed'),
  ]
  t.same(runConcerns(runs).map((c) => [c.run._id, c.problem]), [['r5', 'completed with 2 rows in error'], ['r4', 'refused']], 'a dry run and a run put right by a newer one are left out')
  t.same(runConcerns([run('r1', 'courses', 'completed', { errors: [{}] })]).map((c) => c.problem), ['completed with 1 row in error'])
  t.same(runConcerns([]), [])
})

t.test('a student\'s request lists by the kind of student they are', async (t) => {
  t.same(studentDomains('UndergraduateStudent/una'), ['thesis', 'independent-research', 'fellowships', 'major-plans'], 'an undergraduate: no milestones')
  t.same(studentDomains('GraduateStudent/gabe'), ['independent-research', 'fellowships', 'major-plans', 'graduate-milestones'], 'a graduate student: no honors thesis')
  t.same(studentDomains('VisitingStudent/vi'), ['thesis', 'independent-research', 'fellowships', 'major-plans', 'graduate-milestones'], 'another kind: every list a student can own in')
})

t.test('major plans titled for people: in the inbox by whom it is from, on its page by plan and student', async (t) => {
  const row = { domain: 'major-plans' as const, title: 'Plan StudentPlan/sample-plan-05', submitter: 'UndergraduateStudent/rpark', submitter_name: 'Rosa Park' }
  t.equal(inboxTitle(row), 'Major plan from Rosa Park')
  t.equal(inboxTitle({ ...row, submitter_name: null }), 'Major plan from UndergraduateStudent/rpark', 'by id when the submitter has no name')
  t.equal(inboxTitle({ ...row, title: 'Major plan: Four years — Rosa Park' }), 'Major plan: Four years — Rosa Park', 'a title the service gives in words is kept')
  t.equal(inboxTitle({ ...row, domain: 'thesis', title: 'Plan StudentPlan/x' }), 'Plan StudentPlan/x', 'other domains keep theirs')
  t.equal(majorPlanTitle('Four years', 'Una Under'), 'Major plan: Four years — Una Under')
  t.equal(majorPlanTitle('Four years', undefined), 'Major plan: Four years')
  t.equal(majorPlanTitle(undefined, undefined), 'Major plan')
})
