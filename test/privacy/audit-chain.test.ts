import t, { type Test } from 'tap'
import { auditId, hashOf, type AuditEntry, type AuditFacts } from '../../src/privacy/audit-entry.js'
import { AuditLog, auditCollection, auditIndexes } from '../../src/privacy/audit-log.js'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import { tempDir } from '../helpers/temp-dir.js'
import { department, path } from './department.js'

type Stored = AuditEntry & { _id: string }

function facts(n: number): AuditFacts {
  return {
    userId: `User/u${n}`, resourceType: 'transcript', resourceId: `UndergraduateStudent/s${n}`, action: 'view', ipAddress: '10.0.0.1',
    success: n % 2 === 0, statusCode: n % 2 === 0 ? 200 : 403, reason: null, authMethod: 'bearer', apiKeyId: null, apiKeyPrefix: null,
    role: 'faculty', basis: 'advisor', method: 'GET', route: '/api/students/:id/transcript', requestId: `r${n}`, userAgent: null,
  }
}

/** A real embedded store holding a log of `count` entries. */
async function logOf(t: Test, count: number) {
  let store: EmbeddedStore | undefined
  store = await EmbeddedStore.open(await tempDir(t, async () => store?.close()), [auditCollection])
  await store.ensureIndexes(auditCollection, auditIndexes)
  const log = new AuditLog(store)
  for (let n = 1; n <= count; n++) await log.append(facts(n))
  const entries = store.collection<Stored>(auditCollection)
  const at = async (seq: number) => (await entries.findById(auditId(seq)))!
  /** Replaces the stored entries at these positions with other content, keeping the positions' ids. */
  const put = async (replacements: [number, Omit<Stored, '_id'>][]) => {
    await entries.deleteMany({ _id: { $in: replacements.map(([seq]) => auditId(seq)) } })
    for (const [seq, content] of replacements) await entries.insertOne({ ...content, _id: auditId(seq) })
  }
  return { store, log, entries, at, put }
}

function strip({ _id, ...content }: Stored): Omit<Stored, '_id'> {
  return content
}

/**
 * One department for the API tests at the end, which run in order. It is built before any test is
 * queued: built after them, on a slower store the queued tests could all finish first and end the file.
 */
const dept = await department(t)

t.test('an untouched log verifies, and reports its head', async (t) => {
  const { log, at } = await logOf(t, 10)
  const report = await log.verify()
  t.same(report, { intact: true, checked: 10, head: { seq: 10, hash: (await at(10)).hash } })
  const first = await at(1)
  t.equal(first.prevHash, '0'.repeat(64), 'the first entry chains to the genesis hash')
  t.equal((await at(2)).prevHash, first.hash, 'each entry carries the hash of the one before')
  t.equal(first.hash, hashOf(first), 'and its own hash covers its content')
})

t.test('tampering is reported at the position where the chain breaks', async (t) => {
  const cases: [string, (log: Awaited<ReturnType<typeof logOf>>) => Promise<unknown>, number, RegExp][] = [
    ['a field changed', ({ entries }) => entries.updateOne({ _id: auditId(4) }, { $set: { success: false } }), 4, /entry 4 no longer matches its hash/],
    ['a field added', ({ entries }) => entries.updateOne({ _id: auditId(7) }, { $set: { note: 'harmless' } }), 7, /entry 7 no longer matches/],
    ['a field changed and the hash recomputed', async ({ at, put }) => {
      const forged = { ...strip(await at(4)), userId: 'User/someone-else' }
      await put([[4, { ...forged, hash: hashOf(forged) }]])
    }, 5, /entry 5 does not follow entry 4/],
    ['an entry deleted', ({ entries }) => entries.deleteOne({ _id: auditId(6) }), 6, /entry 6 is missing/],
    ['two entries deleted', ({ entries }) => entries.deleteMany({ _id: { $in: [auditId(6), auditId(7)] } }), 6, /entries 6 to 7 are missing/],
    ['the first entry deleted', ({ entries }) => entries.deleteOne({ _id: auditId(1) }), 1, /entry 1 is missing/],
    ['two entries swapped', async ({ at, put }) => {
      const [third, fourth] = [strip(await at(3)), strip(await at(4))]
      await put([[3, fourth], [4, third]])
    }, 3, /position 3 holds entry 4 \(entries were reordered\)/],
    ['two entries swapped and renumbered', async ({ at, put }) => {
      const [third, fourth] = [strip(await at(3)), strip(await at(4))]
      await put([[3, { ...fourth, seq: 3 }], [4, { ...third, seq: 4 }]])
    }, 3, /entry 3 no longer matches its hash/],
    ['an entry with a foreign id slipped in', ({ entries, at }) => at(5).then((e) => entries.insertOne({ ...e, seq: 11, _id: '000000000005x' })), 6, /foreign id 000000000005x/],
  ]
  for (const [label, tamper, position, reason] of cases) {
    const log = await logOf(t, 10)
    await tamper(log)
    const report = await log.log.verify()
    t.equal(report.intact, false, label)
    t.equal(report.firstBrokenAt, position, `${label}: where`)
    t.match(report.reason, reason, `${label}: why`)
    t.equal(report.checked, position - 1, `${label}: the entries before it checked out`)
  }
})

t.test('entries cut off the end leave no break, but the head no longer matches a noted one', async (t) => {
  const { log, entries } = await logOf(t, 5)
  const noted = (await log.verify()).head
  await entries.deleteOne({ _id: auditId(5) })
  const after = await log.verify()
  t.equal(after.intact, true)
  t.not(after.head?.hash, noted?.hash, 'compared with the head kept outside the store, the cut shows')
  t.equal(after.head?.seq, 4)
})

t.test('appends after tampering do not hide it', async (t) => {
  const { log, entries } = await logOf(t, 5)
  await entries.deleteOne({ _id: auditId(5) })
  await log.append(facts(6))
  t.match(await log.verify(), { intact: false, firstBrokenAt: 5, reason: /entry 5 is missing/ })
})

t.test('a log whose last entry has a foreign id takes no more entries until someone looks', async (t) => {
  const { store, entries, at } = await logOf(t, 3)
  await entries.insertOne({ ...(await at(3)), _id: 'zzz' })
  await t.rejects(new AuditLog(store).append(facts(4)), /the last entry has the foreign id zzz; verify the log/)
})

t.test('two writers sharing one store (two instances on one MongoDB) keep one unbroken chain', async (t) => {
  const { store, log } = await logOf(t, 0)
  const other = new AuditLog(store)
  const appended = await Promise.all(Array.from({ length: 100 }, (_, n) => (n % 2 ? log : other).append(facts(n))))
  t.same(appended.map((e) => e.seq).sort((a, b) => a - b), Array.from({ length: 100 }, (_, n) => n + 1), 'every position taken once')
  t.match(await log.verify(), { intact: true, checked: 100 })
})

t.test('100 concurrent accesses through the API: 100 entries, one chain, verified by the route', async (t) => {
  const { callers, ids, auditEntries } = dept
  const before = (await auditEntries()).length
  const kinds = ['student', 'advisor', 'admin', 'otherStudent', 'faculty'] as const
  const answers = await Promise.all(Array.from({ length: 100 }, (_, n) =>
    callers[kinds[n % kinds.length]!]({ method: 'GET', url: `/api/students/${path(ids.una)}/transcript` })))
  t.same(answers.map((a) => a.statusCode).sort(), [...Array(60).fill(200), ...Array(40).fill(403)])
  const entries = await auditEntries()
  t.equal(entries.length, before + 100)
  t.same(entries.map((e) => e.seq), entries.map((_, i) => i + 1), 'positions without gaps')
  t.equal(entries.filter((e) => e.success).length - entries.slice(0, before).filter((e) => e.success).length, 60, 'successes as answered')
  const verify = await callers.admin({ method: 'GET', url: '/api/admin/audit/verify' })
  t.match(verify.json(), { intact: true, checked: before + 100, head: { seq: before + 100 } })
})

t.test('the verify route reports tampering done directly in the store', async (t) => {
  const { callers, ids, audit } = dept
  for (let i = 0; i < 3; i++) await callers.student({ method: 'GET', url: `/api/students/${path(ids.una)}/enrollments` })
  await audit.updateOne({ _id: auditId(2) }, { $set: { userId: 'User/nobody' } })
  const res = await callers.admin({ method: 'GET', url: '/api/admin/audit/verify' })
  t.equal(res.statusCode, 200)
  t.match(res.json(), { intact: false, firstBrokenAt: 2, checked: 1, reason: /entry 2 no longer matches its hash/ })
})
