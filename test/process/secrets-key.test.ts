import { randomBytes } from 'node:crypto'
import t from 'tap'
import { tempDir } from '../helpers/temp-dir.js'
import { expectStartupFailure, freePort, mintToken, startServer } from './server-process.js'

const cannotDecrypt = /^configuration: SECRETS_KEY cannot decrypt the stored campus-sync client secret/

t.test('a SECRETS_KEY that cannot open the stored client secret stops start-up, naming it', async (t) => {
  const key = randomBytes(32).toString('base64')
  const env = { PORT: String(await freePort()), DATA_DIR: await tempDir(t), SECRETS_KEY: key }
  const token = await mintToken(env, 'ops@dept.example.edu', 'admin')
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  let server = await startServer(t, env)
  const put = await fetch(`${server.url}/api/campus-sync/config`, {
    method: 'PUT', headers, body: JSON.stringify({ source: { type: 'oneroster-rest', url: 'http://127.0.0.1:9/oneroster', client_id: 'cid', client_secret: 's3cret' } }),
  })
  t.equal(put.status, 200)
  server.child.kill('SIGTERM')
  t.same(await server.exited, { code: 0, signal: null })

  await expectStartupFailure(t, 'another SECRETS_KEY', { DATA_DIR: env.DATA_DIR, SECRETS_KEY: randomBytes(32).toString('hex') }, cannotDecrypt)
  await expectStartupFailure(t, 'no SECRETS_KEY (the one generated into DATA_DIR is another)', { DATA_DIR: env.DATA_DIR }, cannotDecrypt)

  server = await startServer(t, env)
  const config = await fetch(`${server.url}/api/campus-sync/config`, { headers })
  t.match(await config.json(), { source: { client_id: 'cid', client_secret: 'set' } }, 'the key it was stored under starts the service again')
})
