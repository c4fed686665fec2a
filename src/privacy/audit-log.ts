import type { Logger } from 'pino'
import { hour, type MaintenanceJobs } from '../jobs/maintenance.js'
import { DuplicateKeyError, type Collection, type Doc, type Filter, type IndexSpec, type Store } from '../store/port.js'
import { auditId, ChainVerifier, genesisHash, hashOf, type AuditEntry, type AuditFacts, type AuditResourceType, type ChainReport } from './audit-entry.js'

export const auditCollection = 'audit_log'
/** The position is the store id, unique by nature; these serve the list's filters. */
export const auditIndexes: IndexSpec[] = [
  { fields: ['userId'] },
  { fields: ['resourceId'] },
  { fields: ['timestamp'] },
]

type StoredEntry = AuditEntry & Doc

export interface AuditQuery {
  readonly userId?: string
  readonly resourceType?: AuditResourceType
  readonly resourceId?: string
  /** ISO times, inclusive. */
  readonly from?: string
  readonly to?: string
  readonly limit: number
  readonly offset: number
}

type Head = { readonly seq: number; readonly hash: string }

/** The entry after `head`: the next position, chained to head's hash, and sealed by its own. */
function chained(head: Head, timestamp: string, facts: AuditFacts): AuditEntry {
  const unsigned = { seq: head.seq + 1, timestamp, ...facts, prevHash: head.hash }
  return { ...unsigned, hash: hashOf(unsigned) }
}

/** Appends that lose the race for a position to other instances try again this often. */
const appendAttempts = 50
const verifyBatch = 1000

/**
 * The append-only, hash-chained audit log. Each entry takes the next position (its store id, so two
 * writers can never both take one) and the hash of the entry before it. Appends from this process run
 * one at a time; another instance sharing the store that took the position first makes the append
 * move on to the next one, chained to the entry that instance wrote. Nothing here updates or deletes an
 * entry.
 */
export class AuditLog {
  private queue: Promise<unknown> = Promise.resolve()
  private head?: Head

  constructor(private readonly store: Store, private readonly now: () => Date = () => new Date()) {}

  private get entries(): Collection<StoredEntry> {
    return this.store.collection<StoredEntry>(auditCollection)
  }

  /** Runs after every append queued before it, so this process never races itself for a position. */
  private queued<R>(append: () => Promise<R>): Promise<R> {
    const appended = this.queue.then(append)
    this.queue = appended.catch(() => {})
    return appended
  }

  /** Resolves once the entry is stored; rejects (and the caller must not serve the data) if it is not. */
  append(facts: AuditFacts): Promise<AuditEntry> {
    return this.queued(() => this.insert(facts))
  }

  /**
   * Appends entries in the order given, together: one store write on the embedded store, whose batch
   * insert is all or nothing. On MongoDB a batch that lost a position to another instance part-way would
   * still write the entries after it, chained to one that is not there, so there they go one at a time.
   */
  appendMany(facts: readonly AuditFacts[]): Promise<AuditEntry[]> {
    return this.queued(() => this.insertMany(facts))
  }

  private async insertMany(facts: readonly AuditFacts[]): Promise<AuditEntry[]> {
    if (this.store.kind === 'embedded' && facts.length > 1) {
      let head = await this.catchUp(this.head ?? await this.readHead())
      this.head = undefined
      const timestamp = this.now().toISOString()
      const entries = facts.map((fact) => {
        const entry = chained(head, timestamp, fact)
        head = { seq: entry.seq, hash: entry.hash }
        return entry
      })
      try {
        await this.entries.insertMany(entries.map((entry) => ({ _id: auditId(entry.seq), ...entry })))
        this.head = head
        return entries
      } catch (error) {
        // Another log on the same store took a position first; the appends below find their way past it.
        if (!(error instanceof DuplicateKeyError)) throw error
      }
    }
    const entries: AuditEntry[] = []
    for (const fact of facts) entries.push(await this.insert(fact))
    return entries
  }

  private async insert(facts: AuditFacts): Promise<AuditEntry> {
    let head = this.head ?? await this.readHead()
    this.head = undefined
    for (let attempt = 0; attempt < appendAttempts; attempt++) {
      head = await this.catchUp(head)
      const entry = chained(head, this.now().toISOString(), facts)
      try {
        await this.entries.insertOne({ _id: auditId(entry.seq), ...entry })
        this.head = { seq: entry.seq, hash: entry.hash }
        return entry
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error
        // Another writer took the position. Without a pause, a writer that always gets in first can keep
        // one that always looks a moment later from ever finding a free position.
        await new Promise((resolve) => setTimeout(resolve, Math.random() * Math.min(attempt + 1, 10)))
      }
    }
    throw new Error(`audit log: no free position after ${appendAttempts} attempts`)
  }

  /**
   * Follows entries other instances appended after the head this one knows. One look-up by id when
   * nothing was, so every writer takes the same two steps per append and none is starved by a faster one.
   */
  private async catchUp(head: Head): Promise<Head> {
    for (;;) {
      const next = await this.entries.findById(auditId(head.seq + 1))
      if (!next) return head
      head = { seq: head.seq + 1, hash: next.hash }
    }
  }

  /** The last entry, read once; afterwards the head is known from this instance's own appends. */
  private async readHead(): Promise<Head> {
    const last = await this.entries.findOne({}, { sort: [['_id', -1]] })
    if (!last) return { seq: 0, hash: genesisHash }
    const seq = Number(last._id)
    // Only tampering puts a foreign id last; appending after it would hide where the chain broke.
    if (!Number.isInteger(seq) || auditId(seq) !== last._id) throw new Error(`audit log: the last entry has the foreign id ${last._id}; verify the log`)
    return { seq, hash: last.hash }
  }

  /** Entries matching the query, newest first. */
  async list(query: AuditQuery): Promise<{ items: AuditEntry[]; total: number }> {
    const conditions: Filter[] = []
    if (query.userId !== undefined) conditions.push({ userId: query.userId })
    if (query.resourceType !== undefined) conditions.push({ resourceType: query.resourceType })
    if (query.resourceId !== undefined) conditions.push({ resourceId: query.resourceId })
    if (query.from !== undefined) conditions.push({ timestamp: { $gte: query.from } })
    if (query.to !== undefined) conditions.push({ timestamp: { $lte: query.to } })
    const filter: Filter = conditions.length ? { $and: conditions } : {}
    const [items, total] = await Promise.all([
      this.entries.find(filter, { sort: [['_id', -1]], skip: query.offset, limit: query.limit, omit: ['_id'] }),
      this.entries.count(filter),
    ])
    return { items, total }
  }

  /** Walks the whole log in order, a batch at a time, and reports where the chain first breaks. */
  async verify(): Promise<ChainReport> {
    const verifier = new ChainVerifier()
    let after = ''
    for (;;) {
      const batch = await this.entries.find({ _id: { $gt: after } }, { sort: [['_id', 1]], limit: verifyBatch })
      for (const doc of batch) if (!verifier.feed(doc)) return verifier.report()
      if (batch.length < verifyBatch) return verifier.report()
      after = batch[batch.length - 1]!._id
    }
  }
}

/** A broken audit chain is reported as an error in the worker's log, not only when someone asks. */
export function auditMaintenance(auditLog: AuditLog, log: Pick<Logger, 'error'>): MaintenanceJobs {
  return {
    'verify-audit-chain': {
      every: 24 * hour,
      async run() {
        const report = await auditLog.verify()
        if (!report.intact) log.error({ report }, 'the audit chain is broken')
        return { ...report }
      },
    },
  }
}
