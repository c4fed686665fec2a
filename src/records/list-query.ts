import { words } from '../domain/text.js'
import { ValidationFailed } from '../errors.js'
import type { ClassDef, CompiledSchema, Resource } from '../schema/index.js'
import { where, type Filter, type SortSpec } from '../store/port.js'
import type { RecordService } from './service.js'

export interface ListParams {
  readonly limit: number
  readonly offset: number
  readonly sort?: string
  readonly [filter: string]: unknown
}

/** The classes a `type` filter value stands for: a concrete class, or every concrete class under an abstract one. */
export function typesFor(schema: CompiledSchema, resource: Resource, value: string): string[] {
  const cls = schema.class(value)
  const types = cls ? cls.concrete.filter((name) => resource.classes.includes(name)) : []
  if (!types.length) throw new ValidationFailed(`'type' must be one of: ${typeNames(schema, resource).join(', ')}`)
  return types
}

export function typeNames(schema: CompiledSchema, resource: Resource): string[] {
  const abstract = [...schema.model.classes.values()].filter((c) => c.abstract && c.concrete.length && c.concrete.every((n) => resource.classes.includes(n)) && c.name !== resource.root.name)
  return [...resource.classes, ...abstract.map((c) => c.name)]
}

/** Builds the store filter for a list request from the filters the resource declares. */
export async function listFilter(schema: CompiledSchema, records: RecordService, resource: Resource, params: ListParams): Promise<Filter> {
  const clauses: Filter[] = []
  for (const [param, meaning] of Object.entries(resource.root.metadata.filters)) {
    const value = params[param]
    if (value === undefined || value === '') continue
    switch (meaning) {
      case '@type':
        clauses.push({ type: { $in: typesFor(schema, resource, String(value)) } })
        break
      case '@search': {
        const terms = words(String(value)).slice(0, 8)
        for (const term of terms) clauses.push({ _search: { $prefix: term } })
        break
      }
      case '@subject':
        clauses.push({ _subject: String(value).toUpperCase() })
        break
      case '@level':
        clauses.push({ _level: { $gte: Number(value), $lt: Number(value) + 100 } })
        break
      case '@offered_in': {
        const sections = await records.find(schema.class('Section')!, { term: String(value) })
        clauses.push({ _id: { $in: [...new Set(sections.flatMap((s) => (typeof s.course === 'string' ? [s.course] : [])))] } })
        break
      }
      default:
        // The route's query schema allows one scalar per filter; anything else (an operator object) is refused here too.
        if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') throw new ValidationFailed(`'${param}' must be one value`)
        clauses.push(where(meaning, value))
    }
  }
  return clauses.length === 0 ? {} : clauses.length === 1 ? clauses[0]! : { $and: clauses }
}

/** The collections a list's answer is computed from: its own, and those its filters read (`term` reads sections). */
export function collectionsRead(schema: CompiledSchema, resource: Resource): string[] {
  const read = [resource.collection]
  if (Object.values(resource.root.metadata.filters).includes('@offered_in')) read.push(schema.class('Section')!.metadata.collection!)
  return read
}

/** `sort=last_name,-year`: fields the class lists as sortable, `-` for descending; `_id` breaks ties. */
export function listSort(cls: ClassDef, sort: string | undefined): SortSpec {
  const fields = sort ? sort.split(',').filter(Boolean) : cls.metadata.default_sort
  const spec: [string, 1 | -1][] = []
  for (const field of fields) {
    const name = field.replace(/^-/, '')
    if (!cls.metadata.sortable.includes(name) && !cls.metadata.default_sort.some((f) => f.replace(/^-/, '') === name)) {
      throw new ValidationFailed(`cannot sort by '${name}'; sortable fields: ${cls.metadata.sortable.join(', ')}`)
    }
    if (!spec.some(([f]) => f === name)) spec.push([name, field.startsWith('-') ? -1 : 1])
  }
  spec.push(['_id', 1])
  return spec
}
