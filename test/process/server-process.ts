import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { Test } from 'tap'
import { signingKeys } from '../../src/auth/keys.js'
import type { Role } from '../../src/auth/permissions.js'
import { signIdToken, userIdForEmail } from '../../src/auth/tokens.js'
import { loadConfig } from '../../src/config.js'

export const projectRoot = fileURLToPath(new URL('../../', import.meta.url))

export interface Exit {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
}

export interface ServerProcess {
  readonly child: ChildProcess
  readonly url: string
  readonly exited: Promise<Exit>
  /** Everything written to standard error so far. */
  stderr(): string
  stdout(): string
}

/** A port that was free a moment ago: the server is told it, since PORT=0 could not be read from outside. */
export async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

/** Runs `src/server.ts` as its own process with the given environment (on top of a bare one). */
export function runServer(t: Test, env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', NODE_ENV: 'test', LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => { stdout += chunk.toString() })
  child.stderr!.on('data', (chunk: Buffer) => { stderr += chunk.toString() })
  const exited = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL')
      await exited
    }
  })
  return { child, url: `http://127.0.0.1:${env.PORT ?? 3000}`, exited, stderr: () => stderr, stdout: () => stdout }
}

/** Starts the server and waits until /health answers; fails with its output if it exits first. */
export async function startServer(t: Test, env: Record<string, string> & { PORT: string; DATA_DIR: string }): Promise<ServerProcess> {
  const server = runServer(t, env)
  const deadline = Date.now() + 60_000
  let exit: Exit | undefined
  void server.exited.then((e) => { exit = e })
  while (Date.now() < deadline) {
    if (exit) throw new Error(`the server exited (${JSON.stringify(exit)}) before it was ready:\n${server.stderr()}${server.stdout()}`)
    try {
      if ((await fetch(`${server.url}/health`)).ok) return server
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`the server did not answer /health within 60 s:\n${server.stderr()}`)
}

/** An ID token the server will accept: signed with the key in the same data directory, for the same port. */
export async function mintToken(env: { PORT: string; DATA_DIR: string }, email: string, role: Role): Promise<string> {
  const config = loadConfig({ NODE_ENV: 'test', ...env })
  return signIdToken(await signingKeys(config), config, { sub: userIdForEmail(email), email, role_grant: role })
}

/** Runs the server with a fault in its environment and checks it stops: exit 1, one stderr line, never listening. */
export async function expectStartupFailure(t: Test, fault: string, env: Record<string, string>, line: RegExp): Promise<void> {
  const server = runServer(t, { PORT: String(await freePort()), ...env })
  const exit = await server.exited
  const lines = server.stderr().trim().split('\n')
  t.same(exit, { code: 1, signal: null }, `${fault}: exit code 1`)
  t.equal(lines.length, 1, `${fault}: one line on stderr: ${server.stderr()}`)
  t.match(lines[0], line, `${fault}: the line names the setting`)
  t.notMatch(server.stdout(), /listening/i, `${fault}: the server never listened`)
}
