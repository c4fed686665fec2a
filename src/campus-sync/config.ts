import { createHash } from 'node:crypto'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SecretBox } from '../auth/secret-box.js'
import type { RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'

// The repository root from src/campus-sync or dist/src/campus-sync: the sample package ships beside the schema.
const projectRoot = fileURLToPath(new URL(import.meta.url.includes('/dist/') ? '../../../' : '../../', import.meta.url))

/** The sample department's OneRoster CSV package: the source when nothing is configured (`npm start`). */
export const samplePackagePath = resolve(projectRoot, 'sample/oneroster')

export type SyncSourceConfig =
  | { readonly type: 'oneroster-rest'; readonly url: string; readonly tokenUrl: string; readonly clientId: string; readonly clientSecret: string }
  | { readonly type: 'oneroster-csv'; readonly path: string }

export interface CampusSyncConfig {
  readonly source: SyncSourceConfig
  /** Term codes whose sections and enrollments are synced; empty means every term the feed has. */
  readonly terms: readonly string[]
  readonly deletePolicy: 'deactivate' | 'keep'
  readonly maxDeactivatePercent: number
}

export const configId = 'SyncConfig/campus'

/** What the stored OAuth client secret is sealed as (the authenticated data of its encryption). */
export const clientSecretContext = 'campus-sync client secret (SyncConfig/campus)'

/** The secret to send: a sealed one opened; a plain one, stored before secrets were encrypted, as it is. */
function openClientSecret(stored: string, secrets: SecretBox): string {
  return SecretBox.isSealed(stored) ? secrets.open(stored, clientSecretContext) : stored
}

export const defaultSyncConfig: CampusSyncConfig = {
  source: { type: 'oneroster-csv', path: samplePackagePath },
  terms: [],
  deletePolicy: 'deactivate',
  maxDeactivatePercent: 10,
}

/** The stored configuration (SyncConfig/campus), else the sample package with the defaults of docs/operations.md, "Campus sync (OneRoster)". */
export async function loadSyncConfig(records: RecordService, schema: CompiledSchema, secrets: SecretBox): Promise<CampusSyncConfig> {
  if (!schema.class('SyncConfig')) return defaultSyncConfig
  const stored = await records.get(configId, 'SyncConfig')
  if (!stored) return defaultSyncConfig
  const url = stored.url ?? ''
  const source: SyncSourceConfig = stored.source_type === 'oneroster-rest'
    ? { type: 'oneroster-rest', url, tokenUrl: stored.token_url || `${url.replace(/\/+$/, '')}/token`, clientId: stored.client_id ?? '', clientSecret: openClientSecret(stored.client_secret ?? '', secrets) }
    : { type: 'oneroster-csv', path: stored.path || samplePackagePath }
  return { source, terms: stored.terms, deletePolicy: stored.delete_policy, maxDeactivatePercent: stored.max_deactivate_percent }
}

/** A short stable name for a source (its URL or path), under which its delta watermarks are kept. */
export function sourceKey(source: SyncSourceConfig): string {
  const where = source.type === 'oneroster-rest' ? source.url : source.path
  return `${source.type === 'oneroster-rest' ? 'rest' : 'csv'}-${createHash('sha256').update(where).digest('hex').slice(0, 16)}`
}
