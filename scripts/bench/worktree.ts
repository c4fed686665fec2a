import { mkdtemp, readFile, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { output, run } from './processes.js'

export interface Worktree {
  readonly root: string
  readonly commit: string
  remove(): Promise<void>
}

/**
 * A detached checkout of `ref` in a temporary git worktree, with its dependencies: this checkout's
 * node_modules when both lock files are the same, otherwise its own `npm install`.
 */
export async function worktree(ref: string): Promise<Worktree> {
  const commit = (await output('git', ['rev-parse', '--verify', `${ref}^{commit}`])).trim()
  const root = await mkdtemp(join(tmpdir(), 'adks-bench-ref-'))
  const remove = async () => {
    await run('git', ['worktree', 'remove', '--force', root]).catch(() => undefined)
    await rm(root, { recursive: true, force: true })
    await run('git', ['worktree', 'prune'])
  }
  try {
    await run('git', ['worktree', 'add', '--detach', root, commit])
    const lock = (dir: string) => readFile(join(dir, 'package-lock.json'), 'utf8').catch(() => null)
    const [ours, theirs] = await Promise.all([lock('.'), lock(root)])
    if (ours !== null && ours === theirs) await symlink(resolve('node_modules'), join(root, 'node_modules'), 'dir')
    else await run('npm', ['install', '--no-audit', '--no-fund'], {}, root)
  } catch (error) {
    await remove()
    throw error
  }
  return { root, commit, remove }
}
