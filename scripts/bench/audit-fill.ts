/**
 * A long-lived service's audit trail, written into a seeded data directory before any service starts on
 * it. The entries are the service's own: AuditLog.appendMany numbers, chains and hashes them as a
 * running service would, and on the embedded store writes each batch with one `insertMany`, one
 * transaction. Through HTTP a million audited requests would take the better part of an hour on two
 * cores; this takes about a minute. The trail's indexes exist before its first entry, as in a service
 * that wrote them one at a time.
 */
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { loadConfig } from '../../src/config.js'
import type { AuditFacts, AuditResourceType } from '../../src/privacy/audit-entry.js'
import { AuditLog, auditCollection, auditIndexes } from '../../src/privacy/audit-log.js'
import { compileSchema } from '../../src/schema/index.js'
import { databaseFile, EmbeddedStore } from '../../src/store/sqlite/store.js'

/** Entries per transaction: large enough that the commits cost nothing beside the rows. */
export const fillBatch = 20_000

export interface AuditFill {
  readonly entries: number
  readonly batch: number
  readonly seconds: number
  /** The database file's size once filled, in MB. */
  readonly fileMb: number
  /** The last entry's position and hash. */
  readonly head: { readonly seq: number; readonly hash: string }
}

/** The reads of protected records that leave most of a real trail, with the route each is made through. */
const reads: readonly { readonly resourceType: AuditResourceType; readonly route: string }[] = [
  { resourceType: 'enrollment', route: '/api/students/:id/enrollments' },
  { resourceType: 'transcript', route: '/api/students/:id/transcript' },
  { resourceType: 'degree-progress', route: '/api/students/:id/degree-progress' },
]

const userAgents = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_6) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'python-requests/2.32.3',
]

const roles = [
  { role: 'faculty', basis: 'advisor' },
  { role: 'faculty', basis: 'instructor' },
  { role: 'student', basis: 'self' },
  { role: 'admin', basis: 'admin' },
] as const

/**
 * The facts of the i-th access: a few hundred staff and students reading the seeded students' records
 * through the three audited reads, one in forty refused, so that the trail's values are as varied (and
 * its indexes as large) as a department's.
 */
function factsOf(i: number, students: readonly string[], users: readonly string[]): AuditFacts {
  const read = reads[i % reads.length]!
  const { role, basis } = roles[(i >> 2) % roles.length]!
  const refused = i % 40 === 39
  return {
    userId: users[(i * 7919) % users.length]!,
    resourceType: read.resourceType,
    resourceId: students[(i * 104_729) % students.length]!,
    action: 'view',
    ipAddress: `10.${20 + (i % 7)}.${(i >> 8) & 255}.${i & 255}`,
    success: !refused,
    statusCode: refused ? 403 : 200,
    reason: refused ? 'Permission denied: only the student, their advisors and admins may see this record' : null,
    authMethod: 'bearer',
    apiKeyId: null,
    apiKeyPrefix: null,
    role,
    basis: refused ? 'none' : basis,
    method: 'GET',
    route: read.route,
    requestId: `req-${i.toString(36)}`,
    userAgent: userAgents[i % userAgents.length]!,
  }
}

/**
 * Appends `entries` audit entries to the trail in `dir` (a data directory no process holds), stamped
 * over the year before now, oldest first.
 */
export async function fillAuditTrail(dir: string, entries: number): Promise<AuditFill> {
  const started = performance.now()
  const schema = await compileSchema(loadConfig({}).schemaDir)
  const people = schema.class('Person')!.metadata.collection!
  const studentTypes = [...schema.model.classes.values()].filter((c) => c.metadata.student).map((c) => c.name)
  const store = await EmbeddedStore.open(dir, [auditCollection, people])
  let head: AuditFill['head']
  try {
    await store.ensureIndexes(auditCollection, auditIndexes)
    const students = (await store.collection(people).find({ type: { $in: studentTypes } }, { sort: [['_id', 1]], limit: 2000 })).map((s) => s._id)
    if (!students.length) throw new Error(`${dir} holds no students to audit reads of`)
    const users = Array.from({ length: 400 }, (_, k) => userIdForEmail(`member${k}@dept.example.edu`))
    const batches = Math.ceil(entries / fillBatch)
    const year = 365 * 86_400_000
    let at = Date.now() - year
    const log = new AuditLog(store, () => new Date(at))
    let last = null
    for (let done = 0; done < entries; done += fillBatch) {
      const facts = Array.from({ length: Math.min(fillBatch, entries - done) }, (_, k) => factsOf(done + k, students, users))
      last = (await log.appendMany(facts)).at(-1)!
      at += year / batches
    }
    head = last ? { seq: last.seq, hash: last.hash } : { seq: 0, hash: '' }
  } finally {
    await store.close()
  }
  const fileMb = (await stat(join(dir, databaseFile))).size / 2 ** 20
  return { entries, batch: fillBatch, seconds: (performance.now() - started) / 1000, fileMb, head }
}
