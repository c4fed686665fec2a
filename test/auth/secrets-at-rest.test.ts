import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { digest } from '../../src/auth/api-keys/format.js'
import { buildTestApp } from '../helpers/app.js'
import { captureLogs, listen, send } from './support.js'

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true })
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name))
}

/**
 * No secret at rest or in the logs (docs/decisions.md, "Secrets at rest and in logs"), tried as an
 * intruder would, by dumping the store and the logs after creating keys: keys are created, used rightly
 * and wrongly (miscased header, query string, path, as a bearer token), revoked and deleted, with every
 * log line captured; then every file in the data directory and every log line is
 * searched for the keys' secret text and for the tokens used.
 */
t.test('no plaintext key or token is in the store or the logs', async (t) => {
  const logs = captureLogs()
  const { app, config, as, token } = await buildTestApp(t, { LOG_LEVEL: 'trace' }, { logStream: logs.stream })
  const port = await listen(app)
  const faculty = as('ada@dept.example.edu', 'faculty')
  const admin = as('admin@dept.example.edu', 'admin')
  const facultyToken = await token('ada@dept.example.edu', 'faculty')
  const adminToken = await token('admin@dept.example.edu', 'admin')

  const created = []
  for (const [who, permissions] of [[faculty, ['read_courses']], [faculty, ['read_people', 'write_publications']], [admin, ['read_labs', 'write_labs']]] as const) {
    const res = await who({ method: 'POST', url: '/api/api-keys', payload: { name: 'key', permissions } })
    t.equal(res.statusCode, 201)
    created.push(res.json() as { id: string; key: string })
  }
  const [kept, revoked, deleted] = created as [typeof created[0], typeof created[0], typeof created[0]]

  for (const { key } of created) {
    t.equal((await send(port, 'GET', '/api/courses', { 'X-API-Key': key })).status < 500, true)
    await send(port, 'GET', '/api/courses', { 'x-api-key': key })
    await send(port, 'GET', `/api/courses?api_key=${key}&k=${key}`)
    await send(port, 'GET', `/api/people/${key}`)
    await send(port, 'GET', `/api/people/${key}`, { 'X-API-Key': key })
    await send(port, 'GET', '/api/auth/me', { Authorization: `Bearer ${key}` })
    await send(port, 'GET', '/api/courses', { 'X-API-Key': key, Authorization: `Bearer ${facultyToken}` })
    await send(port, 'POST', '/api/auth/login', {}, { idToken: key })
  }
  await send(port, 'GET', `/api/auth/me?token=${facultyToken}`)
  await send(port, 'GET', `/api/auth/me/${adminToken}`)
  await send(port, 'POST', '/api/auth/login', {}, { idToken: facultyToken })
  await faculty({ method: 'POST', url: `/api/api-keys/${encodeURIComponent(revoked.id)}/revoke` })
  await admin({ method: 'POST', url: `/api/api-keys/${encodeURIComponent(deleted.id)}/revoke` })
  await admin({ method: 'DELETE', url: `/api/api-keys/${encodeURIComponent(deleted.id)}` })
  await send(port, 'GET', '/api/courses', { 'X-API-Key': revoked.key })
  t.equal((await faculty({ method: 'GET', url: `/api/api-keys/${encodeURIComponent(kept.id)}/usage` })).json().total, 1, 'its one permitted use was logged')
  await app.close()

  const files = await filesUnder(config.dataDir)
  const stored = await Promise.all(files.map(async (file) => ({ file, text: await readFile(file, 'latin1') })))
  t.ok(stored.some((f) => f.file.endsWith('adks.sqlite') && f.text.includes(digest(kept.key))), 'the search reads the files the keys live in')
  t.ok(logs.lines.some((line) => line.includes('/api/courses')), 'and the log of the requests made')

  const secrets = [
    ...created.flatMap(({ key }) => [['key', key], ['key secret', key.slice(12)]]),
    ['faculty token', facultyToken], ['admin token', adminToken], ['token signature', facultyToken.split('.')[2]!],
  ]
  for (const [what, secret] of secrets) {
    t.same(stored.filter((f) => f.text.includes(secret!)).map((f) => f.file), [], `no ${what} in the store`)
    t.same(logs.lines.filter((line) => line.includes(secret!)), [], `no ${what} in the log`)
  }
})
