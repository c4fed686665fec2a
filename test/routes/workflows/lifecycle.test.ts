import t from 'tap'
import {
  approveAll, decide, delegateTo, domains, instanceOf, path, pendingIn, spec, startOne, workflowDepartment,
} from './support.js'

t.test('every domain: submit, every stage approved, then the entity and instance are approved', async (t) => {
  const d = await workflowDepartment(t)
  for (const domain of domains) {
    const started = await startOne(t, d, domain)
    const done = await approveAll(t, d, domain, started)
    t.equal(done.status, 'approved', `${domain}: instance approved`)
    t.ok(done.stages.every((s) => s.status === 'approved'), `${domain}: every stage approved`)
    const entity = await d.callers[started.creator]({ method: 'GET', url: `${spec(domain).base}/${path(started.id)}` })
    t.equal(entity.statusCode, 200)
    t.match(entity.json(), { _id: started.id, status: 'approved', instance: { _id: started.instance, status: 'approved' } }, `${domain}: the entity says approved`)
    if (domain === 'graduate_milestones') t.equal(entity.json().milestone_status, 'approved', 'the milestone status follows')
    const history = await d.callers[started.creator]({ method: 'GET', url: `${spec(domain).base}/${path(started.id)}/history` })
    t.equal(history.statusCode, 200)
    const actions = (history.json().items as { action: string }[]).map((h) => h.action)
    t.equal(actions[0], 'submit', `${domain}: history starts with the submission`)
    t.equal(actions.filter((a) => a === 'approve').length, done.history.filter((h) => h.action === 'approve').length, `${domain}: every approval is in the history`)
  }
})

t.test('every domain: a rejection rejects the entity and closes the review', async (t) => {
  const d = await workflowDepartment(t)
  for (const domain of domains) {
    const started = await startOne(t, d, domain)
    const instance = await instanceOf(d, started.instance)
    const [approver] = pendingIn(instance)
    const res = await decide(d, domain, d.nameOf(approver!), started.id, 'reject', { comment: 'Not this term' })
    t.equal(res.statusCode, 200, `${domain}: rejected (${res.body.slice(0, 200)})`)
    t.match(res.json(), { entity: { status: 'rejected' }, instance: { status: 'rejected' } })
    const again = await decide(d, domain, d.nameOf(approver!), started.id, 'approve')
    t.equal(again.statusCode, 409, `${domain}: a different decision afterwards is a conflict`)
    t.match(again.json(), { statusCode: 409, instance: { status: 'rejected' } }, `${domain}: the 409 carries the current instance`)
  }
})

t.test('every domain: request revision, edit, resubmit, then approved in round 2', async (t) => {
  const d = await workflowDepartment(t)
  for (const domain of domains) {
    const { base, crud } = spec(domain)
    const started = await startOne(t, d, domain)
    const [approver] = pendingIn(await instanceOf(d, started.instance))
    const asked = await decide(d, domain, d.nameOf(approver!), started.id, 'request_revision', { comment: 'Say more' })
    t.equal(asked.statusCode, 200, `${domain}: revision requested (${asked.body.slice(0, 200)})`)
    t.match(asked.json(), { entity: { status: 'revision_requested' }, instance: { status: 'revision_requested' } })
    const creator = d.callers[started.creator]
    if (crud.update) {
      const field = domain === 'fellowships' || domain === 'award_nominations' ? { statement: 'Now with more' } : { title: 'Revised title' }
      const edited = await creator({ method: 'PUT', url: `${base}/${path(started.id)}`, payload: field })
      t.equal(edited.statusCode, 200, `${domain}: edited while revision is requested (${edited.body.slice(0, 200)})`)
    }
    if (!crud.submit) continue
    const resubmitted = await creator({ method: 'POST', url: `${base}/${path(started.id)}/submit` })
    t.equal(resubmitted.statusCode, 200, `${domain}: resubmitted`)
    t.match(resubmitted.json(), { entity: { status: 'submitted' }, instance: { status: 'in_review', round: 2 } })
    const done = await approveAll(t, d, domain, started)
    t.equal(done.status, 'approved', `${domain}: approved in round 2`)
    t.ok(done.history.some((h) => h.action === 'request_revision' && h.round === 1), `${domain}: round 1's revision request stays in history`)
  }
})

t.test('every domain: a delegate decides on the delegator\'s behalf; the delegator no longer can', async (t) => {
  const d = await workflowDepartment(t)
  for (const domain of domains) {
    const started = await startOne(t, d, domain)
    const instance = await instanceOf(d, started.instance)
    const [approver] = pendingIn(instance)
    const from = d.nameOf(approver!)
    // Gus nominates the award nominations, so he may not decide them: staff takes that one.
    const to = domain === 'award_nominations' ? 'stu' : from === 'gus' ? 'cyd' : 'gus'
    const handed = await delegateTo(d, domain, from, started.id, d.ids[to], { comment: 'Away this week' })
    t.equal(handed.statusCode, 200, `${domain}: ${from} delegates to ${to} (${handed.body.slice(0, 200)})`)
    const queue = await d.callers[to]({ method: 'GET', url: spec(domain).pendingPath })
    t.match(queue.json().items, [{ id: started.id, on_behalf_of: approver }], `${domain}: in ${to}'s queue on behalf of ${from}`)
    t.equal((await decide(d, domain, from, started.id, 'approve')).statusCode, 403, `${domain}: the delegator no longer decides`)
    const approved = await decide(d, domain, to, started.id, 'approve', { stage: instance.current_stage })
    t.equal(approved.statusCode, 200, `${domain}: the delegate approves`)
    const history = (await instanceOf(d, started.instance)).history
    t.ok(history.some((h) => h.action === 'delegate' && h.actor === approver), `${domain}: the delegation is in history`)
  }
})

t.test('every domain: the submitter withdraws until the review is final', async (t) => {
  const d = await workflowDepartment(t)
  for (const domain of domains) {
    const { base } = spec(domain)
    const started = await startOne(t, d, domain)
    const [approver] = pendingIn(await instanceOf(d, started.instance))
    t.equal((await d.callers[d.nameOf(approver!)]({ method: 'POST', url: `${base}/${path(started.id)}/withdraw` })).statusCode, 403,
      `${domain}: an approver cannot withdraw`)
    const withdrawn = await d.callers[started.creator]({ method: 'POST', url: `${base}/${path(started.id)}/withdraw`, payload: { comment: 'Changed my mind' } })
    t.equal(withdrawn.statusCode, 200, `${domain}: withdrawn (${withdrawn.body.slice(0, 200)})`)
    t.match(withdrawn.json(), { entity: { status: 'withdrawn' }, instance: { status: 'withdrawn' } })
    t.equal((await decide(d, domain, d.nameOf(approver!), started.id, 'approve')).statusCode, 409, `${domain}: no decision after withdrawal`)
  }
})
