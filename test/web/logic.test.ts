import t from 'tap'
import { mergeInbox, type QueueResult } from '../../web/src/workflows/inbox.js'
import { safeReturnTo } from '../../web/src/lib/return-to.js'
import { SessionStore, type KeyValueStore } from '../../web/src/lib/session.js'

t.test('returnTo: same-site paths only, else /dashboard', async (t) => {
  for (const ok of ['/approvals', '/students/UndergraduateStudent%2Fjdoe/progress?degree=x', '/dashboard#top']) t.equal(safeReturnTo(ok), ok, `${ok} is kept`)
  for (const bad of [null, undefined, '', 'approvals', '//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)',
    '/ok\nSet-Cookie: x', '/a b', '/sign-in', '/sign-in?returnTo=/x', '/auth/saml-callback?token=x', `/${'a'.repeat(2001)}`]) {
    t.equal(safeReturnTo(bad), '/dashboard', `${JSON.stringify(bad)?.slice(0, 40)} gives /dashboard`)
  }
})

class MemoryStorage implements KeyValueStore {
  readonly items = new Map<string, string>()
  getItem(key: string) { return this.items.get(key) ?? null }
  setItem(key: string, value: string) { this.items.set(key, value) }
  removeItem(key: string) { this.items.delete(key) }
}

t.test('the session keeps the token in memory and the given storage, and drops it before it expires', async (t) => {
  let now = 1_000_000
  const storage = new MemoryStorage()
  const store = new SessionStore(storage, () => now)
  t.equal(store.get(), null, 'none at first')
  store.set('token-1', 3600, true)
  t.same(store.get(), { idToken: 'token-1', expiresAt: now + 3_600_000, saml: true })
  t.same(new SessionStore(storage, () => now).get()?.idToken, 'token-1', 'a reload (a new store on the same storage) finds it')
  now += 3_600_000 - 5_000
  t.equal(store.get(), null, 'forgotten shortly before the server would refuse it')
  t.equal(storage.items.size, 0, 'and removed from storage')
  storage.setItem('adks.session', '{broken')
  t.equal(new SessionStore(storage, () => now).get(), null, 'a damaged entry is no session')
  t.equal(storage.items.size, 0)
  store.set('token-2', 60, false)
  store.clear()
  t.equal(store.get(), null, 'cleared')
  store.rememberReturnTo('/approvals')
  t.equal(store.takeReturnTo(), '/approvals')
  t.equal(store.takeReturnTo(), null, 'a remembered path is taken once')
})

t.test('the inbox merges the six queues: overdue first, then by due date, undated last, failures reported', async (t) => {
  const item = (id: string, extra: object = {}) => ({ id, title: id, stage: 'advisor', overdue: false, submitted_at: '2026-01-01T00:00:00Z', submitter: 'UndergraduateStudent/una', submitter_name: 'Una Under', ...extra })
  const results: QueueResult[] = [
    { domain: 'thesis', items: [item('T/late', { overdue: true, due_at: '2026-02-10T00:00:00Z' }), item('T/undated')], total: 5 },
    { domain: 'fellowships', items: [item('F/soon', { due_at: '2026-03-01T00:00:00Z' }), item('F/old-undated', { submitted_at: '2025-12-01T00:00:00Z' })], total: 2 },
    { domain: 'major-plans', error: 'Permission denied' },
    { domain: 'graduate-milestones', items: [item('G/later', { due_at: '2026-04-01T00:00:00Z' }), item('G/overdue-earlier', { overdue: true, due_at: '2026-02-01T00:00:00Z' })], total: 2 },
  ]
  const inbox = mergeInbox(results)
  t.same(inbox.rows.map((r) => r.id), ['G/overdue-earlier', 'T/late', 'F/soon', 'G/later', 'F/old-undated', 'T/undated'])
  t.same(inbox.rows.map((r) => r.domain), ['graduate-milestones', 'thesis', 'fellowships', 'graduate-milestones', 'fellowships', 'thesis'], 'each row keeps its domain')
  t.equal(inbox.more, 3, 'what the queues hold beyond their first page')
  t.same(inbox.failures, [{ domain: 'major-plans', error: 'Permission denied' }], 'a failed queue is reported')
})
