import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Test } from 'tap'

/**
 * A fresh directory removed after `beforeRemoval` has run. tap's own testdir is removed before
 * teardowns registered later, which would pull the data directory out from under a closing store.
 */
export async function tempDir(t: Test, beforeRemoval?: () => Promise<unknown>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'adks-test-'))
  t.teardown(async () => {
    await beforeRemoval?.()
    await rm(dir, { recursive: true, force: true })
  })
  return dir
}
