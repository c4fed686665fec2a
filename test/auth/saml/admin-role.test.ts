import t from 'tap'
import { frontendRedirect, harness, newIdp, postCallback, startLogin } from './flow.js'
import type { Person } from './idp.js'

// docs/auth.md, "User administration": single sign-on never grants admin, but an admin can make an SSO user
// admin through PUT /api/users/:id, and the next sign-in through the IdP keeps it.
const idp = newIdp()
const h = await harness(t, idp)

/** A whole sign-in as the browser makes it: login, IdP response, callback, token exchange. */
async function signIn(person: Person): Promise<{ idToken: string; user: { id: string; role: string } }> {
  const { requestId, relayState } = await startLogin(h.app)
  const callback = await postCallback(h.app, idp.signedResponse({ inResponseTo: requestId }, person), relayState)
  const { params } = frontendRedirect(callback)
  if (!params.token) throw new Error(`sign-in refused: ${params.error}`)
  return (await h.app.inject({ method: 'POST', url: '/api/auth/token', payload: { customToken: params.token } })).json()
}

t.test('an admin makes an SSO user admin; the user keeps it on the next SSO sign-in', async (t) => {
  const admin = h.as('admin@dept.edu', 'admin')
  const carol = { netid: 'carol', affiliation: ['staff'], givenName: 'Carol', sn: 'Shaw' }
  const first = await signIn(carol)
  t.equal(first.user.role, 'staff', 'the affiliation gives staff')
  const me = () => h.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${first.idToken}` } })
  t.equal((await me()).json().role, 'staff')

  const listed = (await admin({ method: 'GET', url: '/api/users?search=carol' })).json()
  t.match(listed, { total: 1, items: [{ id: first.user.id, campusId: 'carol', firstName: 'Carol', lastName: 'Shaw', samlAuthenticated: true, role: 'staff' }] })
  t.match(listed.items[0].lastLoginAt, /^\d{4}-/, 'the sign-in time is shown')

  const promoted = await admin({ method: 'PUT', url: `/api/users/${encodeURIComponent(first.user.id)}`, payload: { role: 'admin' } })
  t.equal(promoted.statusCode, 200)
  t.equal(promoted.json().role, 'admin')
  t.equal((await me()).json().role, 'admin', 'admin at the next request with the token she already has')

  const again = await signIn(carol)
  t.equal(again.user.id, first.user.id, 'the same account')
  t.equal(again.user.role, 'admin', 'the next sign-in keeps admin though the IdP says staff')
  const users = await h.app.inject({ method: 'GET', url: '/api/users', headers: { authorization: `Bearer ${again.idToken}` } })
  t.equal(users.statusCode, 200, 'and she may administer users with her new token')

  const demoted = await admin({ method: 'PUT', url: `/api/users/${encodeURIComponent(first.user.id)}`, payload: { role: 'user' } })
  t.equal(demoted.json().role, 'user')
  t.equal((await signIn(carol)).user.role, 'staff', 'once demoted, the role follows the affiliation again')
})

t.test('single sign-on alone never makes an admin', async (t) => {
  const { user } = await signIn({ netid: 'dave', affiliation: ['admin', 'faculty'] })
  t.equal(user.role, 'faculty')
  const admin = h.as('admin@dept.edu', 'admin')
  t.equal((await admin({ method: 'GET', url: '/api/users?role=admin' })).json().items.map((u: { id: string }) => u.id).includes(user.id), false)
})
