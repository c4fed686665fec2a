import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import t from 'tap'
import { signInLink } from '../../src/auth/custom-token.js'
import { signingKeys } from '../../src/auth/keys.js'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { buildTestApp } from '../helpers/app.js'

// A sign-in link (npm run token -- --link, docs/web.md): a custom token in the web app's callback URL,
// redeemed once like single sign-on's, but valid 15 minutes.
const { app, config } = await buildTestApp(t, { PUBLIC_URL: 'https://dept.example.edu', FRONTEND_URL: 'https://app.example.edu' })
const keys = await signingKeys(config)
const payloadOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString())
const tokenOf = (link: string) => new URL(link).searchParams.get('token')!
const exchange = (customToken: string) => app.inject({ method: 'POST', url: '/api/auth/token', payload: { customToken } })

t.test('a link leads to the frontend\'s callback, and its token lives 15 minutes', async (t) => {
  const link = signInLink(keys, config, { sub: userIdForEmail('new@dept.edu'), email: 'new@dept.edu', role_grant: 'faculty' })
  t.match(link, /^https:\/\/app\.example\.edu\/auth\/saml-callback\?token=[\w.-]+$/)
  const claims = payloadOf(tokenOf(link))
  t.equal(claims.exp - claims.iat, 900)
  t.equal(claims.aud, `${config.jwt.audience}/auth/token`, 'addressed to the exchange, never a bearer')
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${tokenOf(link)}` } })).statusCode, 401, 'refused as a bearer token')
})

t.test('its token is exchanged once, creating the user with the role it grants; the ID token says it was no SAML sign-in', async (t) => {
  const email = 'linked@dept.edu'
  t.equal(await app.users.byId(userIdForEmail(email)), null, 'no such user yet')
  const token = tokenOf(signInLink(keys, config, { sub: userIdForEmail(email), email, role_grant: 'staff' }))
  const first = await exchange(token)
  t.equal(first.statusCode, 200)
  t.match(first.json().user, { id: userIdForEmail(email), email, role: 'staff', samlAuthenticated: false })
  t.equal(payloadOf(first.json().idToken).samlAuthenticated, false)
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${first.json().idToken}` } })
  t.match(me.json(), { email, role: 'staff' }, 'the ID token works')
  const second = await exchange(token)
  t.equal(second.statusCode, 401)
  t.equal(second.json().code, 'ADKS_CUSTOM_TOKEN_INVALID')
  t.equal(second.json().error, 'This custom token was already used; sign in again')
})

t.test('a link without a role for a user who does not exist is refused', async (t) => {
  const res = await exchange(tokenOf(signInLink(keys, config, { sub: userIdForEmail('nobody@dept.edu'), email: 'nobody@dept.edu' })))
  t.equal(res.statusCode, 401)
})

t.test('npm run token -- EMAIL --role ROLE --link prints the link as its last line', async (t) => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/token.ts', 'Someone@dept.edu', '--role', 'student', '--link'], {
    env: { ...process.env, DATA_DIR: config.dataDir, PUBLIC_URL: 'http://localhost:4321', NODE_ENV: 'test', LOG_LEVEL: 'silent' }, timeout: 60_000,
  })
  const last = stdout.trim().split('\n').at(-1)!
  t.match(last, /^http:\/\/localhost:4321\/auth\/saml-callback\?token=[\w.-]+$/)
  t.match(payloadOf(tokenOf(last)), { email: 'someone@dept.edu', role_grant: 'student', sub: userIdForEmail('someone@dept.edu') })
})
