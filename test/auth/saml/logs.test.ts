import t from 'tap'
import { buildSamlApp, frontendRedirect, LogCapture, newIdp, postCallback, startLogin } from './flow.js'
import { encode } from './idp.js'

// No SAMLResponse, assertion, custom token or ID token reaches the log, at the most verbose level,
// on success and on every kind of failure.
t.test('the log stream of a sign-in carries no credential or assertion text', async (t) => {
  const idp = newIdp()
  const logs = new LogCapture()
  const { app } = await buildSamlApp(t, idp, { LOG_LEVEL: 'trace' }, { logStream: logs.stream })
  const secrets: string[] = []

  const login = await startLogin(app, '/people')
  const xml = idp.signedResponseXml({ inResponseTo: login.requestId }, { netid: 'logged', affiliation: ['faculty'] })
  const samlResponse = encode(xml)
  const ok = await postCallback(app, samlResponse, login.relayState)
  const { token } = frontendRedirect(ok).params
  const exchange = await app.inject({ method: 'POST', url: '/api/auth/token', payload: { customToken: token } })
  const { idToken } = exchange.json()
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${idToken}` } })
  t.equal(me.statusCode, 200, 'the whole flow ran')
  await app.inject({ method: 'POST', url: '/api/auth/token', payload: { customToken: token } })
  await app.inject({ method: 'GET', url: `/api/auth/me?token=${idToken}`, headers: { authorization: `Bearer ${token}` } })

  await postCallback(app, samlResponse, login.relayState)
  const tampered = encode(xml.replace('>faculty<', '>student<'))
  await postCallback(app, tampered, 'x'.repeat(20))
  await postCallback(app, encode(`<!DOCTYPE x>${xml}`))
  secrets.push(samlResponse, tampered, token!, idToken, login.relayState)

  const text = logs.lines.join('\n')
  t.ok(logs.lines.length > 10, 'the log was captured')
  t.match(text, /"msg":"SAML sign-in"/)
  t.match(text, /"msg":"SAML sign-in rejected"/)
  for (const secret of secrets) {
    for (const start of [0, Math.floor(secret.length / 2), secret.length - 24]) {
      const piece = secret.slice(start, start + 24)
      t.notOk(text.includes(piece), `no fragment of a credential (${secret.slice(0, 6)}…@${start})`)
    }
  }
  const signatureValue = /<ds:SignatureValue>([^<]{24})/.exec(xml)![1]!
  for (const marker of ['<saml', 'Assertion ', 'AttributeValue', signatureValue, 'logged@dept.edu', idp.keys.certificateBody.slice(0, 40)]) {
    t.notOk(text.includes(marker), `no assertion content (${marker.slice(0, 20)})`)
  }
})
