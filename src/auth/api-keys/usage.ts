import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Store } from '../../store/port.js'

export const usageCollection = 'api_key_usage'
const flushEveryMs = 1000
const flushAtEntries = 200
const lastUsedEveryMs = 60_000

export interface UsageEntry {
  _id: string
  key_id: string
  at: string
  ip: string
  method: string
  route: string
  [field: string]: unknown
}

/**
 * Every use of a key is logged (time, caller address, method, route). Entries are buffered and written
 * in the background, at most a second late, so logging costs a request almost nothing; lastUsedAt is
 * written at most once a minute per key.
 */
export class UsageLog {
  private buffer: UsageEntry[] = []
  private readonly lastWritten = new Map<string, number>()
  private readonly timer = setInterval(() => void this.flush(), flushEveryMs).unref()
  private flushing: Promise<void> = Promise.resolve()

  constructor(private readonly store: Store, private readonly log: FastifyBaseLogger) {}

  record(keyId: string, ip: string, method: string, route: string, at = new Date()): void {
    this.buffer.push({ _id: randomUUID(), key_id: keyId, at: at.toISOString(), ip, method, route })
    if (this.buffer.length >= flushAtEntries) void this.flush()
    const last = this.lastWritten.get(keyId) ?? 0
    if (at.getTime() - last >= lastUsedEveryMs) {
      this.lastWritten.set(keyId, at.getTime())
      this.store.collection('api_keys').updateOne({ _id: keyId }, { $set: { last_used_at: at.toISOString() } })
        .catch((err: unknown) => this.log.warn({ err }, 'could not record an API key\'s last use'))
    }
  }

  /** Writes what is buffered; resolves once it is in the store. */
  flush(): Promise<void> {
    const entries = this.buffer
    this.buffer = []
    this.flushing = this.flushing.then(async () => {
      for (const entry of entries) {
        try {
          await this.store.collection<UsageEntry>(usageCollection).insertOne(entry)
        } catch (err) {
          this.log.warn({ err }, 'could not write an API key usage entry')
        }
      }
    })
    return this.flushing
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    await this.flush()
  }
}
