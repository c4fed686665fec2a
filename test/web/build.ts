import { execFile } from 'node:child_process'
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'

const root = fileURLToPath(new URL('../../', import.meta.url))
export const webDir = join(root, 'dist/web')
const lock = join(root, 'dist/.web-build.lock')
// src/domain: the pure functions the web app shares with the server (web/src imports them).
const sources = ['web/src', 'src/domain', 'web/index.html', 'web/vite.config.ts', 'web/compress.ts', 'web/package.json']
/** A lock older than this was left by a build that died; a build takes well under a minute. */
const staleLockMs = 10 * 60_000
const waitMs = 10 * 60_000

async function newest(path: string): Promise<number> {
  const info = await stat(path)
  if (!info.isDirectory()) return info.mtimeMs
  const entries = await readdir(path, { recursive: true, withFileTypes: true })
  const times = await Promise.all(entries.filter((e) => e.isFile()).map(async (e) => (await stat(join(e.parentPath, e.name))).mtimeMs))
  return Math.max(info.mtimeMs, ...times)
}

async function fresh(): Promise<boolean> {
  const built = await stat(join(webDir, 'index.html')).then((s) => s.mtimeMs, () => 0)
  if (!built) return false
  const changed = Math.max(...await Promise.all(sources.map((s) => newest(join(root, s)))))
  return built >= changed
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Builds dist/web when it is missing or older than the app's sources, once for all the test processes
 * tap runs side by side: the first takes the lock (an exclusive mkdir) and builds into a directory of
 * its own that replaces dist/web whole; the others wait for the lock to go and find it fresh.
 */
export async function ensureWebBuilt(): Promise<string> {
  const deadline = Date.now() + waitMs
  while (!await fresh()) {
    if (Date.now() > deadline) throw new Error(`dist/web was not built within ${waitMs / 1000} s (lock ${lock})`)
    await mkdir(join(root, 'dist'), { recursive: true })
    const taken = await mkdir(lock).then(() => true, () => false)
    if (!taken) {
      const age = await stat(lock).then((s) => Date.now() - s.mtimeMs, () => 0)
      if (age > staleLockMs) await rm(lock, { recursive: true, force: true })
      await sleep(500)
      continue
    }
    try {
      if (await fresh()) break
      const out = join(root, `dist/web.build-${process.pid}`)
      await promisify(execFile)(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--config', 'web/vite.config.ts', '--logLevel', 'warn'], {
        cwd: root, env: { ...process.env, WEB_OUT_DIR: out }, timeout: waitMs,
      })
      await rm(webDir, { recursive: true, force: true })
      await rename(out, webDir)
    } finally {
      await rm(lock, { recursive: true, force: true })
    }
  }
  return webDir
}
