import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import { hour, type MaintenanceJobs } from '../../jobs/maintenance.js'
import type { Store } from '../../store/port.js'

export const usageCollection = 'api_key_usage'
const flushEveryMs = 1000
const lastUsedEveryMs = 60_000

export interface UsageEntry {
  _id: string
  key_id: string
  /** The first use the entry counts. */
  at: string
  /** The last use it counts. */
  last_at: string
  ip: string
  method: string
  route: string
  /** Uses from this address of this method and route within the entry's second. */
  count: number
  [field: string]: unknown
}

/**
 * Every use of a key is logged (time, caller address, method, route). Uses are gathered in memory and
 * written once a second, one entry per key, address, method and route with its count and first and last
 * time: a key read thousands of times a second then costs a map update per request and a few writes a
 * second, not a store write per request. lastUsedAt is written at most once a minute per key.
 * The buffer is a write-behind log, not a cache: nothing is ever read from it and it decides no access
 * (test/auth/api-keys.test.ts reads the flushed uses back through the usage route).
 */
/** An entry while it is gathered: times as epoch milliseconds, written out as ISO text at the flush. */
interface Gathered {
  readonly keyId: string
  readonly ip: string
  readonly method: string
  readonly route: string
  readonly firstMs: number
  lastMs: number
  count: number
}

export class UsageLog {
  private buffer = new Map<string, Gathered>()
  private readonly lastWritten = new Map<string, number>()
  private readonly timer = setInterval(() => void this.flush(), flushEveryMs).unref()
  private flushing: Promise<void> = Promise.resolve()

  constructor(private readonly store: Store, private readonly log: FastifyBaseLogger) {}

  record(keyId: string, ip: string, method: string, route: string): void {
    const now = Date.now()
    const bucket = `${keyId}\n${ip}\n${method}\n${route}`
    const entry = this.buffer.get(bucket)
    if (entry) {
      entry.count++
      entry.lastMs = now
    } else {
      this.buffer.set(bucket, { keyId, ip, method, route, firstMs: now, lastMs: now, count: 1 })
    }
    const last = this.lastWritten.get(keyId) ?? 0
    if (now - last >= lastUsedEveryMs) {
      this.lastWritten.set(keyId, now)
      this.store.collection('api_keys').updateOne({ _id: keyId }, { $set: { last_used_at: new Date(now).toISOString() } })
        .catch((err: unknown) => this.log.warn({ err }, 'could not record an API key\'s last use'))
    }
  }

  /** Writes what is buffered; resolves once it is in the store. */
  flush(): Promise<void> {
    const entries = [...this.buffer.values()].map((g): UsageEntry => ({
      _id: randomUUID(), key_id: g.keyId, at: new Date(g.firstMs).toISOString(), last_at: new Date(g.lastMs).toISOString(),
      ip: g.ip, method: g.method, route: g.route, count: g.count,
    }))
    this.buffer = new Map()
    this.flushing = this.flushing.then(async () => {
      try {
        await this.store.collection<UsageEntry>(usageCollection).insertMany(entries)
      } catch (err) {
        this.log.warn({ err, entries: entries.length }, 'could not write API key usage entries')
      }
    })
    return this.flushing
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }
}

/** Deletes usage entries older than `before`; the count deleted. */
export function pruneUsage(store: Store, before: Date): Promise<number> {
  return store.collection<UsageEntry>(usageCollection).deleteMany({ at: { $lt: before.toISOString() } })
}

/** API key usage entries are kept for KEY_USAGE_RETENTION_DAYS. */
export function usageMaintenance(store: Store, retentionDays: number): MaintenanceJobs {
  return {
    'prune-key-usage': { every: 24 * hour, run: async (now) => ({ deleted: await pruneUsage(store, new Date(now.getTime() - retentionDays * 24 * hour)) }) },
  }
}
