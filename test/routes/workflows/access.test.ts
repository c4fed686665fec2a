import t from 'tap'
import type { WorkflowDomainKey } from '../../../src/workflows/registry.js'
import { routeTable } from '../../http/route-table.js'
import { draftOf, domains, instanceOf, path, spec, startOne, workflowDepartment, type Department, type Inject, type Name } from './support.js'

/** A body each route accepts, so a refusal comes from who is asking, not from what they sent. */
function bodyFor(d: Department, domain: WorkflowDomainKey, method: string, url: string, outsider: Name): unknown {
  const action = url.split('/').at(-1)
  if (method === 'POST' && url === spec(domain).base) return draftOf(d, domain, 9).body
  if (method === 'PUT') return domain === 'fellowships' || domain === 'award_nominations' ? { statement: 'Mine now' } : { title: 'Mine now' }
  switch (action) {
    case 'request-revision': return { comment: 'Redo it' }
    case 'delegate': return { to: d.ids.stu }
    case 'decision': return { decision: 'approve' }
    default: return method === 'POST' ? {} : undefined
  }
}

t.test('outsiders (another student, unrelated faculty, an API key) get 403 or 404 on every workflow route, and nothing changes', async (t) => {
  const d = await workflowDepartment(t)
  const routes = routeTable(d.app).filter((r) => r.method !== 'HEAD')
  for (const domain of domains) {
    const { base, pendingPath } = spec(domain)
    const started = await startOne(t, d, domain)
    const before = await instanceOf(d, started.instance)
    const title = String(Object.values(draftOf(d, domain).body).find((v) => typeof v === 'string' && !v.includes('/')))
    // Gus nominated the award nominations; Fay has nothing to do with them.
    const faculty: Name = domain === 'award_nominations' ? 'fay' : 'gus'
    const outsiders: [string, Inject, Name][] = [['another student', d.callers.otto, 'otto'], ['unrelated faculty', d.callers[faculty], faculty], ['an API key', d.apiKey, 'otto']]
    const mine = routes.filter((r) => r.url === pendingPath || r.url === base || r.url.startsWith(`${base}/:id`))
    t.ok(mine.length >= 6, `${domain}: ${mine.length} routes`)
    for (const route of mine) {
      const url = route.url.replace(':id', path(started.id))
      for (const [label, caller, name] of outsiders) {
        const payload = bodyFor(d, domain, route.method, route.url, name)
        const res = await caller({ method: route.method as 'GET', url, ...(payload !== undefined ? { payload: payload as object } : {}) })
        const tag = `${domain}: ${label}, ${route.method} ${route.url}`
        if (label === 'an API key') t.equal(res.statusCode, 403, `${tag}: 403`)
        else if (route.url.includes(':id') || route.method !== 'GET') t.ok([403, 404].includes(res.statusCode), `${tag}: 403 or 404 (${res.statusCode} ${res.body.slice(0, 120)})`)
        else {
          t.equal(res.statusCode, 200, `${tag}: a list, of the caller's own`)
          t.notOk(res.body.includes(started.id), `${tag}: the entity is absent`)
        }
        if (res.statusCode >= 400) t.notOk(res.body.includes(title), `${tag}: no entity data in the refusal`)
      }
    }
    const after = await instanceOf(d, started.instance)
    t.same(after, before, `${domain}: the instance is unchanged`)
    t.equal((await d.callers[started.creator]({ method: 'GET', url: `${base}/${path(started.id)}` })).json().status, 'submitted', `${domain}: the entity is unchanged`)
  }

  const [thesis] = (await d.admin({ method: 'GET', url: '/api/workflows/instances?domain=honors_thesis' })).json().items as { _id: string }[]
  const definition = ((await d.admin({ method: 'GET', url: '/api/workflows' })).json().items as { _id: string }[])[0]!
  for (const [label, caller] of [['another student', d.callers.otto], ['unrelated faculty', d.callers.gus]] as const) {
    for (const url of [`/api/workflows/instances/${path(thesis!._id)}`, `/api/workflows/instances/${path(thesis!._id)}/stages`]) {
      t.equal((await caller({ method: 'GET', url })).statusCode, 404, `${label}: GET ${url} is a 404`)
    }
    const listed = await caller({ method: 'GET', url: '/api/workflows/instances?domain=honors_thesis' })
    t.same(listed.json().items, [], `${label}: no instances of others listed`)
    t.equal((await caller({ method: 'POST', url: '/api/workflows', payload: { domain: 'honors_thesis', name: 'Mine', stages: [] } })).statusCode, 403, `${label}: POST /api/workflows is admins only`)
    t.equal((await caller({ method: 'PUT', url: `/api/workflows/${path(definition._id)}`, payload: { domain: 'honors_thesis', name: 'Mine', stages: [] } })).statusCode, 403, `${label}: PUT /api/workflows/:id is admins only`)
  }
  for (const url of ['/api/workflows', `/api/workflows/${path(definition._id)}`, '/api/workflows/instances', `/api/workflows/instances/${path(thesis!._id)}`, `/api/workflows/instances/${path(thesis!._id)}/stages`]) {
    t.equal((await d.apiKey({ method: 'GET', url })).statusCode, 403, `an API key: GET ${url} is a 403`)
  }
})

t.test('answers about workflow entities are never served from the shared response cache', async (t) => {
  const d = await workflowDepartment(t)
  const started = await startOne(t, d, 'honors_thesis')
  const url = `${spec('honors_thesis').base}/${path(started.id)}`
  for (let i = 0; i < 2; i++) {
    const own = await d.callers.una({ method: 'GET', url })
    t.equal(own.statusCode, 200)
    t.equal(own.headers['x-cache'], undefined, 'the answer did not pass through the response cache')
  }
  t.equal((await d.callers.otto({ method: 'GET', url })).statusCode, 404, 'another student right after is refused, not served the cached answer')
  const list = await d.callers.una({ method: 'GET', url: spec('honors_thesis').base })
  t.equal(list.headers['x-cache'], undefined)
  t.same((await d.callers.otto({ method: 'GET', url: spec('honors_thesis').base })).json().items, [], 'nor the list')
})
