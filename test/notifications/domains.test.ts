import t, { type Test } from 'tap'
import { cases, submitted, type Case, type Who } from '../workflows/cases.js'
import { workflowDepartment, type Department } from '../workflows/support.js'
import { commentMarker } from './ferpa.js'
import { testActor } from '../helpers/actor.js'

const day = 86_400_000

/** The first stage's approvers of each domain, as the department of support.ts resolves them. */
const firstStage: Readonly<Record<Case['domain'], readonly Who[]>> = {
  honors_thesis: ['fay'], independent_research: ['gus'], fellowships: ['fay'], award_nominations: ['c1', 'c2', 'c3'],
  major_plans: ['fay', 'fred'], graduate_milestones: ['fay'],
}
/** Who the entity is about and hears of outcomes beside the submitter (none for a nomination). */
const studentOf: Readonly<Record<Case['domain'], Who | undefined>> = {
  honors_thesis: 'una', independent_research: 'una', fellowships: 'gina', award_nominations: undefined, major_plans: 'una', graduate_milestones: 'gina',
}
const everyone: readonly Who[] = ['admin', 'admin2', 'una', 'gina', 'fay', 'fred', 'gus', 'c1', 'c2', 'c3', 'stu']

/** Each person's notifications about one entity, as the routes answer them, oldest first. */
async function heard(d: Department, subject: string): Promise<Record<string, string[]>> {
  await d.app.notifications.relay.idle()
  const out: Record<string, string[]> = {}
  for (const who of everyone) {
    const page = (await d.http(who)({ method: 'GET', url: '/api/notifications?limit=100' })).json() as { items: { type: string; subject: string }[] }
    const types = page.items.filter((i) => i.subject === subject).map((i) => i.type).reverse()
    if (types.length) out[who] = types
  }
  return out
}

/** What each person heard, minus what they had heard before. */
function since(before: Record<string, string[]>, after: Record<string, string[]>): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const [who, types] of Object.entries(after)) {
    const fresh = types.slice(before[who]?.length ?? 0)
    if (fresh.length) out[who] = fresh
  }
  return out
}

const owners = (c: Case): Who[] => [...new Set([c.creator, ...(studentOf[c.domain] ? [studentOf[c.domain]!] : [])])]

async function decide(d: Department, c: Case, who: Who, id: string, decision: 'approve' | 'reject' | 'request_revision') {
  await d.workflows.decide(c.domain, d.as(who), testActor, id, { decision, comment: `${commentMarker} from ${who}` })
}

function expect(t: Test, got: Record<string, string[]>, want: Record<string, string[]>, what: string) {
  t.same(got, want, what)
}

for (const c of cases) {
  t.test(`${c.domain}: each stage's approvers hear once; the outcome reaches the submitter and the student; no one hears of their own act`, async (t) => {
    const d = await workflowDepartment(t)
    const id = await submitted(d, c)
    let before = await heard(d, id)
    expect(t, before, Object.fromEntries(firstStage[c.domain].map((who) => [who, ['workflow.stage_activated']])), 'submit: the first stage\'s approvers, once each')
    for (const [i, stage] of c.stages.entries()) {
      for (const [k, who] of stage.entries()) {
        await decide(d, c, who, id, 'approve')
        const after = await heard(d, id)
        const fresh = since(before, after)
        const last = i === c.stages.length - 1 && k === stage.length - 1
        const toOwners = owners(c).filter((o) => o !== who)
        const want: Record<string, string[]> = Object.fromEntries(toOwners.map((o) => [o, [last ? 'workflow.approved' : 'workflow.decided']]))
        const inst = (await d.workflows.get(c.domain, d.as('admin'), id)).instance!
        if (k === stage.length - 1 && !last) {
          // The stage completed: the next one's approvers hear of it.
          const full = await d.app.workflows.instancesStore.byId(inst._id)
          for (const a of full!.stages[i + 1]!.approvals.filter((x) => x.round === 1 && x.source === 'role')) {
            const who2 = everyone.find((e) => d.ids[e] === a.approver)!
            want[who2] = [...(want[who2] ?? []), 'workflow.stage_activated']
          }
        }
        expect(t, fresh, want, `${who} approves stage ${i}`)
        before = after
      }
    }
  })

  t.test(`${c.domain}: a rejection and a revision request reach the submitter and the student`, async (t) => {
    const d = await workflowDepartment(t)
    const first = firstStage[c.domain][0]!
    const rejected = await submitted(d, c)
    const before = await heard(d, rejected)
    await decide(d, c, first, rejected, 'reject')
    expect(t, since(before, await heard(d, rejected)), Object.fromEntries(owners(c).map((o) => [o, ['workflow.rejected']])), 'rejected')
    // A second department: a plan is submitted as it is made, and the sample plan exists once per student.
    const d2 = await workflowDepartment(t)
    const returned = await submitted(d2, c)
    const before2 = await heard(d2, returned)
    await decide(d2, c, first, returned, 'request_revision')
    expect(t, since(before2, await heard(d2, returned)), Object.fromEntries(owners(c).map((o) => [o, ['workflow.revision_requested']])), 'revision requested')
  })

  t.test(`${c.domain}: a delegation reaches the delegate`, async (t) => {
    const d = await workflowDepartment(t)
    const id = await submitted(d, c)
    const before = await heard(d, id)
    await d.workflows.delegate(c.domain, d.as(c.delegation.from), testActor, id, { to: d.ids[c.delegation.to], comment: `${commentMarker} hand-off` })
    expect(t, since(before, await heard(d, id)), { [c.delegation.to]: ['workflow.delegated'] }, 'the delegate alone')
  })
}

t.test('a submission for a student and its withdrawal reach the student; the submitter hears of neither', async (t) => {
  const d = await workflowDepartment(t)
  const draft = await d.workflows.create('honors_thesis', d.as('fred'), testActor, { student: d.ids.una, advisor: d.ids.fay, title: 'For Una', abstract: 'A', term: '25F' })
  await d.workflows.submit('honors_thesis', d.as('fred'), testActor, draft._id)
  t.same(await heard(d, draft._id), { una: ['workflow.submitted'], fay: ['workflow.stage_activated'] })
  await d.workflows.withdraw('honors_thesis', d.as('fred'), testActor, draft._id, {})
  t.same(await heard(d, draft._id), { una: ['workflow.submitted', 'workflow.withdrawn'], fay: ['workflow.stage_activated'] })
})

t.test('a stage due soon reminds its pending approvers; overdue tells them and the admins', async (t) => {
  const d = await workflowDepartment(t)
  const draft = await d.workflows.create('honors_thesis', d.as('una'), testActor, { student: d.ids.una, advisor: d.ids.fay, title: 'Late', abstract: 'A', term: '25F' })
  const { instance } = await d.workflows.submit('honors_thesis', d.as('una'), testActor, draft._id)
  const due = Date.parse(instance.stages[0]!.due_at!)
  await d.workflows.overdue.sweep(new Date(due - day / 2))
  t.same(await heard(d, draft._id), { fay: ['workflow.stage_activated', 'workflow.due_soon'] })
  await d.workflows.overdue.sweep(new Date(due + 1000))
  t.same(await heard(d, draft._id), {
    admin: ['workflow.overdue'], admin2: ['workflow.overdue'], fay: ['workflow.stage_activated', 'workflow.due_soon', 'workflow.overdue'],
  })
})
