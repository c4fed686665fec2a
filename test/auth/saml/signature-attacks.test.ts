import t from 'tap'
import { makeKeyAndCert } from './cert.js'
import { expectAccepted, expectRejected, harness, newIdp, startLogin } from './flow.js'
import { algorithms, encode } from './idp.js'

// The signature checks (docs/auth.md, "What the callback checks"): signature wrapping, several
// assertions, unsigned parts, tampering, comment injection, XML-DSig tricks, weak algorithms and foreign
// keys. Every case starts from a real AuthnRequest.
const idp = newIdp()
const h = await harness(t, idp, { SAML_SCOPE: 'dept.edu' })
const login = () => startLogin(h.app)
const victim = { netid: 'jdoe', affiliation: ['student'] }
const attackerParts = { nameId: 'admin@dept.edu' }

t.test('XSW: the signed assertion moved into Advice of an attacker assertion is rejected', async (t) => {
  const { requestId } = await login()
  const signed = idp.sign(idp.assertionXml({ inResponseTo: requestId }, victim), 'Assertion')
  const evil = idp.assertionXml({ inResponseTo: requestId, ...attackerParts }, { netid: 'admin', affiliation: ['faculty'] })
    .replace('<saml:AttributeStatement>', `<saml:Advice>${signed}</saml:Advice><saml:AttributeStatement>`)
  await expectRejected(t, h, encode(idp.responseXml({ inResponseTo: requestId }, evil)), { message: 'Signature validation failed', reason: /^Invalid signature/ })
  t.equal(await h.app.users.byCampusId('admin'), null, 'no account for the injected identity')
})

t.test('XSW: the signed assertion hidden in Extensions with an attacker assertion beside it is rejected', async (t) => {
  const { requestId } = await login()
  const signed = idp.sign(idp.assertionXml({ inResponseTo: requestId }, victim), 'Assertion')
  const evil = idp.assertionXml({ inResponseTo: requestId, ...attackerParts }, { netid: 'admin' })
  const xml = idp.responseXml({ inResponseTo: requestId }, evil).replace('<samlp:Status>', `<samlp:Extensions>${signed}</samlp:Extensions><samlp:Status>`)
  await expectRejected(t, h, encode(xml), { message: 'Signature validation failed', reason: /^Invalid signature/ })
})

t.test('XSW: an attacker assertion placed before the signed one is rejected (two assertions)', async (t) => {
  const { requestId } = await login()
  const signed = idp.sign(idp.assertionXml({ inResponseTo: requestId }, victim), 'Assertion')
  const evil = idp.assertionXml({ inResponseTo: requestId, ...attackerParts }, { netid: 'admin' })
  await expectRejected(t, h, encode(idp.responseXml({ inResponseTo: requestId }, evil + signed)),
    { message: 'Signature validation failed', reason: /multiple assertions/ })
})

t.test('two signed assertions in one Response are rejected', async (t) => {
  const { requestId } = await login()
  const one = idp.sign(idp.assertionXml({ inResponseTo: requestId }, victim), 'Assertion')
  const two = idp.sign(idp.assertionXml({ inResponseTo: requestId }, { netid: 'other' }), 'Assertion')
  await expectRejected(t, h, encode(idp.responseXml({ inResponseTo: requestId }, one + two)),
    { message: 'Signature validation failed', reason: /multiple assertions/ })
})

t.test('an Assertion plus an EncryptedAssertion is rejected', async (t) => {
  const { requestId } = await login()
  const signed = idp.sign(idp.assertionXml({ inResponseTo: requestId }, victim), 'Assertion')
  const encrypted = '<saml:EncryptedAssertion><xenc:EncryptedData xmlns:xenc="http://www.w3.org/2001/04/xmlenc#"/></saml:EncryptedAssertion>'
  await expectRejected(t, h, encode(idp.responseXml({ inResponseTo: requestId }, signed + encrypted)),
    { message: 'Signature validation failed', reason: /multiple assertions/ })
})

t.test('an unsigned assertion inside a signed Response is rejected', async (t) => {
  const { requestId } = await login()
  const response = idp.sign(idp.responseXml({ inResponseTo: requestId }, idp.assertionXml({ inResponseTo: requestId }, victim)), 'Response')
  t.match(response, /<ds:Signature/, 'the envelope is signed')
  await expectRejected(t, h, encode(response), { message: 'Signature validation failed', reason: /^Invalid signature/ })
})

t.test('a completely unsigned response is rejected', async (t) => {
  const { requestId } = await login()
  await expectRejected(t, h, encode(idp.responseXml({ inResponseTo: requestId }, idp.assertionXml({ inResponseTo: requestId }, victim))),
    { message: 'Signature validation failed', reason: /^Invalid signature/ })
})

t.test('a signed assertion in an unsigned Response is accepted (spec: the envelope need not be signed)', async (t) => {
  const { requestId } = await login()
  await expectAccepted(t, h, idp.signedResponse({ inResponseTo: requestId }, { netid: 'envelope' }))
})

t.test('a signed assertion in a signed Response is accepted', async (t) => {
  const { requestId } = await login()
  await expectAccepted(t, h, encode(idp.sign(idp.signedResponseXml({ inResponseTo: requestId }, { netid: 'bothsigned' }), 'Response')))
})

t.test('changing one character of the NameID, the principal name or an attribute after signing is rejected', async (t) => {
  for (const [from, to] of [['jdoe@dept.edu</saml:NameID>', 'jdof@dept.edu</saml:NameID>'],
    ['>jdoe@dept.edu</saml:AttributeValue>', '>jdof@dept.edu</saml:AttributeValue>'],
    ['>student</saml:AttributeValue>', '>faculty</saml:AttributeValue>']] as const) {
    const { requestId } = await login()
    const xml = idp.signedResponseXml({ inResponseTo: requestId }, victim)
    t.ok(xml.includes(from), `the response holds ${from}`)
    await expectRejected(t, h, encode(xml.replace(from, to)), { message: 'Signature validation failed', reason: /^Invalid signature/ })
  }
})

t.test('comment injection: the principal name is read whole, never truncated at the comment', async (t) => {
  const { requestId } = await login()
  const attributes = [
    { name: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.6', values: ['jdoe<!---->.evil@dept.edu'] },
    { name: 'urn:oid:0.9.2342.19200300.100.1.3', values: ['jdoe.evil@dept.edu'] },
  ]
  const { token } = await expectAccepted(t, h, idp.signedResponse({ inResponseTo: requestId, attributes }))
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())
  t.equal(claims.campusId, 'jdoe.evil', 'the whole name, comment removed')
  t.equal(await h.app.users.byCampusId('jdoe'), null, 'no account for the truncated name')
})

t.test('comment injection: admin@dept.edu<!---->.evil.com is out of scope, not admin@dept.edu', async (t) => {
  const { requestId } = await login()
  const attributes = [
    { name: 'urn:oid:1.3.6.1.4.1.5923.1.1.1.6', values: ['admin@dept.edu<!---->.evil.com'] },
    { name: 'urn:oid:0.9.2342.19200300.100.1.3', values: ['admin@dept.edu.evil.com'] },
  ]
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId, attributes }),
    { message: 'SAML validation failed', reason: /scope dept\.edu\.evil\.com is not accepted/ })
})

t.test('a comment inside DigestValue of a tampered response does not rescue it', async (t) => {
  const { requestId } = await login()
  const xml = idp.signedResponseXml({ inResponseTo: requestId }, victim)
    .replace('jdoe@dept.edu</saml:NameID>', 'admin@dept.edu</saml:NameID>')
    .replace(/<ds:DigestValue>/, '<ds:DigestValue><!--x-->')
  await expectRejected(t, h, encode(xml), { message: 'Signature validation failed', reason: /^Invalid signature/ })
})

t.test('several References in SignedInfo are rejected', async (t) => {
  const { requestId } = await login()
  const signed = idp.signedResponseXml({ inResponseTo: requestId }, victim)
  const digest = /<ds:DigestMethod[^>]*\/><ds:DigestValue>[^<]*<\/ds:DigestValue>/.exec(signed)![0]
  const xml = signed.replace('</ds:Reference>', `</ds:Reference><ds:Reference URI="">${digest}</ds:Reference>`)
  t.equal(xml.match(/<ds:Reference /g)?.length, 2, 'two References')
  await expectRejected(t, h, encode(xml), { message: 'Signature validation failed', reason: /^Invalid signature$/ })
})

t.test('HMAC-SHA1 keyed with the IdP public certificate is rejected', async (t) => {
  const { requestId } = await login()
  const response = idp.signedResponse({ inResponseTo: requestId }, victim,
    { key: idp.keys.certificate, keyInfoCert: null, signatureAlgorithm: algorithms.hmacSha1 })
  await expectRejected(t, h, response, { message: 'Signature validation failed', reason: /hmac-sha1 is not accepted/ })
})

t.test('a signature by another key is rejected, whatever KeyInfo offers', async (t) => {
  const attacker = makeKeyAndCert('Attacker IdP')
  let { requestId } = await login()
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId }, victim, { key: attacker.privateKey, keyInfoCert: attacker.certificate }),
    { message: 'SAML validation failed', reason: /not the configured one/ })
  ;({ requestId } = await login())
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId }, victim, { key: attacker.privateKey, keyInfoCert: null }),
    { message: 'Signature validation failed', reason: /^Invalid signature/ })
  ;({ requestId } = await login())
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId }, victim, { key: attacker.privateKey, keyInfoCert: idp.keys.certificate }),
    { message: 'Signature validation failed', reason: /^Invalid signature/ })
})

t.test('a signature made with an expired certificate is a signature failure (certificate out of date)', async (t) => {
  const expired = makeKeyAndCert('Old IdP key', { notBefore: new Date(Date.now() - 800 * 86_400_000), notAfter: new Date(Date.now() - 400 * 86_400_000) })
  const { requestId } = await login()
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId }, victim, { key: expired.privateKey, keyInfoCert: expired.certificate }),
    { message: 'Signature validation failed', reason: /^Invalid signature/ })
})

t.test('a second element carrying the signed ID is rejected', async (t) => {
  const { requestId } = await login()
  const xml = idp.signedResponseXml({ inResponseTo: requestId }, victim)
  const id = /<saml:Assertion [^>]*ID="([^"]+)"/.exec(xml)![1]
  await expectRejected(t, h, encode(xml.replace('<samlp:Status>', `<samlp:Extensions><saml:Foo ID="${id}"/></samlp:Extensions><samlp:Status>`)),
    { message: 'Signature validation failed', reason: /ID cannot refer to more than one element/ })
})

t.test('a quote in the Reference URI is rejected', async (t) => {
  const { requestId } = await login()
  const xml = idp.signedResponseXml({ inResponseTo: requestId }, victim).replace(/URI="#([^"]+)"/, `URI="#$1' or '1'='1"`)
  await expectRejected(t, h, encode(xml), { message: 'Signature validation failed', reason: /quote/ })
})

t.test('more than two Transforms are rejected', async (t) => {
  const { requestId } = await login()
  const transforms = ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#', 'http://www.w3.org/2001/10/xml-exc-c14n#']
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId }, victim, { transforms }),
    { message: 'Signature validation failed', reason: /too many transforms/ })
})

t.test('several Signatures on the assertion are rejected', async (t) => {
  const { requestId } = await login()
  const xml = idp.signedResponseXml({ inResponseTo: requestId }, victim).replace(/(<ds:Signature[\s\S]*?<\/ds:Signature>)/, '$1$1')
  await expectRejected(t, h, encode(xml), { message: 'Signature validation failed', reason: /Too many signatures/ })
})

t.test('RSA-SHA1 signatures and SHA-1 digests are rejected', async (t) => {
  let { requestId } = await login()
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId }, victim, { signatureAlgorithm: algorithms.rsaSha1, digestAlgorithm: algorithms.sha1 }),
    { message: 'Signature validation failed', reason: /SignatureMethod .*rsa-sha1 is not accepted/ })
  ;({ requestId } = await login())
  await expectRejected(t, h, idp.signedResponse({ inResponseTo: requestId }, victim, { digestAlgorithm: algorithms.sha1 }),
    { message: 'Signature validation failed', reason: /DigestMethod .*#sha1 is not accepted/ })
})
