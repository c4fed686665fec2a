import type { Actor } from '../actor.js'
import { SecretBox } from '../auth/secret-box.js'
import { openPackage } from './oneroster/csv.js'
import { ValidationFailed } from '../errors.js'
import type { RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'
import { clientSecretContext, configId, loadSyncConfig, type CampusSyncConfig } from './config.js'

type SourceType = CampusSyncConfig['source']['type']

/** A configuration as written (the body of PUT /api/admin/campus-sync/config): record fields, snake_case. */
export interface ConfigInput {
  readonly source: {
    readonly type: SourceType
    readonly url?: string
    readonly token_url?: string
    readonly path?: string
    readonly client_id?: string
    readonly client_secret?: string | null
  }
  readonly terms?: string[]
  readonly delete_policy?: CampusSyncConfig['deletePolicy']
  readonly max_deactivate_percent?: number
}

/** A configuration as answered: the secret only as set or unset. */
export interface ConfigView {
  readonly configured: boolean
  readonly source: { type: SourceType; url?: string; token_url?: string; path?: string; client_id?: string; client_secret: 'set' | 'unset' }
  readonly terms: string[]
  readonly delete_policy: CampusSyncConfig['deletePolicy']
  readonly max_deactivate_percent: number
}

/** The campus sync configuration as answered: the secret only as set or unset. */
export async function configAnswer(records: RecordService, schema: CompiledSchema, secrets: SecretBox): Promise<ConfigView> {
  const config = await loadSyncConfig(records, schema, secrets)
  const { source } = config
  return {
    configured: (await records.get(configId)) !== null,
    source: source.type === 'oneroster-rest'
      ? { type: source.type, url: source.url, token_url: source.tokenUrl, ...(source.clientId ? { client_id: source.clientId } : {}), client_secret: source.clientSecret ? 'set' : 'unset' }
      : { type: source.type, path: source.path, client_secret: 'unset' },
    terms: [...config.terms],
    delete_policy: config.deletePolicy,
    max_deactivate_percent: config.maxDeactivatePercent,
  }
}

const restOnly = ['url', 'token_url', 'client_id', 'client_secret'] as const

/**
 * Checks a configuration against its source type and writes it whole (SyncConfig/campus). The stored
 * secret is kept when the body leaves it out (or sends back "set", as GET answers it) and the token URL
 * is unchanged: a secret never follows the configuration to another server. A new secret is stored
 * sealed (src/auth/secret-box.ts), never in clear.
 */
export async function saveConfig(records: RecordService, schema: CompiledSchema, secrets: SecretBox, actor: Actor, body: ConfigInput): Promise<void> {
  const { source } = body
  const stored = await records.get(configId)
  let fields: Record<string, unknown>
  if (source.type === 'oneroster-csv') {
    const stray = restOnly.find((field) => source[field] !== undefined && source[field] !== null)
    if (stray) throw new ValidationFailed(`Invalid body: source.${stray} does not apply to a oneroster-csv source`)
    if (!source.path) throw new ValidationFailed('Invalid body: source.path is required for a oneroster-csv source')
    try {
      await openPackage(source.path)
    } catch (error) {
      throw new ValidationFailed(`Invalid body: source.path ${JSON.stringify(source.path)} is not a readable OneRoster package (${(error as Error).message.slice(0, 300)})`)
    }
    fields = { source_type: source.type, path: source.path, url: null, token_url: null, client_id: null, client_secret: null }
  } else {
    if (source.path !== undefined) throw new ValidationFailed('Invalid body: source.path does not apply to a oneroster-rest source')
    if (!source.url) throw new ValidationFailed('Invalid body: source.url is required for a oneroster-rest source')
    if (!source.client_id) throw new ValidationFailed('Invalid body: source.client_id is required for a oneroster-rest source')
    const tokenUrl = source.token_url ?? `${source.url.replace(/\/+$/, '')}/token`
    const storedTokenUrl = stored?.source_type === 'oneroster-rest' ? (stored.token_url ?? `${String(stored.url).replace(/\/+$/, '')}/token`) : undefined
    const keep = source.client_secret === undefined || source.client_secret === 'set'
    const secret = keep ? (storedTokenUrl === tokenUrl ? stored?.client_secret : undefined) : source.client_secret === 'unset' ? null : source.client_secret
    if (typeof secret !== 'string') throw new ValidationFailed('Invalid body: source.client_secret is required for a oneroster-rest source (none is stored for this token URL)')
    const sealed = keep && SecretBox.isSealed(secret) ? secret : secrets.seal(secret, clientSecretContext)
    fields = { source_type: source.type, url: source.url, token_url: tokenUrl, client_id: source.client_id, client_secret: sealed, path: null }
  }
  const values = { ...fields, terms: body.terms ?? [], delete_policy: body.delete_policy ?? 'deactivate', max_deactivate_percent: body.max_deactivate_percent ?? 10 }
  if (stored) await records.update(configId, values, { actor })
  else await records.create('SyncConfig', Object.fromEntries(Object.entries({ name: 'campus', ...values }).filter(([, v]) => v !== null)), { actor, key: 'campus' })
}
