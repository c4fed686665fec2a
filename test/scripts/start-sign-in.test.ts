import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import t from 'tap'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { tempDir } from '../helpers/temp-dir.js'
import { testActor } from '../helpers/actor.js'

const env = (dataDir: string, extra: Record<string, string> = {}) => ({ NODE_ENV: 'development', LOG_LEVEL: 'warn', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', ...extra })

/** Starts the service as `npm start` does (from source), and gives its output lines up to the sign-in line (or its exit). */
async function startLines(vars: Record<string, string>, started: (child: ChildProcess) => void): Promise<string[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], { env: { ...process.env, ...vars }, stdio: ['ignore', 'pipe', 'inherit'] })
  started(child)
  const lines: string[] = []
  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no sign-in line within 120 s: ${lines.join('\n')}`)), 120_000)
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line)
      if (line.startsWith('Sign in: ')) { clearTimeout(timer); resolve() }
    })
    child.on('exit', () => { clearTimeout(timer); resolve() })
  })
  await done
  return lines
}

t.test('on the embedded defaults without SAML, the service\'s last line is a sign-in link for an admin', async (t) => {
  let child: ChildProcess | undefined
  // The service is stopped, and has closed its store, before its data directory goes.
  const dataDir = await tempDir(t, async () => {
    if (!child || child.exitCode !== null) return
    const exited = new Promise((resolve) => child!.once('exit', resolve))
    child.kill('SIGTERM')
    await exited
  })
  // The store as the sample seed leaves it: an admin among the users.
  const app = await buildApp(loadConfig(env(dataDir)))
  const admin = await app.records.create('User', { email: 'admin@dept.edu', role: 'admin' }, { actor: testActor })
  await app.close()
  const lines = await startLines(env(dataDir, { PUBLIC_URL: 'http://localhost:3999' }), (started) => { child = started })
  const last = lines.at(-1) ?? ''
  t.match(last, /^Sign in: http:\/\/localhost:3999\/auth\/saml-callback\?token=[\w.-]+$/, 'the last line')
  const claims = JSON.parse(Buffer.from(new URL(last.slice('Sign in: '.length)).searchParams.get('token')!.split('.')[1]!, 'base64url').toString())
  t.match(claims, { sub: admin._id, email: 'admin@dept.edu', token_use: 'saml_custom' }, 'for the admin')
})
