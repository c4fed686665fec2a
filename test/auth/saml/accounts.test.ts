import t from 'tap'
import { buildTestApp } from '../../helpers/app.js'
import { expectAccepted, frontendRedirect, harness, newIdp, postCallback, startLogin } from './flow.js'
import type { Attribute, Person } from './idp.js'
import { testActor } from '../../helpers/actor.js'

// Who a sign-in makes you: the spec's role mapping, admins kept, accounts keyed by NetID, attributes
// by OID or friendly name, and a safe returnTo.
const idp = newIdp()
const h = await harness(t, idp)

async function signIn(person: Person | { attributes: Attribute[] }, returnTo?: string) {
  const { requestId, relayState } = await startLogin(h.app, returnTo)
  const response = 'attributes' in person
    ? idp.signedResponse({ inResponseTo: requestId, attributes: person.attributes })
    : idp.signedResponse({ inResponseTo: requestId }, person)
  const callback = await postCallback(h.app, response, relayState)
  const { params } = frontendRedirect(callback)
  if (!params.token) return { params }
  const exchange = await h.app.inject({ method: 'POST', url: '/api/auth/token', payload: { customToken: params.token } })
  const me = await h.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${exchange.json().idToken}` } })
  return { params, user: exchange.json().user, me: me.json() }
}

t.test('the role mapping table of the spec', async (t) => {
  const table: Array<[string[], string]> = [
    [['faculty'], 'faculty'], [['employee'], 'faculty'], [['staff'], 'staff'], [['student'], 'student'],
    [['alum'], 'user'], [['none'], 'user'], [[], 'user'], [['member', 'affiliate'], 'user'],
    [['student', 'staff'], 'staff'], [['Faculty'], 'faculty'], [['admin'], 'user'], [['student@dept.edu'], 'student'],
  ]
  for (const [index, [affiliation, role]] of table.entries()) {
    const { me } = await signIn({ netid: `map${index}`, affiliation })
    t.equal(me.role, role, `[${affiliation.join(', ')}] -> ${role}`)
  }
})

t.test('admin is never assigned by SAML, and an existing admin stays admin on re-login', async (t) => {
  const attributes = [
    { name: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.6', values: ['eve@dept.edu'] }, { name: 'mail', values: ['eve@dept.edu'] },
    { name: 'role', values: ['admin'] }, { name: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.1', values: ['admin'] },
  ]
  t.equal((await signIn({ attributes })).me.role, 'user', 'role and affiliation "admin" give user')

  await h.app.records.create('User', { email: 'boss@dept.edu', role: 'admin', campus_id: 'boss' }, { actor: testActor, key: 'boss' })
  const { me, user } = await signIn({ netid: 'boss', affiliation: ['staff'] })
  t.equal(user.id, 'User/boss', 'the existing record, found by NetID')
  t.equal(me.role, 'admin', 'admin kept')
  t.ok(me.permissions.includes('manage_jobs'))

  t.equal((await signIn({ netid: 'alice', affiliation: ['student'] })).me.role, 'student')
  await h.app.users.setRole((await h.app.users.byCampusId('alice'))!, 'admin', testActor)
  t.equal((await signIn({ netid: 'alice', affiliation: ['student'] })).me.role, 'admin', 'made admin later, still admin after signing in')
  t.equal((await signIn({ netid: 'alice', affiliation: ['faculty'] })).me.role, 'admin')
})

t.test('a non-admin role follows the affiliation on each sign-in', async (t) => {
  t.equal((await signIn({ netid: 'grad', affiliation: ['student'] })).me.role, 'student')
  t.equal((await signIn({ netid: 'grad', affiliation: ['staff'] })).me.role, 'staff')
})

t.test('the IdP giving one person another user\'s email takes over nothing', async (t) => {
  const a = await signIn({ netid: 'owner', mail: 'owner@dept.edu', affiliation: ['faculty'] })
  const b = await signIn({ netid: 'intruder', mail: 'intruder@dept.edu', affiliation: ['student'] })
  const switched = await signIn({ netid: 'intruder', mail: 'owner@dept.edu', affiliation: ['student'] })
  t.equal(switched.user.id, b.user.id, 'still the intruder\'s own account')
  t.not(switched.user.id, a.user.id)
  t.equal(switched.me.role, 'student')
  const owner = await h.app.users.byId(a.user.id)
  t.match(owner, { email: 'owner@dept.edu', campus_id: 'owner', role: 'faculty' }, 'the owner\'s account is untouched')
})

t.test('an existing user found by email only is not taken over by a SAML sign-in', async (t) => {
  const token = await h.token('victim@dept.edu', 'faculty')
  const victim = await h.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })
  const { user } = await signIn({ netid: 'mallory', mail: 'victim@dept.edu', affiliation: ['student'] })
  t.not(user.id, victim.json().id)
  t.equal((await h.app.users.byId(victim.json().id))?.role, 'faculty')
})

t.test('attributes are read by OID, by friendly name, and by SAML 1 MACE name', async (t) => {
  const byOid = await signIn({ attributes: [
    { name: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.6', values: ['oid@dept.edu'] },
    { name: 'urn:oid:0.9.2342.19200300.100.1.3', values: ['Oid.Person@Dept.edu'] },
    { name: 'urn:oid:2.5.4.42', values: ['Olga'] }, { name: 'urn:oid:2.5.4.4', values: ['Idris'] },
    { name: 'urn:oid:2.16.840.1.113730.3.1.241', values: ['Dr Olga Idris'] },
    { name: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.1', values: ['staff', 'member'] }, { name: 'urn:oid:2.5.4.11', values: ['Physics'] },
  ] })
  t.match(byOid.user, { campusId: 'oid', email: 'oid.person@dept.edu', displayName: 'Dr Olga Idris', role: 'staff', affiliation: ['member', 'staff'] })
  t.match(await h.app.users.byCampusId('oid'), { first_name: 'Olga', last_name: 'Idris', department: 'Physics' })

  const byName = await signIn({ attributes: [
    { name: 'eduPersonPrincipalName', values: ['fname@dept.edu'] }, { name: 'mail', values: ['fname@dept.edu'] },
    { name: 'givenName', values: ['Fay'] }, { name: 'sn', values: ['Name'] }, { name: 'eduPersonAffiliation', values: ['student'] },
    { name: 'ou', values: ['Biology'] },
  ] })
  t.match(byName.user, { campusId: 'fname', role: 'student' })
  t.match(await h.app.users.byCampusId('fname'), { first_name: 'Fay', last_name: 'Name', department: 'Biology' })

  const byFriendly = await signIn({ attributes: [
    { name: 'https://idp.example/attr/1', friendlyName: 'eduPersonPrincipalName', values: ['friendly@dept.edu'] },
    { name: 'https://idp.example/attr/2', friendlyName: 'mail', values: ['friendly@dept.edu'] },
    { name: 'urn:mace:dir:attribute-def:eduPersonAffiliation', values: ['faculty'] },
  ] })
  t.match(byFriendly.user, { campusId: 'friendly', role: 'faculty' })
})

t.test('without a principal name the NameID is the NetID', async (t) => {
  const { user } = await signIn({ attributes: [{ name: 'mail', values: ['alovelace@dept.edu'] }] })
  t.equal(user.campusId, 'alovelace')
})

t.test('returnTo is kept when it is a same-site path and replaced by /dashboard otherwise', async (t) => {
  const hostile = ['https://evil.tld', '//evil.tld', '/\\evil.tld', '%2F%2Fevil.tld', '/%2F/evil.tld', 'javascript:alert(1)',
    '/ok\r\nSet-Cookie: a=b', '/ok\nx', 'evil.tld', '/\t/evil.tld', '']
  for (const [index, returnTo] of hostile.entries()) {
    const { params } = await signIn({ netid: `redirect${index}` }, returnTo)
    t.equal(params.returnTo, '/dashboard', `${JSON.stringify(returnTo)} -> /dashboard`)
  }
  t.equal((await signIn({ netid: 'redirectok' }, '/people/Faculty%2Fjsmith?tab=pubs#top')).params.returnTo, '/people/Faculty%2Fjsmith?tab=pubs#top')
})

t.test('a RelayState forged in the callback cannot choose the redirect', async (t) => {
  for (const relay of ['https://evil.tld', '//evil.tld', 'AAAAAAAAAAAAAAAAAAAAAAAA']) {
    const { requestId } = await startLogin(h.app, '/people')
    const callback = await postCallback(h.app, idp.signedResponse({ inResponseTo: requestId }, { netid: 'forger' }), relay)
    const { url, params } = frontendRedirect(callback)
    t.equal(url.host, 'app.dept.edu')
    t.equal(params.returnTo, '/dashboard', `RelayState ${relay}`)
  }
})

t.test('concurrent first sign-ins of one person make one account', async (t) => {
  const logins = await Promise.all(Array.from({ length: 4 }, () => startLogin(h.app)))
  const results = await Promise.all(logins.map(({ requestId }) =>
    expectAccepted(t, h, idp.signedResponse({ inResponseTo: requestId }, { netid: 'twin' }))))
  t.equal(results.length, 4)
  t.equal((await h.app.store.collection('users').find({ campus_id: 'twin' })).length, 1)
})

t.test('without an IdP configured the four SAML routes answer 404 "Single sign-on is not configured"', async (t) => {
  const { app } = await buildTestApp(t)
  for (const [method, url] of [['GET', '/api/auth/saml/login'], ['GET', '/api/auth/saml/metadata'], ['GET', '/api/auth/saml/logout'], ['POST', '/api/auth/saml/callback']] as const) {
    const response = await app.inject({ method, url, ...(method === 'POST' ? { payload: { SAMLResponse: 'x' } } : {}) })
    t.equal(response.statusCode, 404, `${method} ${url}`)
    t.same(response.json(), { success: false, error: 'Single sign-on is not configured', statusCode: 404, code: 'ADKS_SSO_NOT_CONFIGURED' }, `${method} ${url} body`)
    t.notOk(response.headers.location, `${method} ${url} redirects nowhere`)
  }
  const doc = (await app.inject({ method: 'GET', url: '/documentation/json' })).json() as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }
  for (const [method, path] of [['get', '/api/auth/saml/login'], ['get', '/api/auth/saml/metadata'], ['get', '/api/auth/saml/logout'], ['post', '/api/auth/saml/callback']] as const) {
    t.ok(doc.paths[path]?.[method]?.responses['404'], `${method.toUpperCase()} ${path} documents the 404`)
  }
})
