import t from 'tap'
import { ConfigError, loadConfig } from '../../src/config.js'

t.test('every variable is checked, and the error names it', async (t) => {
  const bad: Record<string, string[]> = {
    PORT: ['abc', '3000.5', '1e3', '0x10', '-1', '65536'],
    NODE_ENV: ['staging'],
    PUBLIC_URL: ['localhost:3000', 'ftp://host'],
    FRONTEND_URL: ['not a url'],
    MONGODB_URL: ['notaurl'],
    MONGODB_DB: ['has space', 'a/b'],
    REDIS_URL: ['localhost:6379'],
    JWT_SECRET: ['too-short'],
    SECRETS_KEY: ['c2hvcnQ=', 'a'.repeat(63), 'a'.repeat(66), '!'.repeat(44)],
    ID_TOKEN_TTL: ['forever', '1w', '-5m'],
    BODY_LIMIT: ['10', 'lots'],
    SHUTDOWN_GRACE_MS: ['-1', 'soon'],
    LOG_LEVEL: ['loud'],
  }
  for (const [variable, values] of Object.entries(bad)) {
    for (const value of values) {
      const error = (() => { try { loadConfig({ [variable]: value }) } catch (e) { return e } })()
      t.type(error, ConfigError, `${variable}=${value} is refused`)
      t.equal((error as ConfigError).variable, variable, `${variable}=${value}: the error names ${variable}`)
      t.match((error as Error).message, new RegExp(`^configuration: ${variable} `))
    }
  }
  const paired = (() => { try { loadConfig({ JWT_PRIVATE_KEY_PATH: '/keys/private.pem' }) } catch (e) { return e } })()
  t.equal((paired as ConfigError).variable, 'JWT_PUBLIC_KEY_PATH', 'a key path without its pair names the missing one')
  const config = loadConfig({ PORT: '8080', ID_TOKEN_TTL: '15m', BODY_LIMIT: '2048', PUBLIC_URL: 'https://dept.example.edu/' })
  t.match(config, { port: 8080, publicUrl: 'https://dept.example.edu', bodyLimit: 2048, jwt: { ttlSeconds: 900 } }, 'good values are read')
  const key = Buffer.from('0123456789abcdef0123456789abcdef')
  for (const written of [key.toString('hex'), key.toString('base64'), key.toString('base64url')]) {
    t.same(loadConfig({ SECRETS_KEY: written }).secretsKey, key, `SECRETS_KEY=${written} is the 32-byte key`)
  }
  const short = (() => { try { loadConfig({ SECRETS_KEY: 'c2hvcnQ=' }) } catch (e) { return e } })()
  t.notMatch((short as Error).message, /c2hvcnQ/, 'a refused SECRETS_KEY is not echoed')
})
