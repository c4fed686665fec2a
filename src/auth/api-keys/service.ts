import type { Actor } from '../../actor.js'
import { ApiKeyActive, ApiKeyInvalid, PermissionDenied, RecordNotFound } from '../../errors.js'
import type { RecordService } from '../../records/service.js'
import type { ApiKey } from '../../schema/generated/records.js'
import type { CompiledSchema, Resource } from '../../schema/index.js'
import type { Store } from '../../store/port.js'
import { permissions, type Permission } from '../permissions.js'
import type { UserRecord, UserService } from '../users.js'
import { digest, displayPrefix, generateKey, sameDigest, wellFormed } from './format.js'
import { usageCollection, type UsageEntry } from './usage.js'

/** A key as stored (its hash, never the key): the ApiKey class's type, generated from schema/identity.json. */
export type ApiKeyRecord = ApiKey

export type KeyStatus = 'active' | 'expired' | 'revoked'

/** The generic routes of a resource a key may be let into. */
export type KeyRoute = 'list' | 'detail' | 'create' | 'update'

/**
 * Where a key may go in a resource (docs/auth.md, "API keys"): the reads the schema opens to keys
 * (`api_keys`, the spec's catalog reads), under the read permission; and on those catalog resources, creates
 * and updates under the write permission, unless the resource holds records that are not the catalog's to
 * hand out: ones only some callers may read (`visible_to`, `student`) or that their owner may edit
 * (`self_editable`), where a key would act as its owner. Deletes, and everything outside the generic routes
 * (student records, the audit log, administration, key management), stay closed to every key.
 */
export function keyRoutes(schema: CompiledSchema, resource: Resource): ReadonlySet<KeyRoute> {
  const reads = resource.root.metadata.api_keys ?? []
  const catalogOnly = resource.classes.every((name) => {
    const { visible_to, student, self_editable } = schema.class(name)!.metadata
    return !visible_to && !student && self_editable.length === 0
  })
  const writes: KeyRoute[] = reads.length && catalogOnly ? ['create', 'update'] : []
  return new Set<KeyRoute>([...reads, ...writes])
}

/** The permissions a key may be granted: those that let it into at least one route. */
export function keyGrantable(schema: CompiledSchema): Permission[] {
  const opening = new Set<string>()
  for (const resource of schema.resources) {
    const routes = keyRoutes(schema, resource)
    if (routes.has('list') || routes.has('detail')) opening.add(resource.permissions.read)
    if (routes.has('create') || routes.has('update')) opening.add(resource.permissions.write)
  }
  return permissions.filter((p) => opening.has(p))
}

/** Derived, never stored: revoked wins over expired. */
export function statusOf(key: ApiKeyRecord, now = new Date()): KeyStatus {
  if (key.revoked_at) return 'revoked'
  return Date.parse(key.expires_at) <= now.getTime() ? 'expired' : 'active'
}

/** A key as its owner sees it: never the digest, and the key itself only in the creation answer. */
export function present(key: ApiKeyRecord, now = new Date()) {
  return {
    id: key._id,
    name: key.name,
    prefix: key.prefix,
    permissions: key.permissions,
    expiration: key.expires_at,
    status: statusOf(key, now),
    createdAt: key._created_at,
    lastUsedAt: key.last_used_at ?? null,
    owner: key.owner,
  }
}

export interface Caller {
  readonly userId: string
  readonly role: string
  readonly permissions: ReadonlySet<Permission>
}

const invalid = () => new ApiKeyInvalid('Invalid API key')

export class ApiKeyService {
  constructor(
    private readonly store: Store,
    private readonly records: RecordService,
    private readonly users: UserService,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private get keys() {
    return this.store.collection<ApiKeyRecord>('api_keys')
  }

  async create(caller: Caller, actor: Actor, input: { name: string; permissions: Permission[]; expiresInDays: number }) {
    const missing = input.permissions.find((p) => !caller.permissions.has(p))
    if (missing) throw new PermissionDenied(`Permission denied: you do not hold ${missing}, so a key cannot be given it`)
    const key = generateKey()
    const record = await this.records.create('ApiKey', {
      name: input.name,
      owner: caller.userId,
      prefix: displayPrefix(key),
      key_hash: digest(key),
      permissions: input.permissions,
      expires_at: new Date(this.now().getTime() + input.expiresInDays * 86_400_000).toISOString(),
    }, { actor })
    return { ...present(record, this.now()), key }
  }

  list(ownerId?: string): Promise<ApiKeyRecord[]> {
    return this.keys.find(ownerId ? { owner: ownerId } : {}, { sort: [['_created_at', -1], ['_id', 1]] })
  }

  /** A key the caller may manage: their own, or any for an admin. Others' keys are reported as missing. */
  async owned(id: string, caller: Caller): Promise<ApiKeyRecord> {
    const key = await this.keys.findById(id)
    if (!key || (key.owner !== caller.userId && caller.role !== 'admin')) throw new RecordNotFound(`${id} not found`)
    return key
  }

  async revoke(id: string, caller: Caller, actor: Actor): Promise<ApiKeyRecord> {
    const key = await this.owned(id, caller)
    if (key.revoked_at) return key
    return await this.records.update(id, { revoked_at: this.now().toISOString() }, { actor, className: 'ApiKey' })
  }

  async remove(id: string, caller: Caller, actor: Actor): Promise<void> {
    const key = await this.owned(id, caller)
    if (statusOf(key, this.now()) === 'active') throw new ApiKeyActive('Revoke the key before deleting it')
    await this.records.remove(id, { actor })
    await this.store.collection(usageCollection).deleteMany({ key_id: id })
  }

  async usage(id: string, caller: Caller, limit: number, offset: number) {
    await this.owned(id, caller)
    const log = this.store.collection<UsageEntry>(usageCollection)
    const [entries, total] = await Promise.all([
      log.find({ key_id: id }, { sort: [['at', -1], ['_id', 1]], skip: offset, limit }),
      log.count({ key_id: id }),
    ])
    // Entries written before uses were counted stand for one use each.
    const items = entries.map(({ at, last_at, ip, method, route, count }) => ({ at, lastAt: last_at ?? at, ip, method, route, count: count ?? 1 }))
    return { items, total, limit, offset }
  }

  /**
   * The key record and its owner, or 401 "Invalid API key" for a malformed, unknown, expired or revoked
   * key. Looked up on every request, so a revocation holds on every instance at once.
   */
  async verify(key: string): Promise<{ key: ApiKeyRecord; owner: UserRecord }> {
    if (!wellFormed(key)) throw invalid()
    const hash = digest(key)
    const record = await this.keys.findOne({ key_hash: hash })
    if (!record || !sameDigest(record.key_hash, hash) || statusOf(record, this.now()) !== 'active') throw invalid()
    const owner = await this.users.byId(record.owner)
    if (!owner) throw invalid()
    return { key: record, owner }
  }
}
