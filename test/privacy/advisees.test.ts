import t from 'tap'
import { path, workflowDepartment } from '../routes/workflows/support.js'

t.test("/api/advisees: an advisor's students, from their Person's place in each student's advisors", async (t) => {
  const d = await workflowDepartment(t)
  const names = async (caller: keyof typeof d.callers, query = '') => {
    const res = await d.callers[caller]({ method: 'GET', url: `/api/advisees${query}` })
    t.equal(res.statusCode, 200, `${caller} ${query}`)
    return (res.json().items as { first_name: string }[]).map((a) => a.first_name)
  }
  t.same(await names('fay'), ['Gabe', 'Una'], 'Fay advises Gabe and Una, by last name (Grad, Under)')
  t.same(await names('gus'), ['Otto'])
  t.same(await names('cal'), [], 'on a committee is not advising')
  t.same(await names('una'), [], 'a student advises no one')
  t.same(await names('admin'), [], 'an admin linked to no Person has none of their own')
  t.same(await names('admin', `?advisor=${path(d.ids.fay)}`), ['Gabe', 'Una'], "an admin may look at an advisor's")
  const page = await d.callers.fay({ method: 'GET', url: '/api/advisees?limit=1&offset=1' })
  t.match(page.json(), { total: 2, limit: 1, offset: 1, items: [{ _id: d.ids.una, type: 'UndergraduateStudent', first_name: 'Una', last_name: 'Under', email: 'una@dept.edu' }] })

  const refused = await d.callers.gus({ method: 'GET', url: `/api/advisees?advisor=${path(d.ids.fay)}` })
  t.equal(refused.statusCode, 403, "only admins look at another advisor's")
  t.notMatch(refused.body, 'Una')
  t.equal((await d.apiKey({ method: 'GET', url: '/api/advisees' })).statusCode, 403, 'an API key is no one\'s advisor')
  for (const bad of ['?advisor[$ne]=x', '?advisor=Course%2Fx', '?limit=100000', '?extra=1']) {
    const res = await d.callers.fay({ method: 'GET', url: `/api/advisees${bad}` })
    t.equal(res.statusCode, 400, bad)
  }

  // Advising follows the data: the next request sees a change to a student's advisors.
  t.equal((await d.admin({ method: 'PUT', url: `/api/people/${path(d.ids.otto)}`, payload: { advisors: [d.ids.fay] } })).statusCode, 200)
  t.same(await names('fay'), ['Otto', 'Gabe', 'Una'], 'Otto Else joins, by last name')
  t.same(await names('gus'), [])
})
