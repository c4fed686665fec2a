import { RecordReferenced, ReferenceNotFound, type AppError } from '../errors.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'
import { where, type Store } from '../store/port.js'

export interface Found {
  readonly field: string
  readonly id: string
}

/** Every reference in a record, with the field it sits in (`advisors[1]`, `planned_courses[0].course`). */
export function referencesIn(schema: CompiledSchema, cls: ClassDef, record: Readonly<Record<string, unknown>>, prefix = ''): Found[] {
  const found: Found[] = []
  for (const prop of cls.properties) {
    const value = record[prop.name]
    if (value === undefined || value === null) continue
    const values = Array.isArray(value) ? value : [value]
    values.forEach((item, i) => {
      const field = `${prefix}${prop.name}${Array.isArray(value) ? `[${i}]` : ''}`
      if (prop.target.kind === 'reference' && typeof item === 'string') found.push({ field, id: item })
      if (prop.target.kind === 'subdocument' && item && typeof item === 'object') {
        found.push(...referencesIn(schema, schema.class(prop.target.name)!, item as Record<string, unknown>, `${field}.`))
      }
    })
  }
  return found
}

/** A reference to a record that does not exist is a 400 naming the field and the id. */
export async function assertReferencesExist(store: Store, schema: CompiledSchema, refs: readonly Found[]): Promise<void> {
  const existing = await existingIds(store, schema, refs.map((ref) => ref.id))
  const problem = missingReference(schema, refs, (id) => existing.has(id))
  if (problem) throw problem
}

/** Which of these ids name stored records: one read per collection, whatever the number of ids. */
export async function existingIds(store: Store, schema: CompiledSchema, ids: Iterable<string>): Promise<Set<string>> {
  const byCollection = new Map<string, Set<string>>()
  for (const id of ids) {
    const collection = schema.classOfId(id)?.metadata.collection
    if (collection) byCollection.set(collection, (byCollection.get(collection) ?? new Set()).add(id))
  }
  const existing = new Set<string>()
  for (const [collection, wanted] of byCollection) {
    for (const doc of await store.collection(collection).find({ _id: { $in: [...wanted] } }, { omit: ['_search'] })) existing.add(doc._id)
  }
  return existing
}

/**
 * The 400 for the first reference that names no record id, else for the first (in the order of the
 * collections referred to) that `exists` does not know; undefined when every reference resolves.
 */
export function missingReference(schema: CompiledSchema, refs: readonly Found[], exists: (id: string) => boolean): AppError | undefined {
  const byCollection = new Map<string, Found[]>()
  for (const ref of refs) {
    const target = schema.classOfId(ref.id)
    if (!target) return new ReferenceNotFound(`'${ref.field}' refers to ${ref.id}, which is not a record id`)
    const collection = target.metadata.collection!
    byCollection.set(collection, [...(byCollection.get(collection) ?? []), ref])
  }
  for (const wanted of byCollection.values()) {
    const missing = wanted.find((ref) => !exists(ref.id))
    if (missing) return new ReferenceNotFound(`'${missing.field}' refers to ${missing.id}, which does not exist`)
  }
  return undefined
}

const shownReferrers = 5

/**
 * Deleting a record that others reference is a 409 listing (some of) the referrers. The record's
 * references to itself (a course among its own prerequisites) go with it and do not count. Referrers in
 * a protected collection (enrollments) are counted but never named: their ids say who took which course.
 */
export async function assertUnreferenced(store: Store, schema: CompiledSchema, cls: ClassDef, id: string): Promise<void> {
  const referrers: string[] = []
  let total = 0
  for (const ref of schema.referrersOf(cls.name)) {
    const filter = where(ref.field, id, { type: ref.owner, _id: { $ne: id } })
    const docs = await store.collection(ref.collection).find(filter, { limit: shownReferrers, omit: ['_search'] })
    if (!docs.length) continue
    if (!schema.collections.some((c) => c.name === ref.collection && c.protected)) referrers.push(...docs.map((doc) => doc._id))
    total += docs.length < shownReferrers ? docs.length : await store.collection(ref.collection).count(filter)
  }
  if (!total) return
  const listed = [...new Set(referrers)].slice(0, shownReferrers)
  const named = listed.length
    ? `${listed.join(', ')}${total > listed.length ? ` and ${total - listed.length} more` : ''}`
    : `${total} protected record${total === 1 ? '' : 's'}`
  throw new RecordReferenced(`${id} is still referenced by ${named}; remove those references first`)
}
