import type { Store } from './port.js'

export interface StoreConfig {
  readonly mongodbUrl?: string
  readonly mongodbDb?: string
  readonly dataDir: string
}

/** Each adapter is loaded only when used: the MongoDB driver alone takes a quarter of a second to import. */
export async function openStore(config: StoreConfig, collections: readonly string[]): Promise<Store> {
  if (config.mongodbUrl) {
    const { MongoStore } = await import('./mongo/store.js')
    return MongoStore.open(config.mongodbUrl, config.mongodbDb)
  }
  const { EmbeddedStore } = await import('./nedb/store.js')
  return EmbeddedStore.open(config.dataDir, collections)
}
