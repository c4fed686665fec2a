import { type AppError, DuplicateRecord, PermissionDenied, RecordNotFound, ValidationFailed, VersionConflict, WriteContended, isAppError, withHeaders } from '../errors.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'
import { keyFields, makeKey } from '../schema/keys.js'
import { idKeyPattern } from '../schema/typebox.js'
import { DuplicateKeyError, type BatchWrite, type Collection, type Doc, type Filter, type FindOptions, type Store } from '../store/port.js'
import { HistoryWrites } from '../history/writes.js'
import { derivedFields, internalFields, lookupFields } from './derived.js'
import { assertReferencesExist, assertUnreferenced, existingIds, missingReference, referencesIn, type Found } from './references.js'
import { changesContent, keepsHistory, opOf, patchOf, revisionOf, strip } from './revisions.js'
import { newRecord, rewriting, type Transform } from './stored-form.js'
import type { ApiRecord, Change, ChangeListener, CreateItem, CreateOutcome, PageView, RecordOf, RecordView, WriteBy, WriteCheck, WriteNote } from './types.js'

// The record types are the service's vocabulary: its callers name them from here, beside the service.
export type { ApiRecord, Change, ChangeListener, CreateItem, CreateOutcome, PageView, RecordOf, RecordView, WriteBy, WriteCheck, WriteNote } from './types.js'

const systemKeys = ['_id', 'type', '_version', '_created_at', '_updated_at']
const keyShape = new RegExp(`^${idKeyPattern}$`)
const updateAttempts = 5

/** A refusal (a 4xx) is an outcome of its record; anything else (the store failing) is the caller's. */
function refusal(error: unknown): AppError {
  if (isAppError(error) && error.statusCode < 500) return error
  throw error
}

/**
 * Reads and writes catalog records of any class: validation against the derived schemas, reference
 * checks, id minting, versioned updates. Every writer (routes, seed, sync) goes through here, so a record
 * in the store has always passed the same checks.
 */
export class RecordService {
  private readonly listeners: ChangeListener[] = []
  private readonly checks = new Map<string, WriteCheck[]>()
  readonly history: HistoryWrites

  constructor(
    private readonly store: Store,
    private readonly schema: CompiledSchema,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.history = new HistoryWrites(store)
  }

  /**
   * A record brought back under its id (a past version restored) is out of the trash. One made anew under
   * a deleted record's id leaves the deleted one there, where a restore is refused as the id is taken.
   */
  private async untrash(ids: readonly string[]): Promise<void> {
    if (ids.length) await this.history.revisions.updateMany({ record: { $in: [...ids] }, trashed: true }, { $unset: { trashed: true } })
  }

  /** Called after every successful write (caches and indexes keep themselves current with it). */
  onChange(listener: ChangeListener): void {
    this.listeners.push(listener)
  }

  /** Adds a check every create and update of the class must pass, whoever the writer is. */
  addCheck(className: string, check: WriteCheck): void {
    if (!this.schema.class(className)) throw new Error(`no class ${className} to check`)
    this.checks.set(className, [...(this.checks.get(className) ?? []), check])
  }

  private async runChecks(cls: ClassDef, record: Readonly<Record<string, unknown>>, id: string, kind: 'create' | 'update'): Promise<void> {
    for (const check of this.checks.get(cls.name) ?? []) await check(record, { id, kind })
  }

  private changed(cls: ClassDef, id: string, kind: Change['kind']): void {
    const change = { collection: cls.metadata.collection!, id, kind }
    for (const listener of this.listeners) listener(change)
  }

  collectionOf<N extends string>(cls: ClassDef<N>): Collection<RecordOf<N>> {
    return this.store.collection<RecordOf<N>>(cls.metadata.collection!)
  }

  /** The stored class of the id; with `className`, only if it is that class or one of its subclasses. */
  private classOfId<N extends string>(id: string, className?: N): ClassDef<N> | undefined {
    const cls = this.schema.classOfId(id)
    const fits = cls && (className === undefined || cls.name === className || cls.ancestors.includes(className))
    return fits ? cls as ClassDef<N> : undefined
  }

  private storedClass<N extends string>(className: N): ClassDef<N> {
    const cls = this.schema.class(className)
    if (!cls || cls.abstract || cls.subdocument || !cls.metadata.collection) throw new ValidationFailed(`unknown record type ${className}`)
    return cls
  }

  private duplicate(cls: ClassDef, id: string, error: DuplicateKeyError): AppError {
    if (error.fields.includes('_id') || !error.fields.length) return new DuplicateRecord(`${id} already exists`)
    const owner = this.schema.resourceOf(cls.name)?.root.name ?? cls.name
    return new DuplicateRecord(`another ${owner} already has this ${error.fields.join(' and ')}`)
  }

  /** With `className`, null also when the id names a record of another class. */
  async get<N extends string = string>(id: string, className?: N): Promise<RecordOf<N> | null> {
    const cls = this.classOfId(id, className)
    if (!cls) return null
    return this.collectionOf(cls).findById(id, { omit: internalFields })
  }

  /** The record without a copy (see RecordView); for answers, which never change what they read. */
  async view(id: string): Promise<RecordView | null> {
    const cls = this.schema.classOfId(id)
    return cls ? this.collectionOf(cls).viewById(id) : null
  }

  async viewPage(cls: ClassDef, filter: Filter, options: Omit<FindOptions, 'omit'>): Promise<PageView> {
    const collection = this.collectionOf(cls)
    const [items, total] = await Promise.all([collection.view(filter, options), collection.count(filter)])
    return { items, total }
  }

  async find<N extends string>(cls: ClassDef<N>, filter: Filter, options: FindOptions = {}): Promise<RecordOf<N>[]> {
    return this.collectionOf(cls).find(filter, { ...options, omit: internalFields })
  }

  /**
   * `key` fixes the identifier instead of deriving it from the @key (seeding, syncs by natural key).
   * `carry` is internal fields written in the record's own insert, never shown or kept in its history:
   * a run record's outcome events, so that the record never lands without them (docs/notifications.md).
   */
  async create<N extends string>(className: N, input: unknown, options: { key?: string; carry?: { readonly _events: readonly unknown[] } } & WriteBy & WriteNote): Promise<RecordOf<N>> {
    const cls = this.storedClass(className)
    const { id, fields, refs } = this.prepare(cls, input, options.key)
    await assertReferencesExist(this.store, this.schema, refs)
    await this.runChecks(cls, fields, id, 'create')
    const stamp = this.now().toISOString()
    const doc = { ...newRecord(cls, id, fields, stamp), ...options.carry }
    const history = keepsHistory(cls)
    if (history) doc._version = (await this.history.firstVersions([id])).get(id) ?? 1
    try {
      if (history) await this.history.insert(this.collectionOf(cls), doc, revisionOf(cls, id, doc._version, 'create', patchOf(null, doc), stamp, options.actor, options))
      else await this.collectionOf(cls).insertOne(doc)
    } catch (error) {
      throw error instanceof DuplicateKeyError ? this.duplicate(cls, id, error) : error
    }
    if (options.restoredFrom !== undefined) await this.untrash([id])
    this.changed(cls, id, 'create')
    return strip(doc)
  }

  /**
   * Creates records of one class as `create` would one after another, but with one read per collection
   * for the reference and id checks and one store write for the lot. Each record is judged on its own:
   * one that `create` would refuse (invalid, a reference to a missing record, a failed check, an id or
   * unique value already taken) gets that 4xx as its outcome, in its place (outcomes follow the order of
   * the items), and the others are written. Only an unknown class or a store failure rejects the call.
   * References must name records already stored, not others of the same batch, and write checks see the
   * store as it was before the batch.
   */
  async createMany(className: string, items: readonly CreateItem[], by: WriteBy): Promise<CreateOutcome[]> {
    const cls = this.storedClass(className)
    const outcomes: CreateOutcome[] = new Array(items.length)
    const prepared: { index: number; id: string; fields: Record<string, unknown>; refs: Found[] }[] = []
    items.forEach((item, index) => {
      try {
        prepared.push({ index, ...this.prepare(cls, item.input, item.key) })
      } catch (error) {
        outcomes[index] = { error: refusal(error) }
      }
    })
    const existing = await existingIds(this.store, this.schema, [...prepared.flatMap((p) => p.refs.map((ref) => ref.id)), ...prepared.map((p) => p.id)])
    const stamp = this.now().toISOString()
    const accepted: { index: number; doc: ApiRecord }[] = []
    for (const { index, id, fields, refs } of prepared) {
      try {
        const missing = missingReference(this.schema, refs, (ref) => existing.has(ref))
        if (missing) throw missing
        if (existing.has(id)) throw new DuplicateRecord(`${id} already exists`)
        await this.runChecks(cls, fields, id, 'create')
        existing.add(id)
        accepted.push({ index, doc: newRecord(cls, id, fields, stamp) })
      } catch (error) {
        outcomes[index] = { error: refusal(error) }
      }
    }
    if (keepsHistory(cls) && accepted.length) {
      const versions = await this.history.firstVersions(accepted.map((a) => a.doc._id))
      for (const { doc } of accepted) doc._version = versions.get(doc._id) ?? 1
    }
    const written = await this.insertAll(cls, accepted.map((a) => a.doc), stamp, by)
    accepted.forEach(({ index, doc }, i) => {
      const duplicate = written[i]
      if (duplicate) {
        outcomes[index] = { error: duplicate }
        return
      }
      this.changed(cls, doc._id, 'create')
      outcomes[index] = { record: strip(doc) }
    })
    return outcomes
  }

  /**
   * Writes the documents in one insert, else (a unique value taken twice in the batch, or by another
   * writer meanwhile) one at a time to tell which collide. Gives, per document, the conflict that kept it
   * out, or undefined when it was written.
   */
  private async insertAll(cls: ClassDef, docs: readonly ApiRecord[], stamp: string, by: WriteBy): Promise<(AppError | undefined)[]> {
    const collection = this.collectionOf(cls)
    const history = keepsHistory(cls)
    const created = (doc: ApiRecord) => revisionOf(cls, doc._id, doc._version, 'create', patchOf(null, doc), stamp, by.actor)
    const insertOne = (doc: ApiRecord) => history ? this.history.insert(collection, doc, created(doc)) : collection.insertOne(doc)
    try {
      if (history) await this.history.insertMany(collection, docs, docs.map(created))
      else await collection.insertMany(docs)
      return docs.map(() => undefined)
    } catch (error) {
      if (!(error instanceof DuplicateKeyError)) throw error
    }
    // MongoDB writes the rest of a batch around a duplicate; those documents, stamped by this call, are in.
    const landed = await collection.find({ _id: { $in: docs.map((doc) => doc._id) } }, { omit: internalFields })
    const ours = new Set(landed.filter((doc) => doc._created_at === stamp).map((doc) => doc._id))
    const results: (AppError | undefined)[] = []
    for (const doc of docs) {
      try {
        if (!ours.has(doc._id)) await insertOne(doc)
        else if (history && !this.history.transactional) await this.history.settle(collection, created(doc))
        results.push(undefined)
      } catch (error) {
        if (!(error instanceof DuplicateKeyError)) throw error
        results.push(this.duplicate(cls, doc._id, error))
      }
    }
    return results
  }

  /** A new record's id, its fields as stored (lists default to empty) and its references, once it validates. */
  private prepare(cls: ClassDef, input: unknown, key: string | undefined): { id: string; fields: Record<string, unknown>; refs: Found[] } {
    const problem = this.schema.validators.problem(cls.name, 'create', input)
    if (problem) throw new ValidationFailed(problem)
    if (key !== undefined && !keyShape.test(key)) throw new ValidationFailed(`'${key}' is not a valid identifier`)
    const { type: _type, ...fields } = input as Record<string, unknown>
    for (const prop of cls.properties) {
      if (prop.kind !== 'required' && prop.kind !== 'optional') fields[prop.name] ??= []
    }
    return { id: `${cls.name}/${key ?? makeKey(cls, fields)}`, fields, refs: referencesIn(this.schema, cls, fields) }
  }

  /**
   * Applies the given fields (null removes an optional one). With `expectVersion` (or `_version` in the
   * body) the update applies only to that version, else to whatever is current; either way two writers
   * never overwrite each other unseen, because each write is a compare-and-set on `_version`. A field of
   * the id changes only where the class lets it be corrected (`correctable_key`) and the caller may
   * (`correctKey`: an admin); the id stays as minted, so references to the record keep pointing at it.
   * With `className`, an id of a record of another class is not found.
   */
  async update<N extends string = string>(
    id: string, input: unknown, options: { expectVersion?: number; correctKey?: boolean; className?: N } & WriteBy & WriteNote,
  ): Promise<RecordOf<N>> {
    const cls = this.classOfId(id, options.className)
    if (!cls) throw new RecordNotFound(`${id} not found`)
    const problem = this.schema.validators.problem(cls.name, 'update', input)
    if (problem) throw new ValidationFailed(problem)
    const patch = input as Record<string, unknown>
    if (patch._id !== undefined && patch._id !== id) throw new ValidationFailed(`'_id' does not match the record being updated (${id})`)
    if (patch._version !== undefined && options.expectVersion !== undefined && patch._version !== options.expectVersion) {
      throw new ValidationFailed("'_version' and the If-Match header disagree")
    }
    const expected = (patch._version as number | undefined) ?? options.expectVersion
    const $set: Record<string, unknown> = {}
    const $unset: Record<string, true> = {}
    for (const [field, value] of Object.entries(patch)) {
      if (systemKeys.includes(field)) continue
      if (value === null) $unset[field] = true
      else $set[field] = value
    }
    await assertReferencesExist(this.store, this.schema, referencesIn(this.schema, cls, $set))
    const collection = this.collectionOf(cls)
    for (let attempt = 0; attempt < updateAttempts; attempt++) {
      // A revision on its way (history/writes.ts) is read too: it must be written before this write replaces it.
      const current: ApiRecord | null = await collection.findById(id, { omit: lookupFields })
      if (!current) throw new RecordNotFound(`${id} not found`)
      if (expected !== undefined && current._version !== expected) {
        throw withHeaders(new VersionConflict(`${id} is at version ${current._version}, not ${expected}; read it again`), { etag: `"${current._version}"` })
      }
      for (const field of keyFields(cls)) {
        if (field in $unset) throw new ValidationFailed(`'${field}' is part of the record's id and cannot change`)
        if (!(field in $set) || $set[field] === current[field]) continue
        if (!cls.metadata.correctable_key.includes(field)) throw new ValidationFailed(`'${field}' is part of the record's id and cannot change`)
        if (!options.correctKey) throw new PermissionDenied(`Permission denied: '${field}' is part of the record's id; only an admin may correct it`)
      }
      const merged: Record<string, unknown> = { ...current, ...$set }
      for (const field of Object.keys($unset)) delete merged[field]
      const stamp = this.now().toISOString()
      const derived = derivedFields(cls, merged)
      const next = { ...merged, ...derived, _updated_at: stamp, _version: current._version + 1 } as RecordOf<N>
      const patch = patchOf(current, next)
      // A write that changes nothing writes nothing: no new version, no revision.
      if (!changesContent(patch)) return strip(current) as RecordOf<N>
      await this.runChecks(cls, merged, id, 'update')
      const update = {
        $set: { ...$set, ...derived, _updated_at: stamp },
        $inc: { _version: 1 },
        ...(Object.keys($unset).length ? { $unset } : {}),
      }
      try {
        const written = keepsHistory(cls)
          ? await this.history.update(collection, current, update, revisionOf(cls, id, next._version, opOf(current, next), patch, stamp, options.actor, options))
          : (await collection.updateOne({ _id: id, _version: current._version }, update)) !== null
        if (written) {
          this.changed(cls, id, 'update')
          return strip(next)
        }
      } catch (error) {
        throw error instanceof DuplicateKeyError ? this.duplicate(cls, id, error) : error
      }
      if (expected !== undefined) {
        throw new VersionConflict(`${id} was changed by someone else; read it again`)
      }
    }
    throw new WriteContended(`${id} is being changed by others too often; try again`)
  }

  /**
   * Rewrites a stored record whole, as a schema migration does (migrations/apply.ts): `transform` gets
   * the record as stored (without its internal fields) and gives it as the files' schema wants it, or
   * the same object to leave it. The result must be a valid record of its class; it is written as any
   * update is, compare-and-set with its revision. False when the record is gone or was left as it was.
   */
  async rewrite(id: string, transform: Transform, by: WriteBy): Promise<boolean> {
    const cls = this.schema.classOfId(id)
    if (!cls) throw new RecordNotFound(`${id} not found`)
    const collection = this.collectionOf(cls)
    for (let attempt = 0; attempt < updateAttempts; attempt++) {
      const current: ApiRecord | null = await collection.findById(id, { omit: lookupFields })
      if (!current) return false
      const write = rewriting(this.schema, cls, current, transform, by.actor, this.now().toISOString())
      if (!write) return false
      const written = write.revision
        ? await this.history.update(collection, current, write.update, write.revision)
        : (await collection.updateOne({ _id: id, _version: current._version }, write.update)) !== null
      if (written) {
        this.changed(cls, id, 'update')
        return true
      }
    }
    throw new WriteContended(`${id} is being changed by others too often; try again`)
  }

  /**
   * Rewrites a batch of records as read (`docs`, of one collection), as `rewrite` does each: on a store
   * with transactions all in one, records and revisions together, which a migration of thousands of
   * records needs (one flush per batch, not per record); record by record where the store has none, or
   * where one of them changed since it was read. Returns how many were rewritten.
   */
  async rewriteMany(docs: readonly Doc[], transform: Transform, by: WriteBy): Promise<number> {
    if (!this.store.atomically) {
      let written = 0
      for (const doc of docs) if (await this.rewrite(doc._id, transform, by)) written++
      return written
    }
    const writes: BatchWrite[] = []
    const changed: [ClassDef, string][] = []
    for (const doc of docs) {
      const cls = this.schema.classOfId(doc._id)
      if (!cls) throw new RecordNotFound(`${doc._id} not found`)
      const current = { ...doc } as ApiRecord
      for (const field of lookupFields) delete current[field]
      const write = rewriting(this.schema, cls, current, transform, by.actor, this.now().toISOString())
      if (!write) continue
      writes.push({ collection: cls.metadata.collection!, update: { _id: doc._id, _version: current._version }, with: write.update })
      if (write.revision) writes.push({ collection: this.history.revisions.name, insert: write.revision })
      changed.push([cls, doc._id])
    }
    if (!writes.length) return 0
    if (!(await this.store.atomically(writes))) {
      let written = 0
      for (const [, id] of changed) if (await this.rewrite(id, transform, by)) written++
      return written
    }
    for (const [cls, id] of changed) this.changed(cls, id, 'update')
    return changed.length
  }

  /** Deletes the record, which no other may reference; kept in the trash where its class keeps history. */
  async remove(id: string, by: WriteBy): Promise<void> {
    const cls = this.schema.classOfId(id)
    if (!cls) throw new RecordNotFound(`${id} not found`)
    const collection = this.collectionOf(cls)
    for (let attempt = 0; attempt < updateAttempts; attempt++) {
      const current: ApiRecord | null = await collection.findById(id, { omit: lookupFields })
      if (!current) throw new RecordNotFound(`${id} not found`)
      await assertUnreferenced(this.store, this.schema, cls, id)
      const removed = keepsHistory(cls)
        ? await this.history.remove(collection, current, revisionOf(cls, id, current._version + 1, 'delete', patchOf(current, null), this.now().toISOString(), by.actor))
        : (await collection.deleteOne({ _id: id })) > 0
      if (removed) {
        this.changed(cls, id, 'delete')
        return
      }
    }
    throw new WriteContended(`${id} is being changed by others too often; try again`)
  }
}
