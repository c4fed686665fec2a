import t, { type Test } from 'tap'
import { approveAll, decide, path, spec, workflowDepartment, type Department, type Inject } from './support.js'

/** Plans under review and approved plans (docs/degree-audit.md): a review freezes its plan; a change voids an approval. */

const base = spec('major_plans').base
const planUrl = (id: string) => `/api/student-plans/${path(id)}`

interface Plan { _id: string; _version: number; plan_name: string; approved_at?: string; approval?: string; review?: string }

async function planOf(d: Department, id: string): Promise<Plan> {
  const res = await d.callers.una({ method: 'GET', url: `/api/student-plans/${path(d.ids.una)}` })
  return (res.json().items as Plan[]).find((p) => p._id === id)!
}

/** Submits the plan for review as Una; the review's id and instance id. */
async function review(t: Test, d: Department, plan: string) {
  const res = await d.callers.una({ method: 'POST', url: base, payload: { plan } })
  t.equal(res.statusCode, 201, `submitted (${res.body.slice(0, 300)})`)
  return { id: res.json()._id as string, creator: 'una' as const, instance: res.json().instance._id as string }
}

async function historyOf(d: Department, caller: Inject, id: string) {
  return (await caller({ method: 'GET', url: `${base}/${path(id)}/history` })).json().items as { action: string; actor: string; comment?: string }[]
}

t.test('a plan under review does not change, between stages too: PUT and DELETE are 409 naming the review', async (t) => {
  const d = await workflowDepartment(t)
  const started = await review(t, d, d.plan)
  t.equal((await planOf(d, d.plan)).review, started.id, 'the plan names the review')
  const check = async (label: string) => {
    for (const [who, caller] of [['student', d.callers.una], ['advisor', d.callers.fay], ['admin', d.admin]] as const) {
      const put = await caller({ method: 'PUT', url: planUrl(d.plan), payload: { plan_name: 'Sneaky' } })
      t.equal(put.statusCode, 409, `${label}: PUT by the ${who}`)
      t.match(put.json().error, started.id, `${label}: the refusal names the review`)
      t.equal(put.json().code, 'ADKS_PLAN_UNDER_REVIEW', `${label}: the refusal names the review`)
    }
    const removal = await d.callers.una({ method: 'DELETE', url: planUrl(d.plan) })
    t.equal(removal.statusCode, 409, `${label}: DELETE`)
    t.match(removal.json().error, started.id)
    t.equal(removal.json().code, 'ADKS_PLAN_UNDER_REVIEW')
  }
  await check('first stage')
  t.equal((await decide(d, 'major_plans', 'fay', started.id, 'approve')).statusCode, 200, 'the advisor approves')
  await check('between stages')
  t.equal((await planOf(d, d.plan)).plan_name, 'Four years', 'the plan is as it was submitted')
  const second = await d.callers.una({ method: 'POST', url: base, payload: { plan: d.plan } })
  t.equal(second.statusCode, 409, 'one review of a plan at a time')
  t.match(second.json().error, started.id)
  t.equal(second.json().code, 'ADKS_PLAN_UNDER_REVIEW')

  t.equal((await d.callers.una({ method: 'POST', url: `${base}/${path(started.id)}/withdraw` })).statusCode, 200, 'withdrawn')
  const put = await d.callers.una({ method: 'PUT', url: planUrl(d.plan), payload: { plan_name: 'Five years' } })
  t.equal(put.statusCode, 200, 'a withdrawn review no longer holds the plan')
  const removal = await d.callers.una({ method: 'DELETE', url: planUrl(d.plan) })
  t.equal(removal.statusCode, 409, 'a reviewed plan stays with its reviews')
  t.match(removal.json().error, /stays with its reviews/)
  t.equal(removal.json().code, 'ADKS_PLAN_UNDER_REVIEW')
})

t.test('changing an approved plan voids the approval: the plan no longer carries it, its history says so, and a new review approves it again', async (t) => {
  const d = await workflowDepartment(t)
  const first = await review(t, d, d.plan)
  t.equal((await approveAll(t, d, 'major_plans', first)).status, 'approved')
  const approved = await planOf(d, d.plan)
  t.match(approved, { approval: first.id, approved_at: String, review: first.id }, 'the plan carries the approval')

  const put = await d.callers.una({ method: 'PUT', url: planUrl(d.plan), payload: { plan_name: 'Changed after approval' } })
  t.equal(put.statusCode, 200, `the student changes the approved plan (${put.body.slice(0, 200)})`)
  t.equal(put.json().plan_name, 'Changed after approval')
  for (const field of ['approved_at', 'approval', 'review']) t.notOk(field in put.json(), `the answer no longer carries ${field}`)
  t.notOk('approval' in await planOf(d, d.plan), 'nor does a later read')
  const history = await historyOf(d, d.callers.una, first.id)
  t.match(history.at(-1), { action: 'voided', actor: d.ids.una, comment: new RegExp(`${d.plan} changed after this approval`) }, 'the approval\'s history says why')
  const entity = (await d.callers.una({ method: 'GET', url: `${base}/${path(first.id)}` })).json()
  t.equal(entity.status, 'approved', 'the approval stays the record of what was approved then')

  t.equal((await d.callers.una({ method: 'PUT', url: planUrl(d.plan), payload: { plan_name: 'Changed again' } })).statusCode, 200, 'a plan with a void approval changes freely')
  t.equal((await historyOf(d, d.callers.una, first.id)).filter((h) => h.action === 'voided').length, 1, 'voided once')

  const second = await review(t, d, d.plan)
  t.equal((await approveAll(t, d, 'major_plans', second)).status, 'approved')
  t.match(await planOf(d, d.plan), { approval: second.id, approved_at: String, plan_name: 'Changed again' }, 'the new review approves the plan as it now stands')
})

t.test('two writers of an approved plan: each is applied or 409, and the approval is voided once', async (t) => {
  const d = await workflowDepartment(t)
  const first = await review(t, d, d.plan)
  await approveAll(t, d, 'major_plans', first)
  const writers = [d.callers.una, d.callers.fay, d.admin, d.callers.una]
  const answers = await Promise.all(writers.map((caller, i) => caller({ method: 'PUT', url: planUrl(d.plan), payload: { plan_name: `Writer ${i}` } })))
  const statuses = answers.map((a) => a.statusCode)
  t.ok(statuses.every((s) => s === 200 || s === 409), `every writer is applied or refused (${statuses.join(', ')})`)
  t.ok(statuses.includes(200), 'at least one is applied')
  const plan = await planOf(d, d.plan)
  t.ok(answers.some((a) => a.statusCode === 200 && a.json().plan_name === plan.plan_name), 'the plan holds an applied write')
  t.notOk('approval' in plan, 'the plan carries no approval')
  t.equal((await historyOf(d, d.admin, first.id)).filter((h) => h.action === 'voided').length, 1, 'voided exactly once')
})

t.test('two submissions of one plan at once: one review starts, the other is a 409', async (t) => {
  const d = await workflowDepartment(t)
  // All by the student: an advisor or admin submitting would be barred from their own stage here.
  const answers = await Promise.all([1, 2, 3].map(() => d.callers.una({ method: 'POST', url: base, payload: { plan: d.plan } })))
  const started = answers.filter((a) => a.statusCode === 201)
  t.equal(started.length, 1, `one review starts (${answers.map((a) => a.statusCode).join(', ')})`)
  t.ok(answers.every((a) => a.statusCode === 201 || a.statusCode === 409), 'the others are conflicts')
  const reviews = (await d.admin({ method: 'GET', url: `${base}?limit=200` })).json().items as { _id: string; status: string }[]
  t.same(reviews.filter((r) => r.status === 'submitted').map((r) => r._id), [started[0]!.json()._id], 'one review in progress')
  t.equal((await planOf(d, d.plan)).review, started[0]!.json()._id, 'and the plan names it')
})

t.test('an edit racing a submission: the review never runs on a plan changed after it started', async (t) => {
  const d = await workflowDepartment(t)
  for (let i = 0; i < 5; i++) {
    const plan = (await d.callers.una({ method: 'POST', url: '/api/student-plans', payload: { student: d.ids.una, plan_name: `Race ${i}`, target_degree: d.degree, planned_courses: [] } })).json()._id as string
    const [post, put] = await Promise.all([
      d.callers.una({ method: 'POST', url: base, payload: { plan } }),
      d.callers.una({ method: 'PUT', url: planUrl(plan), payload: { plan_name: `Raced ${i}` } }),
    ])
    t.ok([201, 409].includes(post.statusCode) && [200, 409].includes(put.statusCode), `round ${i}: submission ${post.statusCode}, edit ${put.statusCode}`)
    const now = await planOf(d, plan)
    const reviews = (await d.admin({ method: 'GET', url: `${base}?student=${path(d.ids.una)}&limit=200` })).json().items as { _id: string; plan: string; status: string }[]
    const open = reviews.filter((r) => r.plan === plan && r.status === 'submitted')
    if (post.statusCode === 201) {
      t.same(open.map((r) => r._id), [post.json()._id], `round ${i}: the review is in progress`)
      t.equal(now.review, post.json()._id, `round ${i}: the plan names it`)
      if (put.statusCode === 200) t.ok(put.json()._version < now._version, `round ${i}: the edit landed before the review fenced the plan`)
    } else {
      t.same(open, [], `round ${i}: a refused submission leaves no review in progress`)
      t.equal(put.statusCode, 200, `round ${i}: the submission gave way to the edit`)
    }
  }
})
