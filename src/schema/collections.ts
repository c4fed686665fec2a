import type { IndexSpec } from '../store/port.js'
import type { ClassDef, Model } from './model.js'

export interface CollectionSpec {
  readonly name: string
  readonly classes: readonly string[]
  readonly indexes: readonly IndexSpec[]
  /** Held apart from the catalog: never served by generic routes, search or the response cache. */
  readonly protected: boolean
}

/** A property that holds ids of records of some class, possibly inside subdocuments (`planned_courses.course`). */
export interface ReferenceField {
  readonly collection: string
  readonly owner: string
  readonly field: string
  readonly target: string
}

function storedClasses(model: Model): ClassDef[] {
  return [...model.classes.values()].filter((c) => !c.abstract && !c.subdocument && c.metadata.collection)
}

export function referenceFields(model: Model): ReferenceField[] {
  const fields: ReferenceField[] = []
  const walk = (owner: ClassDef, cls: ClassDef, prefix: string, seen: Set<string>) => {
    for (const prop of cls.properties) {
      const path = prefix + prop.name
      if (prop.target.kind === 'reference') {
        fields.push({ collection: owner.metadata.collection!, owner: owner.name, field: path, target: prop.target.name })
      } else if (prop.target.kind === 'subdocument' && !seen.has(prop.target.name)) {
        walk(owner, model.classes.get(prop.target.name)!, `${path}.`, new Set([...seen, prop.target.name]))
      }
    }
  }
  for (const cls of storedClasses(model)) walk(cls, cls, '', new Set())
  return fields
}

/**
 * The index a sort walks: the fields in the order and directions asked for (`-` for descending), then
 * `_id`, ascending, as the list routes break ties (records/list-query.ts listSort).
 */
function sortIndex(fields: readonly string[]): IndexSpec {
  const descending = fields.filter((field) => field.startsWith('-')).map((field) => field.slice(1))
  return { fields: [...fields.map((field) => field.replace(/^-/, '')), '_id'], ...(descending.length ? { descending } : {}) }
}

/** The stored field a list filter compares (records/list-query.ts listFilter); `term` reads sections, indexed there. */
function filterField(meaning: string): string | undefined {
  switch (meaning) {
    case '@type': return 'type'
    case '@search': return '_search'
    case '@subject': return '_subject'
    case '@level': return '_level'
    case '@offered_in': return undefined
    default: return meaning
  }
}

/**
 * The indexes the list routes need on MongoDB: one per filter, and one per sort they offer (the default
 * order, and each sortable field either way), so that a page of 50 is read off an index instead of
 * sorting the collection. test/store/indexes.test.ts reads them back from both stores.
 */
function listIndexes(cls: ClassDef): IndexSpec[] {
  const { filters, sortable, default_sort: defaultSort } = cls.metadata
  const indexes: IndexSpec[] = []
  for (const meaning of Object.values(filters)) {
    const field = filterField(meaning)
    if (field) indexes.push({ fields: [field] })
  }
  if (defaultSort.length) indexes.push(sortIndex(defaultSort))
  for (const field of sortable) indexes.push(sortIndex([field]), sortIndex([`-${field}`]))
  return indexes
}

export function collectionSpecs(model: Model): CollectionSpec[] {
  const byName = new Map<string, ClassDef[]>()
  for (const cls of storedClasses(model)) {
    const name = cls.metadata.collection!
    byName.set(name, [...(byName.get(name) ?? []), cls])
  }
  const references = referenceFields(model)
  return [...byName.entries()].map(([name, classes]) => {
    const indexes = new Map<string, IndexSpec>()
    const add = (index: IndexSpec) => {
      const key = `${index.fields.join(',')}/${index.descending?.join(',') ?? ''}`
      if (!indexes.has(key) || index.unique) indexes.set(key, index)
    }
    for (const cls of classes) cls.metadata.indexes.forEach(add)
    for (const cls of classes) listIndexes(cls).forEach(add)
    if (classes.length > 1) add({ fields: ['type'] })
    // Reference fields are what filters, related lists and the delete check look records up by.
    for (const ref of references) if (ref.collection === name) add({ fields: [ref.field] })
    if (classes.some((c) => c.metadata.searchable.length)) add({ fields: ['_search'] })
    return { name, classes: classes.map((c) => c.name), indexes: [...indexes.values()], protected: classes.some((c) => c.metadata.protected === true) }
  })
}
