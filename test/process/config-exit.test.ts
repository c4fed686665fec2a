import { randomBytes } from 'node:crypto'
import t from 'tap'
import { tempDir } from '../helpers/temp-dir.js'
import { expectStartupFailure, freePort, startServer } from './server-process.js'

/** A secret with enough different characters not to look like a placeholder. */
const goodSecret = 'q7Vw2pLk9ZsX4bNm8RtY3cHj6FdG1aEu'

t.test('a bad setting stops start-up with exit code 1 and one line naming it', async (t) => {
  const cases: [string, Record<string, string>, RegExp][] = [
    ['PORT=abc', { PORT: 'abc' }, /^configuration: PORT is invalid \("abc"\)/],
    ['ID_TOKEN_TTL=forever', { ID_TOKEN_TTL: 'forever' }, /^configuration: ID_TOKEN_TTL is invalid \("forever"\)/],
    ['MONGODB_URL=notaurl', { MONGODB_URL: 'notaurl' }, /^configuration: MONGODB_URL is invalid \("notaurl"\)/],
    ['NODE_ENV=production without JWT_SECRET', { NODE_ENV: 'production' }, /^configuration: JWT_SECRET is required in production/],
    ['NODE_ENV=production without SECRETS_KEY', { NODE_ENV: 'production', JWT_SECRET: goodSecret }, /^configuration: SECRETS_KEY is required in production/],
  ]
  await Promise.all(cases.map(async ([fault, env, line]) => expectStartupFailure(t, fault, { DATA_DIR: await tempDir(t), ...env }, line)))
})

t.test('production starts with a real JWT_SECRET and SECRETS_KEY', async (t) => {
  const env = { PORT: String(await freePort()), DATA_DIR: await tempDir(t), NODE_ENV: 'production', JWT_SECRET: goodSecret, SECRETS_KEY: randomBytes(32).toString('hex') }
  const server = await startServer(t, env)
  t.equal((await fetch(`${server.url}/health`)).status, 200)
})
