import { randomBytes } from 'node:crypto'
import t from 'tap'
import { signingKeys } from '../../src/auth/keys.js'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'
import { captureLogs, encodeJwt, validClaims, type Signature } from './support.js'

/**
 * The token checks (docs/auth.md, "What a token is") against the default HS256 configuration: every bad
 * token is a 401 "Invalid or expired token" on the bearer path and on POST /api/auth/login, never a 500.
 */
t.test('bad ID tokens are refused with 401 on every path that takes one', async (t) => {
  const logs = captureLogs()
  const { app, config } = await buildTestApp(t, { LOG_LEVEL: 'trace' }, { logStream: logs.stream })
  const { signKey } = await signingKeys(config)
  const ours: Signature = { alg: 'HS256', key: signKey }
  const header = { alg: 'HS256', typ: 'JWT' }
  const email = 'eve@dept.example.edu'
  const claims = (extra: Record<string, unknown> = {}) => validClaims(config, email, { role_grant: 'admin', ...extra })
  const without = (name: string) => {
    const c = claims()
    delete c[name]
    return c
  }
  const now = Math.floor(Date.now() / 1000)

  // The same claims, well signed, are accepted: each case below fails for its one defect only.
  const good = encodeJwt(header, claims(), ours)
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${good}` } })).statusCode, 200, 'control')

  const cases: Record<string, string> = {
    'alg none': encodeJwt({ alg: 'none', typ: 'JWT' }, claims(), { alg: 'none' }),
    'alg None': encodeJwt({ alg: 'None', typ: 'JWT' }, claims(), { alg: 'none' }),
    'alg none with our signature kept': `${encodeJwt({ alg: 'none' }, claims(), { alg: 'none' })}${good.split('.')[2]}`,
    'signed with another secret': encodeJwt(header, claims(), { alg: 'HS256', key: randomBytes(48) }),
    'HS512 with our secret': encodeJwt({ alg: 'HS512', typ: 'JWT' }, claims(), ours),
    'missing exp': encodeJwt(header, without('exp'), ours),
    'missing iat': encodeJwt(header, without('iat'), ours),
    'missing sub': encodeJwt(header, without('sub'), ours),
    'missing jti': encodeJwt(header, without('jti'), ours),
    'missing iss': encodeJwt(header, without('iss'), ours),
    'missing aud': encodeJwt(header, without('aud'), ours),
    'expired an hour ago': encodeJwt(header, claims({ iat: now - 7200, exp: now - 3600 }), ours),
    'expired beyond the 30 s tolerance': encodeJwt(header, claims({ exp: now - 45 }), ours),
    'nbf in the future': encodeJwt(header, claims({ nbf: now + 120 }), ours),
    'wrong iss': encodeJwt(header, claims({ iss: 'https://evil.example' }), ours),
    'iss array holding ours': encodeJwt(header, claims({ iss: ['https://evil.example', config.jwt.issuer] }), ours),
    'wrong aud': encodeJwt(header, claims({ aud: 'https://evil.example/api' }), ours),
    'unknown crit extension': encodeJwt({ ...header, crit: ['x-evil'], 'x-evil': true }, claims(), ours),
    'kid path traversal, other secret': encodeJwt({ ...header, kid: '../../../dev/null' }, claims(), { alg: 'HS256', key: '' }),
    'kid injection, other secret': encodeJwt({ ...header, kid: "' OR 1=1 --" }, claims(), { alg: 'HS256', key: 'x' }),
    'JSON array payload': encodeJwt(header, [claims()], ours),
    'JSON string payload': encodeJwt(header, 'admin', ours),
    'bad base64 in the payload': `${good.split('.')[0]}.!!!not*base64!!!.${good.split('.')[2]}`,
    'payload not JSON': `${good.split('.')[0]}.${Buffer.from('{"sub":').toString('base64url')}.${good.split('.')[2]}`,
    'two segments': good.split('.').slice(0, 2).join('.'),
    'four segments': `${good}.${good.split('.')[2]}`,
    'garbage': 'garbage',
    'non-ASCII': 'ééé.ééé.ééé',
    '64 KB of garbage': 'A'.repeat(64 * 1024),
    '64 KB token signed with another secret': encodeJwt(header, claims({ pad: 'x'.repeat(64 * 1024) }), { alg: 'HS256', key: randomBytes(48) }),
  }
  for (const [name, token] of Object.entries(cases)) {
    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${token}` } })
    t.equal(me.statusCode, 401, `${name}: bearer`)
    t.equal(me.json().code, 'ADKS_TOKEN_INVALID', `${name}: bearer code`)
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { idToken: token } })
    t.equal(login.statusCode, 401, `${name}: login`)
    t.equal(login.json().code, 'ADKS_TOKEN_INVALID', `${name}: login code`)
  }

  const within = encodeJwt(header, claims({ exp: now - 10 }), ours)
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${within}` } })).statusCode, 200,
    'a token expired 10 s ago is still inside the clock tolerance')

  for (const authorization of ['Basic dXNlcjpwYXNz', 'Bearer', 'Bearer ', good, `Token ${good}`, `Bearer ${good} extra`]) {
    const res = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization } })
    t.equal(res.statusCode, 401, `Authorization: ${authorization.slice(0, 20)}`)
  }

  const leaked = logs.lines.filter((line) => Object.values(cases).some((token) => token.length > 16 && line.includes(token)) || line.includes(good))
  t.same(leaked, [], 'no token reaches the log')
  t.ok(logs.lines.length > 0, 'the log was captured')
})

t.test('a placeholder or short secret stops start-up', async (t) => {
  const dir = await tempDir(t)
  for (const secret of ['x'.repeat(40), 'ab'.repeat(20)]) {
    const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, LOG_LEVEL: 'silent', JWT_SECRET: secret })
    await t.rejects(buildApp(config), /JWT_SECRET looks like a placeholder/, `JWT_SECRET=${secret.slice(0, 6)}...`)
  }
  t.throws(() => loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, JWT_SECRET: 'short' }), /JWT_SECRET/)
  t.throws(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dir }), /JWT_SECRET is required in production/)
})
