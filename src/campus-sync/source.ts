import { openPackage } from './oneroster/csv.js'
import { OneRosterFetchError, OneRosterPackageError } from './oneroster/errors.js'
import type { Collection, RowOf } from '../domain/campus-sync/model.js'
import { OneRosterRestClient } from './oneroster/rest.js'
import type { SyncSourceConfig } from './config.js'

/**
 * Records of every synced record name the system they came from. One name for every OneRoster source,
 * since a sourcedId is the student information system's own id, whether it arrives by REST or CSV.
 */
export const oneRosterSystem = 'oneroster'

export interface Read<C extends Collection> {
  readonly rows: RowOf[C][]
  /** bulk: everything the source holds; delta: changes only; absent: the source has no such collection. */
  readonly mode: 'bulk' | 'delta' | 'absent'
  /** Set when the source stopped part-way: the rows before it are complete pages, the rest never came. */
  readonly failure?: string
}

export interface RowSource {
  /** Every row of a collection, or those changed after `since` where the source supports it. */
  read<C extends Collection>(collection: C, options: { since?: string; signal: AbortSignal }): Promise<Read<C>>
}

export interface SourceOptions {
  readonly pageSize?: number
  readonly timeoutMs?: number
}

/** Opens the configured source; a package that cannot be read at all fails here, before anything is read. */
export async function openSource(config: SyncSourceConfig, options: SourceOptions = {}): Promise<RowSource> {
  if (config.type === 'oneroster-csv') {
    const pack = await openPackage(config.path)
    return {
      async read(collection) {
        const rows: RowOf[typeof collection][] = []
        for await (const page of pack.pages(collection)) rows.push(...page.rows)
        return { rows, mode: pack.modes[collection] }
      },
    }
  }
  const client = new OneRosterRestClient({
    baseUrl: config.url, tokenUrl: config.tokenUrl, clientId: config.clientId, clientSecret: config.clientSecret,
    pageSize: options.pageSize, timeoutMs: options.timeoutMs,
  })
  return {
    async read(collection, { since, signal }) {
      const rows: RowOf[typeof collection][] = []
      const mode = since === undefined ? 'bulk' : 'delta'
      try {
        for await (const page of client.pages(collection, { since, signal })) rows.push(...page.rows)
      } catch (error) {
        if (error instanceof OneRosterFetchError) return { rows, mode, failure: error.message }
        throw error
      }
      return { rows, mode }
    },
  }
}

export { OneRosterPackageError }
