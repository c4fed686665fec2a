import { createPublicKey, generateKeyPairSync } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'
import { encodeJwt, validClaims } from './support.js'

function rsaPair() {
  return generateKeyPairSync('rsa', { modulusLength: 2048, publicKeyEncoding: { type: 'spki', format: 'pem' }, privateKeyEncoding: { type: 'pkcs8', format: 'pem' } })
}

/** A key server an attacker would point jku/x5u at; it counts the requests it gets. */
async function keyServer(t: Test, jwks: object) {
  let hits = 0
  const server = createServer((_req, res) => {
    hits++
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify(jwks))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`, hits: () => hits }
}

t.test('with an RS256 key pair, tokens from any other key or algorithm are refused', async (t) => {
  const dir = await tempDir(t)
  const ours = rsaPair()
  const attacker = rsaPair()
  await writeFile(join(dir, 'jwt.key'), ours.privateKey)
  await writeFile(join(dir, 'jwt.pub'), ours.publicKey)
  const { app, config, token } = await buildTestApp(t, { JWT_PRIVATE_KEY_PATH: join(dir, 'jwt.key'), JWT_PUBLIC_KEY_PATH: join(dir, 'jwt.pub') })
  const claims = () => validClaims(config, 'mallory@dept.example.edu', { role_grant: 'admin' })
  const attackerJwk = { ...createPublicKey(attacker.publicKey).export({ format: 'jwk' }), kid: 'evil', use: 'sig', alg: 'RS256' }
  const server = await keyServer(t, { keys: [attackerJwk] })
  const me = (tok: string) => app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization: `Bearer ${tok}` } })

  const issued = await token('ok@dept.example.edu', 'user')
  t.equal(JSON.parse(Buffer.from(issued.split('.')[0]!, 'base64url').toString()).alg, 'RS256', 'the service signs with RS256')
  t.equal((await me(issued)).statusCode, 200, 'control: a token the service issued')
  t.equal((await me(encodeJwt({ alg: 'RS256', typ: 'JWT' }, claims(), { alg: 'RS256', key: ours.privateKey }))).statusCode, 200, 'control: hand-made with our key')

  const spki = createPublicKey(attacker.publicKey).export({ format: 'der', type: 'spki' }).toString('base64')
  const cases: Record<string, string> = {
    'HS256 MACed with our public key': encodeJwt({ alg: 'HS256', typ: 'JWT' }, claims(), { alg: 'HS256', key: ours.publicKey }),
    'HS256 with our public key after whitespace': encodeJwt({ alg: 'HS256' }, claims(), { alg: 'HS256', key: `\n  ${ours.publicKey}` }),
    'HS256 with our public key after a zero-width space': encodeJwt({ alg: 'HS256' }, claims(), { alg: 'HS256', key: `\u200b${ours.publicKey}` }),
    'HS256 with our public key after garbage': encodeJwt({ alg: 'HS256' }, claims(), { alg: 'HS256', key: `garbage${ours.publicKey}` }),
    'HS256 with the DER of our public key': encodeJwt({ alg: 'HS256' }, claims(), { alg: 'HS256', key: createPublicKey(ours.publicKey).export({ format: 'der', type: 'spki' }) }),
    'alg none': encodeJwt({ alg: 'none' }, claims(), { alg: 'none' }),
    'RS256 by another key': encodeJwt({ alg: 'RS256' }, claims(), { alg: 'RS256', key: attacker.privateKey }),
    'another key, embedded as jwk': encodeJwt({ alg: 'RS256', jwk: attackerJwk }, claims(), { alg: 'RS256', key: attacker.privateKey }),
    'another key, fetched by jku': encodeJwt({ alg: 'RS256', jku: server.url, kid: 'evil' }, claims(), { alg: 'RS256', key: attacker.privateKey }),
    'another key, fetched by x5u': encodeJwt({ alg: 'RS256', x5u: server.url }, claims(), { alg: 'RS256', key: attacker.privateKey }),
    'another key, embedded as x5c': encodeJwt({ alg: 'RS256', x5c: [spki] }, claims(), { alg: 'RS256', key: attacker.privateKey }),
    'another key, unknown kid': encodeJwt({ alg: 'RS256', kid: 'rotated-2019' }, claims(), { alg: 'RS256', key: attacker.privateKey }),
    'another key, kid path traversal': encodeJwt({ alg: 'RS256', kid: '../../../../dev/null' }, claims(), { alg: 'RS256', key: attacker.privateKey }),
  }
  for (const [name, tok] of Object.entries(cases)) {
    const res = await me(tok)
    t.equal(res.statusCode, 401, name)
    t.equal(res.json().code, 'ADKS_TOKEN_INVALID', `${name}: code`)
    const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { idToken: tok } })
    t.equal(login.statusCode, 401, `${name}: login`)
  }
  t.equal(server.hits(), 0, 'jku and x5u are never fetched')

  // The header names no key the server uses: our own signature with those headers verifies with our key alone.
  const withHeaders = encodeJwt({ alg: 'RS256', kid: 'unknown', jku: server.url, x5u: server.url, jwk: attackerJwk }, claims(), { alg: 'RS256', key: ours.privateKey })
  t.equal((await me(withHeaders)).statusCode, 200, 'kid, jku, x5u and jwk headers are ignored')
  t.equal(server.hits(), 0)
})

t.test('key files that hold no PEM key, or only one of the pair, stop start-up', async (t) => {
  const dir = await tempDir(t)
  await writeFile(join(dir, 'empty.key'), '')
  await writeFile(join(dir, 'empty.pub'), '')
  const config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dir, JWT_PRIVATE_KEY_PATH: join(dir, 'empty.key'), JWT_PUBLIC_KEY_PATH: join(dir, 'empty.pub') })
  await t.rejects(buildApp(config), /JWT_PRIVATE_KEY_PATH must name a PEM file holding a PRIVATE KEY/)
  t.throws(() => loadConfig({ NODE_ENV: 'test', DATA_DIR: dir, JWT_PRIVATE_KEY_PATH: join(dir, 'empty.key') }), /JWT_PUBLIC_KEY_PATH must be set together/)
})
