import { ValidateInResponseTo } from '@node-saml/node-saml'
import t from 'tap'
import { roleAfterSignIn, roleFromAffiliation } from '../../../src/auth/saml/roles.js'
import { samlOptions } from '../../../src/auth/saml/options.js'
import { checkAlgorithms, checkDestination, decodeResponse } from '../../../src/auth/saml/raw-checks.js'
import { safeReturnTo } from '../../../src/auth/saml/return-to.js'
import { requestIdCache, MemorySignInState } from '../../../src/auth/saml/state.js'
import { loadConfig } from '../../../src/config.js'
import { makeKeyAndCert } from './cert.js'

const idpCert = makeKeyAndCert('Unit IdP')
const samlVars = { SAML_IDP_SSO_URL: 'https://idp.dept.edu/sso', SAML_IDP_CERT: idpCert.certificate }

t.test('safeReturnTo keeps same-site paths and replaces everything else with /dashboard', async (t) => {
  const kept = ['/', '/courses', '/people/Faculty%2Fjsmith', '/search?q=a%20b&x=1', '/a#frag', '/path/with:colon']
  for (const path of kept) t.equal(safeReturnTo(path), path, path)
  const refused = [undefined, null, 42, ['/x'], '', 'courses', 'https://evil.tld', 'http://evil.tld/x', '//evil.tld', '///evil.tld',
    '/\\evil.tld', '\\\\evil.tld', '%2F%2Fevil.tld', '/%2F/evil.tld', '/%2f%2fevil.tld', '/%5Cevil.tld', 'javascript:alert(1)',
    'JaVaScRiPt:alert(1)', 'data:text/html,x', '/ok\r\nLocation: https://evil.tld', '/ok\nx', '/\t/evil.tld', '/ok\u0000', '/%0d%0aX: y',
    '/%E0%A4%A', `/${'a'.repeat(600)}`]
  for (const value of refused) t.equal(safeReturnTo(value), '/dashboard', JSON.stringify(value))
  t.equal(safeReturnTo('/a/../b'), '/b', 'normalised')
})

t.test('the role mapping table, and admin never from SAML', async (t) => {
  const table: Array<[string[], string]> = [
    [['faculty'], 'faculty'], [['employee'], 'faculty'], [['staff'], 'staff'], [['student'], 'student'], [['alum'], 'user'],
    [['none'], 'user'], [[], 'user'], [['member'], 'user'], [['admin'], 'user'], [['student', 'employee'], 'faculty'],
    [['alum', 'student'], 'student'], [['staff', 'faculty'], 'faculty'], [['__proto__'], 'user'], [['constructor'], 'user'],
  ]
  for (const [affiliation, role] of table) t.equal(roleFromAffiliation(affiliation), role, `[${affiliation.join(', ')}]`)
  t.equal(roleAfterSignIn('admin', 'student'), 'admin')
  t.equal(roleAfterSignIn('faculty', 'student'), 'student')
  t.equal(roleAfterSignIn(undefined, 'staff'), 'staff')
})

t.test('algorithm check: only SHA-256/512 signature and digest methods pass, however the tags are written', async (t) => {
  const sig = (method: string, digest: string, extra = '') =>
    `<ds:SignedInfo><ds:SignatureMethod${extra} Algorithm="${method}"/><ds:Reference><ds:DigestMethod Algorithm="${digest}"/></ds:Reference></ds:SignedInfo>`
  const good = ['http://www.w3.org/2001/04/xmldsig-more#rsa-sha256', 'http://www.w3.org/2001/04/xmlenc#sha256'] as const
  t.doesNotThrow(() => checkAlgorithms(sig(...good)))
  t.doesNotThrow(() => checkAlgorithms(sig(good[0], good[1], ' Id="x>y"')), 'a > inside a quoted value')
  t.doesNotThrow(() => checkAlgorithms(sig(good[0].replace('sha256', '&#x73;ha256'), good[1])), 'a character reference decodes')
  t.doesNotThrow(() => checkAlgorithms(`<!-- <ds:DigestMethod Algorithm="http://www.w3.org/2000/09/xmldsig#sha1"/> -->${sig(...good)}`), 'comments hold no elements')
  t.throws(() => checkAlgorithms(sig('http://www.w3.org/2000/09/xmldsig#rsa-sha1', good[1])))
  t.throws(() => checkAlgorithms(sig(good[0], 'http://www.w3.org/2000/09/xmldsig#sha1')))
  t.throws(() => checkAlgorithms(sig(good[0].replace('sha256', '&#x73;ha1'), good[1])), 'an encoded sha1 is still sha1')
  t.throws(() => checkAlgorithms('<SignatureMethod Algorithm=http://unquoted/>'), 'an unreadable tag is refused')
  t.throws(() => checkAlgorithms('<ds:SignatureMethod/>'), 'a method without Algorithm is refused')
})

t.test('raw checks: Destination, root element, DOCTYPE, base64', async (t) => {
  const acs = 'https://sp/acs?x=1&y=2'
  t.doesNotThrow(() => checkDestination('<?xml version="1.0"?><!-- c --><samlp:Response Destination="https://sp/acs?x=1&amp;y=2"/>', acs))
  t.doesNotThrow(() => checkDestination('<Response ID="1"></Response>', acs))
  t.throws(() => checkDestination('<samlp:Response Destination="https://sp/other"/>', acs))
  t.throws(() => checkDestination('<samlp:LogoutResponse Destination="https://sp/acs"/>', acs))
  t.throws(() => decodeResponse(Buffer.from('<!DOCTYPE x><x/>').toString('base64')))
  t.throws(() => decodeResponse(Buffer.from('<?xml version="1.0"?><!ENTITY x "y"><x/>').toString('base64')))
  t.throws(() => decodeResponse('not base64!'))
  t.equal(decodeResponse(Buffer.from('<x/>').toString('base64')), '<x/>')
})

t.test('node-saml is configured with every security switch stated', async (t) => {
  const config = loadConfig({ NODE_ENV: 'test', PUBLIC_URL: 'https://sp.dept.edu', ...samlVars, SAML_IDP_ENTITY_ID: 'https://idp.dept.edu' })
  const options = samlOptions(config.saml!, requestIdCache(new MemorySignInState(), 1000))
  t.match(options, {
    issuer: 'https://sp.dept.edu',
    audience: 'https://sp.dept.edu',
    callbackUrl: 'https://sp.dept.edu/api/auth/saml/callback',
    entryPoint: 'https://idp.dept.edu/sso',
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    validateInResponseTo: ValidateInResponseTo.always,
    acceptedClockSkewMs: 120_000,
    signatureAlgorithm: 'sha256',
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified',
    idpIssuer: 'https://idp.dept.edu',
  })
  t.ok(options.maxAssertionAgeMs! > 0 && options.maxAssertionAgeMs! <= 600_000, 'a maximum assertion age is set')
  t.ok(options.requestIdExpirationPeriodMs! <= 600_000, 'request ids expire within 10 minutes')
  t.notOk('privateKey' in options, 'no signing key unless configured')
})

t.test('SAML configuration: defaults from PUBLIC_URL, pairs required, certificates checked', async (t) => {
  const base = { NODE_ENV: 'test', PUBLIC_URL: 'https://sp.dept.edu' }
  t.equal(loadConfig(base).saml, undefined, 'no IdP, no SAML')
  const saml = loadConfig({ ...base, ...samlVars, SAML_SCOPE: 'Dept.edu, cs.dept.edu', REDIS_PREFIX: 'x:' })
  t.match(saml.saml, { entityId: 'https://sp.dept.edu', callbackUrl: 'https://sp.dept.edu/api/auth/saml/callback', scopes: ['dept.edu', 'cs.dept.edu'] })
  t.equal(saml.redisPrefix, 'x:')
  t.equal(loadConfig(base).redisPrefix, 'adks:')
  t.equal(loadConfig({ ...base, ...samlVars, SAML_IDP_CERT: idpCert.certificateBody }).saml!.idpCerts.length, 1, 'a bare base64 body is accepted')
  t.equal(loadConfig({ ...base, ...samlVars, SAML_IDP_CERT: idpCert.certificate.replace(/\n/g, '\\n') }).saml!.idpCerts.length, 1, 'escaped newlines are accepted')
  const rotated = loadConfig({ ...base, ...samlVars, SAML_IDP_CERT: idpCert.certificate + makeKeyAndCert('Next IdP').certificate })
  t.equal(rotated.saml!.idpCerts.length, 2, 'two certificates while the IdP rotates keys')
  const failures: Array<[Record<string, string>, RegExp]> = [
    [{ SAML_IDP_SSO_URL: samlVars.SAML_IDP_SSO_URL }, /SAML_IDP_CERT is required/],
    [{ SAML_IDP_CERT: samlVars.SAML_IDP_CERT }, /SAML_IDP_SSO_URL is required/],
    [{ ...samlVars, SAML_IDP_CERT: 'not a certificate!' }, /SAML_IDP_CERT is not a PEM certificate/],
    [{ ...samlVars, SAML_IDP_CERT: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----' }, /SAML_IDP_CERT does not parse/],
    [{ ...samlVars, SAML_IDP_SSO_URL: 'ftp://idp' }, /SAML_IDP_SSO_URL is invalid/],
    [{ ...samlVars, SAML_KEY_PATH: '/tmp/k.pem' }, /SAML_CERT_PATH must be set together/],
    [{ ...samlVars, SAML_SCOPE: 'a b' }, /SAML_SCOPE is invalid/],
  ]
  for (const [vars, message] of failures) {
    t.throws(() => loadConfig({ ...base, ...vars }), { name: 'ConfigError', message }, String(message))
  }
})
