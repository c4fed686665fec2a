import type { FastifyBaseLogger } from 'fastify'
import { join } from 'node:path'
import type { Store, StoreSnapshot } from './port.js'

export interface StoreConfig {
  readonly mongodbUrl?: string
  readonly mongodbDb?: string
  /** The longest a read may run in MongoDB (MONGODB_MAX_TIME_MS); 0, no bound. */
  readonly mongodbMaxTimeMs?: number
  /** Commands to MongoDB taking at least this many milliseconds are logged (MONGODB_SLOW_MS). */
  readonly mongodbSlowMs?: number
  readonly dataDir: string
  readonly embedded?: { readonly cacheBytes: number; readonly synchronous: 'full' | 'normal' }
}

/** Each adapter is loaded only when used: the MongoDB driver alone takes a quarter of a second to import. */
export async function openStore(config: StoreConfig, collections: readonly string[], log?: FastifyBaseLogger): Promise<Store> {
  if (config.mongodbUrl) {
    const { MongoStore } = await import('./mongo/store.js')
    const slowMs = config.mongodbSlowMs
    return MongoStore.open(config.mongodbUrl, config.mongodbDb, {
      ...(config.mongodbMaxTimeMs === undefined ? {} : { maxTimeMs: config.mongodbMaxTimeMs }),
      ...(slowMs === undefined || !log ? {} : {
        slow: { ms: slowMs, report: (entry) => log.warn({ slowCommand: entry }, `slow MongoDB command: ${entry.command} ${entry.collection ?? ''} ${entry.ms} ms`) },
      }),
    })
  }
  const { EmbeddedStore } = await import('./sqlite/store.js')
  return EmbeddedStore.open(config.dataDir, collections, {
    ...config.embedded,
    ...(log ? { log: (message: string) => log.info(message) } : {}),
  })
}

/**
 * A snapshot of the embedded store in `dataDir` read beside the process that holds it (the service
 * keeps its data directory locked): what `npm run backup` reads while the service serves.
 */
export async function embeddedSnapshot(dataDir: string): Promise<StoreSnapshot> {
  const [{ openSnapshot }, { databaseFile }] = await Promise.all([import('./sqlite/snapshot.js'), import('./sqlite/store.js')])
  return openSnapshot(join(dataDir, databaseFile))
}
