import t from 'tap'
import { listen } from '../../auth/support.js'
import { decide, instanceOf, path, people, spec, startOne, workflowDepartment, type InstanceView, type Name } from './support.js'

/** 20 real requests at once against the listening app; each answer's status, with who sent it. */
async function race(port: number, token: (name: Name) => Promise<string>, url: string, senders: Name[], body: object) {
  const tokens = new Map(await Promise.all([...new Set(senders)].map(async (n) => [n, await token(n)] as const)))
  return Promise.all(senders.map(async (name) => {
    const res = await fetch(`http://127.0.0.1:${port}${url}`, {
      method: 'POST', headers: { authorization: `Bearer ${tokens.get(name)}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    })
    return { name, status: res.status, body: await res.json() as { instance?: InstanceView } }
  }))
}

const stageOf = (instance: InstanceView, key: string) => instance.stages.find((s) => s.key === key)!

t.test('20 concurrent approvals of a quorum stage by its three approvers: each 200 or 409, exactly the quorum applied, once each', async (t) => {
  const d = await workflowDepartment(t)
  const port = await listen(d.app)
  const token = (name: Name) => d.token(people[name].email, people[name].role)
  const started = await startOne(t, d, 'award_nominations')
  const before = await instanceOf(d, started.instance)
  t.equal(before.current_stage, 'committee')
  const senders = Array.from({ length: 20 }, (_, i) => (['cal', 'cora', 'cyd'] as const)[i % 3]!)
  const url = `${spec('award_nominations').base}/${path(started.id)}/decision`
  const answers = await race(port, token, url, senders, { decision: 'approve', stage: 'committee' })

  t.same([...new Set(answers.map((a) => a.status))].filter((s) => s !== 200 && s !== 409), [], 'every answer is 200 or 409')
  const after = await instanceOf(d, started.instance)
  const committee = stageOf(after, 'committee')
  t.equal(committee.status, 'approved', 'the quorum stage is approved')
  t.equal(after.current_stage, 'department', 'the next stage is active')
  const approved = committee.approvals.filter((a) => a.status === 'approved').map((a) => a.approver)
  t.equal(approved.length, 2, 'exactly the quorum of two approvals applied')
  const logged = after.history.filter((h) => h.action === 'approve' && h.stage === 'committee').map((h) => h.actor)
  t.same([...logged].sort(), [...approved].sort(), 'history holds exactly the applied decisions, one each')
  const winners = new Set(approved.map((id) => d.nameOf(id)))
  for (const answer of answers) {
    if (answer.status === 200) t.ok(winners.has(answer.name), `${answer.name} was answered 200, so their approval is among the applied`)
    else t.ok(answer.body.instance, 'a 409 carries the current instance')
  }
  t.ok(answers.filter((a) => a.status === 200).length >= 2, 'both applied approvals were answered 200')
})

t.test('20 concurrent repeats of one approver\'s approval: applied once, the stage waits for the rest of the committee', async (t) => {
  const d = await workflowDepartment(t)
  const port = await listen(d.app)
  const token = (name: Name) => d.token(people[name].email, people[name].role)
  const started = await startOne(t, d, 'graduate_milestones')
  t.equal((await decide(d, 'graduate_milestones', 'fay', started.id, 'approve')).statusCode, 200, 'the advisor approves')
  const url = `${spec('graduate_milestones').base}/${path(started.id)}/decision`
  const answers = await race(port, token, url, Array<Name>(20).fill('cal'), { decision: 'approve', stage: 'committee' })

  t.same(answers.filter((a) => a.status !== 200 && a.status !== 409).map((a) => a.status), [], 'every answer is 200 or 409')
  t.ok(answers.some((a) => a.status === 200), 'the approval was applied')
  const after = await instanceOf(d, started.instance)
  const committee = stageOf(after, 'committee')
  t.equal(committee.status, 'active', 'policy all: the stage still waits for Cora')
  t.same(committee.approvals.filter((a) => a.status === 'approved').map((a) => a.approver), [d.ids.cal], 'Cal\'s approval, once')
  t.equal(after.history.filter((h) => h.action === 'approve' && h.stage === 'committee').length, 1, 'one history entry')
  t.equal((await decide(d, 'graduate_milestones', 'cora', started.id, 'approve')).statusCode, 200)
  t.equal((await instanceOf(d, started.instance)).current_stage, 'department', 'with Cora\'s approval the committee stage completes')
})

t.test('a withdrawal racing approvals: one outcome wins, the others are 409', async (t) => {
  const d = await workflowDepartment(t)
  const port = await listen(d.app)
  const token = (name: Name) => d.token(people[name].email, people[name].role)
  const started = await startOne(t, d, 'honors_thesis')
  const base = `${spec('honors_thesis').base}/${path(started.id)}`
  const [withdrawals, approvals] = await Promise.all([
    race(port, token, `${base}/withdraw`, Array<Name>(10).fill('una'), {}),
    race(port, token, `${base}/approve`, Array<Name>(10).fill('fay'), { stage: 'advisor' }),
  ])
  const all = [...withdrawals, ...approvals]
  t.same(all.filter((a) => a.status !== 200 && a.status !== 409).map((a) => a.status), [], 'every answer is 200 or 409')
  const after = await instanceOf(d, started.instance)
  const withdrew = after.history.filter((h) => h.action === 'withdraw').length
  const approvedCount = after.history.filter((h) => h.action === 'approve').length
  t.ok(withdrew <= 1 && approvedCount <= 1, 'each applied at most once')
  if (after.status === 'withdrawn') t.ok(withdrawals.some((a) => a.status === 200), 'withdrawn, and a withdrawal was answered 200')
  else t.equal(approvedCount, 1, 'else the approval applied and the instance went on')
  t.ok(withdrew + approvedCount >= 1, 'something was applied')
})
