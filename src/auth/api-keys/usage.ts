import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
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
 */
export class UsageLog {
  private buffer = new Map<string, UsageEntry>()
  private readonly lastWritten = new Map<string, number>()
  private readonly timer = setInterval(() => void this.flush(), flushEveryMs).unref()
  private flushing: Promise<void> = Promise.resolve()

  constructor(private readonly store: Store, private readonly log: FastifyBaseLogger) {}

  record(keyId: string, ip: string, method: string, route: string, at = new Date()): void {
    const stamp = at.toISOString()
    const bucket = `${keyId}\n${ip}\n${method}\n${route}`
    const entry = this.buffer.get(bucket)
    if (entry) {
      entry.count++
      entry.last_at = stamp
    } else {
      this.buffer.set(bucket, { _id: randomUUID(), key_id: keyId, at: stamp, last_at: stamp, ip, method, route, count: 1 })
    }
    const last = this.lastWritten.get(keyId) ?? 0
    if (at.getTime() - last >= lastUsedEveryMs) {
      this.lastWritten.set(keyId, at.getTime())
      this.store.collection('api_keys').updateOne({ _id: keyId }, { $set: { last_used_at: at.toISOString() } })
        .catch((err: unknown) => this.log.warn({ err }, 'could not record an API key\'s last use'))
    }
  }

  /** Writes what is buffered; resolves once it is in the store. */
  flush(): Promise<void> {
    const entries = [...this.buffer.values()]
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
