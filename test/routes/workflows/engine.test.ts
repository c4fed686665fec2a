import t from 'tap'
import { decide, domains, path, spec, startOne, workflowDepartment } from './support.js'

t.test('definitions: one per domain seeded; admins add one, and PUT makes the next version while instances keep theirs', async (t) => {
  const d = await workflowDepartment(t)
  const listed = await d.callers.una({ method: 'GET', url: '/api/workflows' })
  t.equal(listed.statusCode, 200)
  const definitions = listed.json().items as { _id: string; domain: string; version: number; stages: { key: string }[] }[]
  t.same([...new Set(definitions.map((w) => w.domain))].sort(), [...domains].sort(), 'a definition for every domain')
  const thesis = definitions.find((w) => w.domain === 'honors_thesis')!
  t.same(thesis.stages.map((s) => s.key), ['advisor', 'department'])
  t.match((await d.callers.una({ method: 'GET', url: `/api/workflows/${path(thesis._id)}` })).json(), { _id: thesis._id, version: thesis.version })
  t.equal((await d.callers.una({ method: 'GET', url: `/api/workflows/${thesis._id}` })).statusCode, 200, 'the id as two raw path segments')

  const started = await startOne(t, d, 'honors_thesis')
  const stages = [
    { key: 'advisor', name: 'Advisor approval', approver_role: 'advisor', policy: 'all' },
    { key: 'second', name: 'Second look', approver_role: 'department_admin', policy: 'any' },
    { key: 'department', name: 'Department approval', approver_role: 'department_admin', policy: 'any' },
  ]
  const put = await d.admin({ method: 'PUT', url: `/api/workflows/${path(thesis._id)}`, payload: { domain: 'honors_thesis', name: 'Thesis, three stages', stages } })
  t.equal(put.statusCode, 200, `PUT makes a new version (${put.body.slice(0, 200)})`)
  t.match(put.json(), { domain: 'honors_thesis', version: thesis.version + 1, name: 'Thesis, three stages' })
  t.not(put.json()._id, thesis._id, 'a new record, the old one unchanged')
  t.same((await d.admin({ method: 'GET', url: `/api/workflows/${path(thesis._id)}` })).json().stages.map((s: { key: string }) => s.key), ['advisor', 'department'])
  const instance = (await d.admin({ method: 'GET', url: `/api/workflows/instances/${path(started.instance)}` })).json()
  t.equal(instance.workflow_version, thesis.version, 'the running instance keeps its version')
  const next = await startOne(t, d, 'honors_thesis', 2)
  t.equal((await d.admin({ method: 'GET', url: `/api/workflows/instances/${path(next.instance)}` })).json().workflow_version, thesis.version + 1, 'a new submission runs the new version')

  const invalid = await d.admin({ method: 'POST', url: '/api/workflows', payload: { domain: 'honors_thesis', name: 'Broken', stages: [{ key: 'a', name: 'A', approver_role: 'advisor', policy: 'quorum' }] } })
  t.equal(invalid.statusCode, 400, 'a quorum stage without a quorum is refused')
  t.match(invalid.json().error, /quorum/)
  t.equal(invalid.json().code, 'ADKS_VALIDATION_FAILED')
  const unknown = await d.admin({ method: 'POST', url: '/api/workflows', payload: { domain: 'parking', name: 'X', stages: [] } })
  t.equal(unknown.statusCode, 400)
  t.match(unknown.json().error, /domain/)
  t.equal(unknown.json().code, 'ADKS_VALIDATION_FAILED')
  const posted = await d.admin({ method: 'POST', url: '/api/workflows', payload: { domain: 'major_plans', name: 'Plans, admins only', stages: [stages[2]] } })
  t.equal(posted.statusCode, 201)
  t.match(posted.json(), { domain: 'major_plans', version: 2 })
})

t.test('instances: filtered lists, one instance with the stages to come and their approvers, its stages', async (t) => {
  const d = await workflowDepartment(t)
  const thesis = await startOne(t, d, 'honors_thesis')
  const research = await startOne(t, d, 'independent_research')
  const list = async (caller: typeof d.admin, query: string) => (await caller({ method: 'GET', url: `/api/workflows/instances?${query}` })).json().items.map((i: { _id: string }) => i._id)
  t.same(await list(d.admin, 'domain=honors_thesis'), [thesis.instance])
  t.same(await list(d.admin, `entity=${path(research.id)}`), [research.instance])
  t.same((await list(d.admin, `submitter=${path(d.ids.una)}`)).sort(), [thesis.instance, research.instance].sort())
  t.same(await list(d.admin, 'status=approved'), [])
  t.same((await list(d.callers.una, '')).sort(), [thesis.instance, research.instance].sort(), 'the submitter lists their own')
  t.same((await list(d.callers.fay, 'domain=independent_research')), [research.instance], 'the approver lists what they are asked')
  t.equal((await d.admin({ method: 'GET', url: '/api/workflows/instances?domain=parking' })).statusCode, 400)

  const detail = await d.callers.una({ method: 'GET', url: `/api/workflows/instances/${path(thesis.instance)}` })
  t.equal(detail.statusCode, 200)
  t.match(detail.json(), { _id: thesis.instance, entity: thesis.id, status: 'in_review', current_stage: 'advisor' })
  t.match(detail.json().preview, [{ key: 'department', approver_role: 'department_admin', approvers: [d.ids.admin] }], 'the stage to come, with the admin it would ask')
  t.notOk('participants' in detail.json(), 'internal fields stay inside')
  const raw = await d.callers.una({ method: 'GET', url: `/api/workflows/instances/${thesis.instance}/stages` })
  t.equal(raw.statusCode, 200, 'the instance id as two raw path segments')
  t.match(raw.json().items, [
    { key: 'advisor', status: 'active', name: String, policy: 'all', approvals: [{ approver: d.ids.fay, status: 'pending' }] },
    { key: 'department', status: 'waiting' },
  ])
  t.equal((await decide(d, 'honors_thesis', 'fay', thesis.id, 'approve')).statusCode, 200)
  t.same((await d.callers.una({ method: 'GET', url: `/api/workflows/instances/${path(thesis.instance)}` })).json().preview, [], 'nothing more to come once the last stage is active')
})

t.test('entity ids work URL-encoded and as two raw path segments on every kind of route', async (t) => {
  const d = await workflowDepartment(t)
  const started = await startOne(t, d, 'honors_thesis')
  const { base } = spec('honors_thesis')
  t.equal((await d.callers.una({ method: 'GET', url: `${base}/${started.id}` })).json()._id, started.id, 'GET raw')
  t.equal((await d.callers.una({ method: 'GET', url: `${base}/${started.id}/history` })).statusCode, 200, 'history raw')
  const approved = await d.callers.fay({ method: 'POST', url: `${base}/${started.id}/approve`, payload: {} })
  t.equal(approved.statusCode, 200, 'approve raw')
  const milestone = await startOne(t, d, 'graduate_milestones')
  const raw = await d.callers.fay({ method: 'POST', url: `${spec('graduate_milestones').base}/${milestone.id}/decision`, payload: { decision: 'approve' } })
  t.equal(raw.statusCode, 200, 'decision raw')
  const created = await d.callers.una({ method: 'POST', url: spec('major_plans').base, payload: { plan: d.plan } })
  t.equal(created.statusCode, 201)
  t.match(created.json(), { status: 'submitted', student: d.ids.una, degree: d.degree, instance: { status: 'in_review' } }, 'POST {plan} submits it')
  t.equal((await d.callers.una({ method: 'GET', url: `${spec('major_plans').base}/${created.json()._id}` })).statusCode, 200, 'major plan raw')
})
