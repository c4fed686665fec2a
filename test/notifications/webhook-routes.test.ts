import t from 'tap'
import { SecretBox } from '../../src/auth/secret-box.js'
import { webhooksCollection } from '../../src/notifications/collections.js'
import type { WebhookRecord } from '../../src/notifications/webhooks/records.js'
import { listen, send } from '../auth/support.js'
import { workflowDepartment } from '../workflows/support.js'

const secretShape = /^whsec_[A-Za-z0-9+/]{43}=$/

t.test('admins create, read, change and delete webhooks; the secret is answered at creation and rotation only', async (t) => {
  const { app, http } = await workflowDepartment(t, { WEBHOOK_ALLOW_PRIVATE: 'true' })
  const admin = http('admin')
  const created = await admin({ method: 'POST', url: '/api/webhooks', payload: { url: 'http://127.0.0.1:9/in', events: ['workflow.submitted', 'workflow.approved'], description: 'Registrar' } })
  t.equal(created.statusCode, 201)
  const hook = created.json()
  t.match(hook, { url: 'http://127.0.0.1:9/in', events: ['workflow.submitted', 'workflow.approved'], description: 'Registrar', active: true, consecutive_failures: 0, disabled_reason: null, previous_secret_expires_at: null })
  t.match(hook.secret, secretShape, 'whsec_ and base64 of 32 random bytes')

  const stored = await app.store.collection<WebhookRecord>(webhooksCollection).findById(hook._id)
  t.ok(stored && SecretBox.isSealed(stored.secret), 'stored sealed')
  t.notMatch(JSON.stringify(stored), hook.secret.slice(6), 'never in clear in the store')

  const list = await admin({ method: 'GET', url: '/api/webhooks' })
  t.equal(list.statusCode, 200)
  t.match(list.json(), { total: 1, limit: 50, offset: 0, items: [{ _id: hook._id, url: hook.url }] })
  const one = await admin({ method: 'GET', url: `/api/webhooks/${hook._id}` })
  t.equal(one.statusCode, 200)
  for (const body of [list.body, one.body]) {
    t.notMatch(body, /secret"|whsec_|sealed:/, 'no secret in a GET answer')
    t.notMatch(body, hook.secret.slice(6, 20))
  }

  const changed = await admin({ method: 'PUT', url: `/api/webhooks/${hook._id}`, payload: { url: 'http://127.0.0.1:9/other', events: ['workflow.rejected'] } })
  t.equal(changed.statusCode, 200)
  t.match(changed.json(), { url: 'http://127.0.0.1:9/other', events: ['workflow.rejected'], description: 'Registrar', active: true }, 'left-out description and active keep their values')
  t.notOk('secret' in changed.json())
  const off = await admin({ method: 'PUT', url: `/api/webhooks/${hook._id}`, payload: { url: 'http://127.0.0.1:9/other', events: ['workflow.rejected'], active: false, description: '' } })
  t.match(off.json(), { active: false, description: '', disabled_reason: null }, 'an admin turning it off is not a disabling')

  const rotating = Date.now()
  const rotated = await admin({ method: 'POST', url: `/api/webhooks/${hook._id}/rotate-secret` })
  t.equal(rotated.statusCode, 200)
  t.match(rotated.json().secret, secretShape)
  t.not(rotated.json().secret, hook.secret, 'a new secret')
  const expires = Date.parse(rotated.json().previous_secret_expires_at)
  t.ok(expires >= rotating + 24 * 3600_000 && expires <= Date.now() + 24 * 3600_000, 'the old one signs beside it for 24 hours')
  t.notMatch((await admin({ method: 'GET', url: `/api/webhooks/${hook._id}` })).body, /whsec_/, 'not shown again')

  const deliveries = await admin({ method: 'GET', url: `/api/webhooks/${hook._id}/deliveries` })
  t.equal(deliveries.statusCode, 200)
  t.same(deliveries.json(), { items: [], total: 0, limit: 50, offset: 0 })

  const deleted = await admin({ method: 'DELETE', url: `/api/webhooks/${hook._id}` })
  t.equal(deleted.statusCode, 204)
  t.equal(deleted.body, '')
  t.equal((await admin({ method: 'GET', url: `/api/webhooks/${hook._id}` })).statusCode, 404)
  t.equal((await admin({ method: 'DELETE', url: `/api/webhooks/${hook._id}` })).statusCode, 404)
  t.equal((await admin({ method: 'GET', url: `/api/webhooks/${hook._id}/deliveries` })).statusCode, 404)
  t.equal((await admin({ method: 'POST', url: `/api/webhooks/${hook._id}/deliveries/abc/redeliver` })).statusCode, 404)
})

t.test('bad input is a 400 naming the problem', async (t) => {
  const { http } = await workflowDepartment(t, { WEBHOOK_ALLOW_PRIVATE: 'true' })
  const admin = http('admin')
  const post = (payload: object) => admin({ method: 'POST', url: '/api/webhooks', payload })
  const unknown = await post({ url: 'http://127.0.0.1:9/', events: ['workflow.submitted', 'workflow.exploded'] })
  t.equal(unknown.statusCode, 400)
  t.match(unknown.json(), { code: 'ADKS_VALIDATION_FAILED', error: /^Unknown event type workflow\.exploded; the types are workflow\.submitted, / })
  t.equal((await post({ url: 'http://127.0.0.1:9/', events: [] })).statusCode, 400, 'no events')
  t.equal((await post({ url: 'http://127.0.0.1:9/', events: ['workflow.submitted'], secret: 'whsec_mine' })).statusCode, 400, 'unknown fields refused')
  const scheme = await post({ url: 'ftp://127.0.0.1/', events: ['workflow.submitted'] })
  t.match(scheme.json(), { statusCode: 400, error: 'Webhook URL ftp://127.0.0.1/ is refused: only http and https URLs are allowed' })
  t.equal((await post({ url: 'http://127.0.0.1:9/', events: ['workflow.submitted'], active: 'yes' })).statusCode, 400)
  t.equal((await admin({ method: 'GET', url: '/api/webhooks?limit=0' })).statusCode, 400)
  t.equal((await admin({ method: 'GET', url: '/api/webhooks/not%20an%20id' })).statusCode, 400)
})

t.test('only admins, and never through an API key', async (t) => {
  const { app, http } = await workflowDepartment(t, { WEBHOOK_ALLOW_PRIVATE: 'true' })
  const hook = (await http('admin')({ method: 'POST', url: '/api/webhooks', payload: { url: 'http://127.0.0.1:9/', events: ['job.failed'] } })).json()
  const routes = [
    { method: 'POST', url: '/api/webhooks', payload: { url: 'http://127.0.0.1:9/', events: ['job.failed'] } },
    { method: 'GET', url: '/api/webhooks' },
    { method: 'GET', url: `/api/webhooks/${hook._id}` },
    { method: 'PUT', url: `/api/webhooks/${hook._id}`, payload: { url: 'http://127.0.0.1:9/', events: ['job.failed'] } },
    { method: 'DELETE', url: `/api/webhooks/${hook._id}` },
    { method: 'POST', url: `/api/webhooks/${hook._id}/rotate-secret` },
    { method: 'GET', url: `/api/webhooks/${hook._id}/deliveries` },
    { method: 'POST', url: `/api/webhooks/${hook._id}/deliveries/abc/redeliver` },
  ] as const
  for (const who of ['fay', 'stu', 'una'] as const) {
    for (const route of routes) {
      const answer = await http(who)(route)
      t.equal(answer.statusCode, 403, `${who}: ${route.method} ${route.url}`)
      t.equal(answer.json().code, 'ADKS_PERMISSION_DENIED')
    }
  }
  const issued = await http('admin')({ method: 'POST', url: '/api/api-keys', payload: { name: 'k', permissions: ['read_courses', 'write_publications'] } })
  t.equal(issued.statusCode, 201, 'an admin holds an API key')
  const key = issued.json().key as string
  // Over real HTTP: inject lower-cases header names, and only X-API-Key spelled so is a key.
  const port = await listen(app)
  for (const route of routes) {
    const answer = await send(port, route.method, route.url, { 'X-API-Key': key }, 'payload' in route ? route.payload : undefined)
    t.equal(answer.status, 403, `an admin's API key: ${route.method} ${route.url}`)
    t.equal(answer.json().code, 'ADKS_API_KEY_NOT_ALLOWED')
  }
  t.equal((await http('admin')({ method: 'GET', url: `/api/webhooks/${hook._id}` })).statusCode, 200, 'the webhook is untouched')
})

t.test('without WEBHOOK_ALLOW_PRIVATE, URLs reaching inside are refused at creation and on change, naming the URL', async (t) => {
  const { http } = await workflowDepartment(t)
  const admin = http('admin')
  const post = (url: string) => admin({ method: 'POST', url: '/api/webhooks', payload: { url, events: ['workflow.submitted'] } })
  const refused: [string, RegExp][] = [
    ['http://127.0.0.1:8080/hook', /127\.0\.0\.1 is a loopback address/],
    ['http://[::1]/hook', /::1 is a loopback address/],
    ['http://[::ffff:127.0.0.1]/hook', /a loopback address|non-canonical/],
    ['http://0.0.0.0/', /an unspecified address/],
    ['http://10.1.2.3/hook', /a private address/],
    ['http://172.16.0.1/hook', /a private address/],
    ['https://192.168.1.10/hook', /a private address/],
    ['http://[fd00::1]/hook', /a private address/],
    ['http://169.254.169.254/latest/meta-data/', /a link-local address/],
    ['http://[fe80::1]/hook', /a link-local address/],
    ['http://2130706433/', /non-canonical/],
    ['http://0x7f.1/', /non-canonical/],
    ['http://127.1/', /non-canonical/],
    ['http://localhost:8080/hook', /its host resolves to (127\.0\.0\.1|::1), a loopback address/],
  ]
  for (const [url, reason] of refused) {
    const answer = await post(url)
    t.equal(answer.statusCode, 400, url)
    t.equal(answer.json().code, 'ADKS_VALIDATION_FAILED')
    t.ok(answer.json().error.startsWith(`Webhook URL ${url} is refused: `), `${url}: named`)
    t.match(answer.json().error, reason, `${url}: why`)
  }
  t.same((await admin({ method: 'GET', url: '/api/webhooks' })).json().total, 0, 'none was stored')

  const ok = await post('http://93.184.215.14/hook')
  t.equal(ok.statusCode, 201, 'a public address is accepted')
  const change = await admin({ method: 'PUT', url: `/api/webhooks/${ok.json()._id}`, payload: { url: 'http://192.168.0.5/hook', events: ['workflow.submitted'] } })
  t.equal(change.statusCode, 400, 'a change is checked again')
  t.match(change.json().error, 'Webhook URL http://192.168.0.5/hook is refused')
  t.equal((await admin({ method: 'GET', url: `/api/webhooks/${ok.json()._id}` })).json().url, 'http://93.184.215.14/hook', 'and not applied')
})
