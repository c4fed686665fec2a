/** Every backup route is for admins alone: other roles get 403, API keys (an admin's too) 403, no credential 401. */
import t from 'tap'
import { listen, send } from '../auth/support.js'
import { backupApp } from './support.js'

const routes = [
  { method: 'POST', url: '/api/admin/backups' },
  { method: 'GET', url: '/api/admin/backups' },
  { method: 'POST', url: '/api/admin/backups/adks-2020-01-01T00-00-00-000Z.backup/verify' },
] as const

t.test('admins only, on every backup route', async (t) => {
  const { app, as, ops } = await backupApp(t)
  const created = await ops({ method: 'POST', url: '/api/api-keys', payload: { name: 'admin key', permissions: ['read_people'] } })
  t.equal(created.statusCode, 201, created.body)
  const key = String(created.json().key)
  const port = await listen(app)
  for (const { method, url } of routes) {
    for (const role of ['faculty', 'staff', 'student', 'user'] as const) {
      const answer = await as(`${role}@dept.example.edu`, role)({ method, url })
      t.same([answer.statusCode, answer.json().code], [403, 'ADKS_PERMISSION_DENIED'], `${method} ${url}: ${role}`)
    }
    const anonymous = await app.inject({ method, url })
    t.same([anonymous.statusCode, anonymous.json().code], [401, 'ADKS_AUTH_REQUIRED'], `${method} ${url}: no credential`)
    const keyed = await send(port, method, url, { 'X-API-Key': key })
    t.same([keyed.status, keyed.json().code], [403, 'ADKS_API_KEY_NOT_ALLOWED'], `${method} ${url}: an admin's API key`)
  }
  t.equal((await app.jobs.list({ queue: 'maintenance', limit: 10, offset: 0 })).total, 0, 'no refused request started a backup')
})
