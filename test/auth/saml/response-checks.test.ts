import fc from 'fast-check'
import t from 'tap'
import { acsUrl, expectAccepted, expectRejected, frontendRedirect, frontendUrl, harness, newIdp, postCallback, startLogin } from './flow.js'
import { encode } from './idp.js'

// The response checks (docs/auth.md, "What the callback checks"): where a response is addressed, when
// it is valid, whom it answers, what it says, and what a hostile body looks like before any XML parser sees it.
const idp = newIdp()
const h = await harness(t, idp)
const login = () => startLogin(h.app)
const minutes = (n: number) => new Date(Date.now() + n * 60_000)

t.test('an assertion for another SP (audience) is rejected', async (t) => {
  const { requestId } = await login()
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId, audience: 'https://other-sp.example' }),
    { message: 'SAML validation failed', reason: /audience mismatch/ })
})

t.test('Response Destination other than our ACS URL is rejected; an absent one is allowed', async (t) => {
  let { requestId } = await login()
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId, destination: 'https://other-sp.example/acs' }),
    { message: 'SAML validation failed', reason: /Destination https:\/\/other-sp\.example\/acs is not/ })
  ;({ requestId } = await login())
  await expectAccepted(t, h, idp.signedResponse({ inResponseTo: requestId, destination: null }, { netid: 'nodest' }))
})

t.test('SubjectConfirmationData Recipient other than our ACS URL is rejected', async (t) => {
  const { requestId } = await login()
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId, recipient: `${acsUrl}/../other` }),
    { message: 'SAML validation failed', reason: /Recipient .* is not this service's ACS URL/ })
})

t.test('an assertion Issuer other than SAML_IDP_ENTITY_ID is rejected', async (t) => {
  const { requestId } = await login()
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId, issuer: 'https://rogue-idp.example' }),
    { message: 'SAML validation failed', reason: /Issuer https:\/\/rogue-idp\.example is not the configured/ })
})

t.test('time conditions: beyond the 120000 ms skew rejected, within it accepted', async (t) => {
  const cases = [
    { parts: { notBefore: minutes(5) }, reason: /not yet valid/ },
    // node-saml applies the same time rules to SubjectConfirmationData first, and says so less precisely.
    { parts: { notOnOrAfter: minutes(-5) }, reason: /expired|No valid subject confirmation/ },
    { parts: { issueInstant: minutes(-60), notBefore: minutes(-61) }, reason: /too old|No valid subject confirmation/ },
    { parts: { issueInstant: minutes(5) }, reason: /issued in the future/ },
  ]
  for (const { parts, reason } of cases) {
    const { requestId } = await login()
    await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId, ...parts }), { message: 'SAML validation failed', reason })
  }
  let { requestId } = await login()
  await expectAccepted(t, h, idp.signedResponse({ inResponseTo: requestId, notBefore: minutes(1) }, { netid: 'earlyclock' }))
  ;({ requestId } = await login())
  await expectAccepted(t, h, idp.signedResponse({ inResponseTo: requestId, issueInstant: minutes(-4), notOnOrAfter: minutes(-1) }, { netid: 'lateclock' }))
})

t.test('an unsolicited response (no InResponseTo) is rejected', async (t) => {
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: null }), { message: 'SAML validation failed', reason: /InResponseTo is missing/ })
})

t.test('a response to a request this service never issued is rejected', async (t) => {
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: '_never-issued' }), { message: 'SAML validation failed', reason: /InResponseTo is not valid/ })
})

t.test('a SubjectConfirmationData answering another request than the Response is rejected', async (t) => {
  const first = await login()
  const second = await login()
  const xml = idp.responseXml({ inResponseTo: first.requestId },
    idp.sign(idp.assertionXml({ inResponseTo: second.requestId }), 'Assertion'))
  await expectRejected(t, h, encode(xml), { message: 'SAML validation failed', reason: /InResponseTo does not match/ })
})

t.test('a Status other than Success gives no session', async (t) => {
  const { requestId } = await login()
  const xml = idp.responseXml({ inResponseTo: requestId, statusCode: 'urn:oasis:names:tc:SAML:2.0:status:Requester' }, '')
  await expectRejected(t, h, encode(xml), { message: 'SAML validation failed', reason: /Requester error/ })
})

t.test('no principal name and no NameID: User not found after SAML login', async (t) => {
  const { requestId } = await login()
  const attributes = [{ name: 'urn:oid:0.9.2342.19200300.100.1.3', values: ['someone@dept.edu'] }]
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId, nameId: null, attributes }),
    { message: 'User not found after SAML login', reason: /neither eduPersonPrincipalName nor NameID/ })
})

t.test('no mail attribute: User not found after SAML login', async (t) => {
  const { requestId } = await login()
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId }, { netid: 'nomail', mail: '' }),
    { message: 'User not found after SAML login', reason: /no usable mail/ })
})

t.test('a mail the User record refuses: User not found after SAML login', async (t) => {
  const { requestId } = await login()
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId }, { netid: 'badmail', mail: 'badmail@localhost' }),
    { message: 'User not found after SAML login', reason: /email/ })
  t.equal(await h.app.users.byCampusId('badmail'), null)
})

t.test('typed attributes: markup or several values where one name is expected gives no session', async (t) => {
  let { requestId } = await login()
  const mail = { name: 'urn:oid:0.9.2342.19200300.100.1.3', values: ['x@dept.edu'] }
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId, attributes: [mail,
    { name: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.6', values: ['<saml:NameID>admin@dept.edu</saml:NameID>'] }] }),
  { message: 'User not found after SAML login', reason: /something other than text/ })
  ;({ requestId } = await login())
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId, attributes: [mail,
    { name: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.6', values: ['a@dept.edu', 'admin@dept.edu'] }] }),
  { message: 'User not found after SAML login', reason: /several values/ })
  ;({ requestId } = await login())
  const { token } = await expectAccepted(t, h, idp.signedResponse({ inResponseTo: requestId, attributes: [
    { name: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.6', values: ['typed@dept.edu'] }, { name: 'mail', values: ['typed@dept.edu'] },
    { name: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.1', values: ['<x>faculty</x>', 'student'] }] }))
  t.equal(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).role, 'student', 'a structured affiliation value is ignored')
})

t.test('a DOCTYPE or entity declaration is refused before parsing, even in a validly signed response', async (t) => {
  const { requestId } = await login()
  const signed = idp.signedResponseXml({ inResponseTo: requestId })
  const bomb = '<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
  await expectRejected(t, h, encode(bomb + signed), { message: 'SAML validation failed', status: 400, reason: /DOCTYPE/ })
  await expectRejected(t, h, encode(`<?xml version="1.0"?>\n<!doctype samlp:Response SYSTEM "file:///etc/passwd">${signed}`),
    { message: 'SAML validation failed', status: 400, reason: /DOCTYPE/ })
})

t.test('several XML roots are rejected', async (t) => {
  const { requestId } = await login()
  await expectRejected(t, h, encode(`${idp.signedResponseXml({ inResponseTo: requestId })}<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>`),
    { message: 'SAML validation failed', reason: /Only one element/ })
})

t.test('a body that is no SAMLResponse is a 400', async (t) => {
  await expectRejected(t, h, '%%%not base64%%%', { message: 'SAML validation failed', status: 400, reason: /not base64/ })
  await expectRejected(t, h, encode('just text'), { message: 'SAML validation failed', status: 400, reason: /not XML/ })
  await expectRejected(t, h, encode('<html><body>hi</body></html>'), { message: 'SAML validation failed', reason: /not a SAML Response/ })
  const empty = await h.app.inject({ method: 'POST', url: '/api/auth/saml/callback', headers: { accept: 'application/json' }, payload: {} })
  t.equal(empty.statusCode, 400)
  t.equal(empty.json().error, 'SAML validation failed')
  t.equal(empty.json().code, 'ADKS_SAML_MALFORMED')
})

t.test('arbitrary bodies never cause a 5xx', async (t) => {
  const signed = idp.signedResponseXml({ inResponseTo: '_unknown' })
  await fc.assert(fc.asyncProperty(
    fc.oneof(fc.string(), fc.base64String(), fc.string().map((s) => encode(`<samlp:Response>${s}</samlp:Response>`)),
      fc.tuple(fc.nat(signed.length), fc.string({ maxLength: 8 })).map(([at, s]) => encode(signed.slice(0, at) + s + signed.slice(at)))),
    async (body) => {
      const response = await postCallback(h.app, body, undefined, true)
      return response.statusCode === 400 || response.statusCode === 401
    }), { numRuns: 60 })
  t.pass('60 bodies answered 400 or 401')
})

t.test('a 5 MB SAMLResponse is refused with 413 before it is read', async (t) => {
  const response = await postCallback(h.app, 'A'.repeat(5 * 1024 * 1024), undefined, true)
  t.equal(response.statusCode, 413)
  t.equal(response.json().success, false)
  const justOver = await postCallback(h.app, 'A'.repeat(256 * 1024), undefined, true)
  t.equal(justOver.statusCode, 413, 'the limit is 256 KB')
})

t.test('a browser is redirected to the frontend with the error message', async (t) => {
  const { requestId } = await login()
  const response = await postCallback(h.app, idp.signedResponse({ inResponseTo: requestId, audience: 'https://other-sp.example' }))
  t.equal(response.statusCode, 303)
  const { url, params } = frontendRedirect(response)
  t.equal(`${url.origin}${url.pathname}`, `${frontendUrl}/auth/saml-callback`)
  t.same(params, { error: 'SAML validation failed' })
})
