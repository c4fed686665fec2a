import { createSigner } from 'fast-jwt'
import t from 'tap'
import { CustomTokens } from '../../src/auth/custom-token.js'
import { signingKeys } from '../../src/auth/keys.js'
import { buildTestApp } from '../helpers/app.js'
import { testActor } from '../helpers/actor.js'

// The custom token: handed to the browser in a URL, so short-lived, single-use, and never a bearer.
const { app, config, token } = await buildTestApp(t)
const keys = await signingKeys(config)
const tokens = new CustomTokens(keys, config, app.oneTime)
const user = await app.users.upsertFromSaml({ netid: 'ctuser', email: 'ctuser@dept.edu', affiliation: ['student'] }, testActor)
const subject = { sub: user._id, email: user.email, role: user.role, campusId: 'ctuser', affiliation: ['student'] }
const exchange = (customToken: unknown) => app.inject({ method: 'POST', url: '/api/auth/token', payload: { customToken } })
const payloadOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString())

t.test('a custom token lives at most 60 s, is addressed to the exchange and carries the custom claims', async (t) => {
  const claims = payloadOf(tokens.issue(subject))
  t.ok(claims.exp - claims.iat <= 60)
  t.equal(claims.aud, `${config.jwt.audience}/auth/token`)
  t.not(claims.aud, config.jwt.audience)
  t.match(claims, { sub: user._id, role: 'student', campusId: 'ctuser', samlAuthenticated: true, affiliation: ['student'], token_use: 'saml_custom' })
})

t.test('it is exchanged once; the second use fails', async (t) => {
  const custom = tokens.issue(subject)
  const first = await exchange(custom)
  t.equal(first.statusCode, 200)
  t.equal(first.headers['cache-control'], 'no-store')
  const second = await exchange(custom)
  t.equal(second.statusCode, 401)
  t.match(second.json().error, /already used/)
  t.equal(second.json().code, 'ADKS_CUSTOM_TOKEN_INVALID')
})

t.test('concurrent exchanges of one token: exactly one succeeds', async (t) => {
  const custom = tokens.issue(subject)
  const answers = await Promise.all(Array.from({ length: 10 }, () => exchange(custom)))
  t.equal(answers.filter((a) => a.statusCode === 200).length, 1)
  t.equal(answers.filter((a) => a.statusCode === 401).length, 9)
})

t.test('it is not accepted as a bearer token, and an ID token is not accepted as a custom token', async (t) => {
  const custom = tokens.issue(subject)
  const asBearer = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${custom}` } })
  t.equal(asBearer.statusCode, 401)
  const idToken = await token('someone@dept.edu', 'admin')
  const asCustom = await exchange(idToken)
  t.equal(asCustom.statusCode, 401)
  t.equal(asCustom.json().code, 'ADKS_CUSTOM_TOKEN_INVALID')
  t.equal((await exchange(custom)).statusCode, 200, 'the refused bearer use did not spend it')
})

t.test('expired, tampered, unsigned and foreign-key tokens are refused with 401', async (t) => {
  const sign = (options: Record<string, unknown>, payload: Record<string, unknown> = {}) => createSigner({
    key: keys.signKey, algorithm: keys.algorithm, iss: config.jwt.issuer, aud: tokens.audience, ...options,
  })({ ...subject, samlAuthenticated: true, token_use: 'saml_custom', jti: `j-${Math.random()}`, ...payload })
  const expired = sign({ expiresIn: 60_000, clockTimestamp: Date.now() - 120_000 })
  const valid = sign({ expiresIn: 60_000 })
  const [head, , signature] = valid.split('.')
  const tampered = `${head}.${Buffer.from(JSON.stringify({ ...payloadOf(valid), role: 'admin' })).toString('base64url')}.${signature}`
  const unsigned = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${valid.split('.')[1]}.`
  const foreign = createSigner({ key: 'another-secret-of-sufficient-length-123456', algorithm: 'HS256', iss: config.jwt.issuer, aud: tokens.audience, expiresIn: 60_000 })(
    { ...subject, samlAuthenticated: true, token_use: 'saml_custom', jti: 'foreign' })
  const noUse = sign({ expiresIn: 60_000 }, { token_use: 'other' })
  for (const [name, jwt] of Object.entries({ expired, tampered, unsigned, foreign, noUse, garbage: 'a.b.c' })) {
    const answer = await exchange(jwt)
    t.equal(answer.statusCode, 401, name)
  }
  t.equal((await exchange(valid)).statusCode, 200, 'the untouched token works')
})

t.test('a token for a user that no longer exists: User not found after SAML login', async (t) => {
  const ghost = tokens.issue({ ...subject, sub: 'User/netid-ghost' })
  const answer = await exchange(ghost)
  t.equal(answer.statusCode, 401)
  t.equal(answer.json().error, 'User not found after SAML login')
  t.equal(answer.json().code, 'ADKS_CUSTOM_TOKEN_INVALID')
})

t.test('a malformed exchange body is a 400 naming the field', async (t) => {
  for (const payload of [{}, { customToken: '' }, { customToken: 5 }, { customToken: 'x', extra: 1 }]) {
    const answer = await app.inject({ method: 'POST', url: '/api/auth/token', payload })
    t.equal(answer.statusCode, 400, JSON.stringify(payload))
    t.match(answer.json().error, /customToken|extra/)
    t.equal(answer.json().code, 'ADKS_VALIDATION_FAILED')
  }
})
