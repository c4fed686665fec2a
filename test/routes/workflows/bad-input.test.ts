import t from 'tap'
import { userIdForEmail } from '../../../src/auth/tokens.js'
import { decide, delegateTo, draftOf, instanceOf, path, people, spec, startOne, workflowDepartment } from './support.js'

t.test('bad input to the decision and delegation routes: a 4xx naming the problem, and nothing changes', async (t) => {
  const d = await workflowDepartment(t)
  const research = await startOne(t, d, 'independent_research')
  const thesis = await startOne(t, d, 'honors_thesis')
  const nomination = await startOne(t, d, 'award_nominations')
  const researchUrl = `${spec('independent_research').base}/${path(research.id)}/decision`
  const before = { research: await instanceOf(d, research.instance), thesis: await instanceOf(d, thesis.instance), nomination: await instanceOf(d, nomination.instance) }

  const cases: [string, () => ReturnType<typeof d.admin>, number, RegExp][] = [
    ['an unknown decision', () => d.callers.fay({ method: 'POST', url: researchUrl, payload: { decision: 'maybe' } }), 400, /decision.*one of/],
    // Gus, faculty, submitted the nomination as its nominator.
    ['delegate to the submitter', () => delegateTo(d, 'award_nominations', 'cal', nomination.id, d.ids.gus), 403, /submitter/],
    ['delegate to a student', () => delegateTo(d, 'honors_thesis', 'fay', thesis.id, d.ids.otto), 400, /'to' must match.*Faculty\|Staff\|User/],
    ['delegate to a student (decision route)', () => delegateTo(d, 'independent_research', 'fay', research.id, d.ids.gabe), 400, /'delegate_to' must match/],
    ['delegate to a student by their user id', () => delegateTo(d, 'honors_thesis', 'fay', thesis.id, userIdForEmail(people.otto.email)), 400, /student/],
    ['delegate to oneself', () => delegateTo(d, 'honors_thesis', 'fay', thesis.id, d.ids.fay), 400, /themselves/],
    ['delegate without delegate_to', () => d.callers.fay({ method: 'POST', url: researchUrl, payload: { decision: 'delegate' } }), 400, /delegate_to/],
    ['delegate_to with approve', () => d.callers.fay({ method: 'POST', url: researchUrl, payload: { decision: 'approve', delegate_to: d.ids.gus } }), 400, /delegate_to/],
    ['request revision with no comment', () => decide(d, 'honors_thesis', 'fay', thesis.id, 'request_revision'), 400, /comment/],
    ['a comment over 10,000 characters', () => decide(d, 'honors_thesis', 'fay', thesis.id, 'approve', { comment: 'x'.repeat(10_001) }), 400, /comment.*10000/],
    ['a comment over 10,000 characters (decision route)', () => d.callers.fay({ method: 'POST', url: researchUrl, payload: { decision: 'reject', comment: 'x'.repeat(10_001) } }), 400, /comment.*10000/],
    ['$ne in the decision', () => d.callers.fay({ method: 'POST', url: researchUrl, payload: { decision: { $ne: null } } }), 400, /decision/],
    ['$ne in delegate_to', () => d.callers.fay({ method: 'POST', url: researchUrl, payload: { decision: 'delegate', delegate_to: { $ne: null } } }), 400, /delegate_to/],
    ['$ne in the delegate', () => d.callers.fay({ method: 'POST', url: `${spec('honors_thesis').base}/${path(thesis.id)}/delegate`, payload: { to: { $ne: null } } }), 400, /to/],
    ['an unknown field', () => decide(d, 'honors_thesis', 'fay', thesis.id, 'approve', { status: 'approved' }), 400, /unknown field 'status'/],
    ['an unknown field (decision route)', () => d.callers.fay({ method: 'POST', url: researchUrl, payload: { decision: 'approve', approver: d.ids.fay } }), 400, /unknown field 'approver'/],
    ['an unknown entity id', () => decide(d, 'honors_thesis', 'fay', 'ThesisRequest/nosuch', 'approve'), 404, /not found/],
    ['an id of another class', () => decide(d, 'honors_thesis', 'fay', research.id, 'approve'), 400, /ThesisRequest/],
    ['a stage that does not exist', () => decide(d, 'honors_thesis', 'fay', thesis.id, 'approve', { stage: 'nosuch' }), 400, /stage.*nosuch/],
    ['a decision by the submitter', () => decide(d, 'honors_thesis', 'una', thesis.id, 'approve', { override: true, comment: 'Mine' }), 403, /./],
  ]
  for (const [label, send, status, message] of cases) {
    const res = await send()
    t.equal(res.statusCode, status, `${label}: ${status} (${res.body.slice(0, 200)})`)
    t.match(res.json().error, message, `${label}: the message names the problem`)
  }
  t.same(await instanceOf(d, research.instance), before.research, 'the research instance is unchanged')
  t.same(await instanceOf(d, thesis.instance), before.thesis, 'the thesis instance is unchanged')
  t.same(await instanceOf(d, nomination.instance), before.nomination, 'the nomination instance is unchanged')
})

t.test('deciding on a draft, and bad entity bodies', async (t) => {
  const d = await workflowDepartment(t)
  const { base } = spec('honors_thesis')
  const created = await d.callers.una({ method: 'POST', url: base, payload: draftOf(d, 'honors_thesis').body })
  t.equal(created.statusCode, 201)
  const draft = created.json()
  t.match(draft, { status: 'draft', student: d.ids.una })
  const decided = await decide(d, 'honors_thesis', 'fay', draft._id, 'approve')
  t.ok(decided.statusCode === 409 || decided.statusCode === 403, `a decision on a draft is refused (${decided.statusCode} ${decided.body.slice(0, 200)})`)
  t.match(decided.json().error, /draft|not submitted|no review|not in review/i, 'saying it is not in review')

  const bad: [string, object, RegExp][] = [
    ['a status', { ...draftOf(d, 'honors_thesis').body, status: 'approved' }, /unknown field 'status'/],
    ['$ne in the student', { ...draftOf(d, 'honors_thesis').body, student: { $ne: null } }, /student/],
    ['a student of the wrong kind', { ...draftOf(d, 'honors_thesis').body, student: d.ids.gabe }, /student.*UndergraduateStudent/],
    ['an unknown field', { ...draftOf(d, 'honors_thesis').body, approved_by: d.ids.fay }, /unknown field 'approved_by'/],
  ]
  for (const [label, payload, message] of bad) {
    const res = await d.callers.una({ method: 'POST', url: base, payload })
    t.equal(res.statusCode, 400, `create with ${label}: 400`)
    t.match(res.json().error, message, `create with ${label}: named`)
    t.equal(res.json().code, 'ADKS_VALIDATION_FAILED', `create with ${label}: named`)
  }
  const put = await d.callers.una({ method: 'PUT', url: `${base}/${path(draft._id)}`, payload: { status: 'approved' } })
  t.equal(put.statusCode, 400, 'an update may not set the status')
  t.match(put.json().error, /unknown field 'status'/)
  t.equal(put.json().code, 'ADKS_VALIDATION_FAILED')
  const listed = await d.callers.una({ method: 'GET', url: base })
  t.same(listed.json().items.map((e: { _id: string; status: string }) => [e._id, e.status]), [[draft._id, 'draft']], 'only the draft, still a draft')
  t.equal((await d.callers.una({ method: 'GET', url: `${base}?student[$ne]=x` })).statusCode, 400, 'a nested query parameter is refused')
  t.equal((await d.callers.una({ method: 'GET', url: `${base}?limit=1000000` })).statusCode, 400, 'an oversized page is refused')
})
