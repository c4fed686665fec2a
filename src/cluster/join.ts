import type { FastifyBaseLogger } from 'fastify'
import type { Store } from '../store/port.js'
import { noticingStore } from './noticing-store.js'
import { WriteNotices } from './write-notices.js'

export interface Cluster {
  /** The store every service uses: on MongoDB, one that announces its writes. */
  readonly store: Store
  /**
   * What this process knows of writes by other instances, for the in-process caches to follow; null on
   * the embedded store, which this process alone writes.
   */
  readonly notices: WriteNotices | null
  close(): Promise<void>
}

/**
 * Joins the instances sharing a MongoDB store: over Redis pub/sub when `REDIS_URL` is set; without it
 * nothing is heard of other instances, so the caches keep what they hold a few seconds at most.
 */
export async function joinCluster(store: Store, redisUrl: string | undefined, redisPrefix: string, log: FastifyBaseLogger): Promise<Cluster> {
  if (store.kind === 'embedded') return { store, notices: null, close: async () => {} }
  if (!redisUrl) {
    const notices = new WriteNotices(() => false)
    return { store: noticingStore(store, notices, async ({ collection }) => notices.wrote(collection)), notices, close: async () => {} }
  }
  // Loaded only when Redis is configured, like the other Redis clients.
  const { RedisNotices } = await import('./redis-notices.js')
  const bus = await RedisNotices.open(redisUrl, redisPrefix, log)
  return { store: noticingStore(store, bus.notices, (notice) => bus.publish(notice)), notices: bus.notices, close: () => bus.close() }
}
