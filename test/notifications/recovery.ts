/**
 * Waiting for a restarted service to catch up, for the kill tests (kill-after-submit.ts, outcome-kill.test.ts):
 * each wait is for an event, with a deadline long enough for the slowest recovery and never asserted.
 */
import type { Test } from 'tap'

/**
 * Long enough for the slowest recovery: a kill that came after the dead process had claimed the email
 * leaves a claim the sweep takes back only once it is a minute old (claimTimeoutMs), at a sweep that runs
 * once a minute; with a busy machine's start-up on top, that can be two minutes and more.
 */
const recoveryMs = 180_000

export async function until<T>(check: () => Promise<T | null | undefined | false>, what: string): Promise<T> {
  const deadline = Date.now() + recoveryMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

export type Caller = (method: string, path: string, body?: unknown) => Promise<{ status: number; json: Record<string, unknown> }>

/** The sweep every second, until it has run twice more: after the event went out, it must tell nothing more. */
export async function twoMoreSweeps(t: Test, admin: Caller): Promise<void> {
  t.equal((await admin('POST', '/api/schedulers/maintenance', { id: 'sweep-notifications', every: 1000 })).status, 200)
  const sweeps = async () => {
    const page = (await admin('GET', '/api/admin/jobs?queue=maintenance&state=completed&limit=100')).json as { items: { name: string }[] }
    return page.items.filter((job) => job.name === 'sweep-notifications').length
  }
  const before = await sweeps()
  await until(async () => (await sweeps()) >= before + 2, 'two more sweeps')
}
