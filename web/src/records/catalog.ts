import { api, type Answer } from '../api/client'
import type { operations, paths } from '../api/schema'

type Query<P extends keyof paths> = paths[P] extends { get: { parameters: { query?: infer Q } } } ? NonNullable<Q> : never

interface ListRoute<P extends keyof paths> {
  /** Whether the list takes `search`; checked against the route's query in the generated types. */
  readonly search: 'search' extends keyof Query<P> ? true : false
  /** Fields the list sorts by, as its route documents them (`sort`). */
  readonly sort: readonly string[]
}

/**
 * The generic record routes' lists. /api/schemas names each class's route (`path`), but not what its list
 * takes: whether it searches and what it sorts by are in the route's own query (the OpenAPI document),
 * so they are written here, where a route losing `search` breaks the type check.
 */
export const listRoutes = {
  '/api/academic-programs': { search: false, sort: ['name'] },
  '/api/courses': { search: true, sort: ['course_code', 'title', 'credits', '_updated_at'] },
  '/api/degrees': { search: false, sort: ['name', 'degree_type'] },
  '/api/groups': { search: false, sort: ['name'] },
  '/api/labs': { search: true, sort: ['name', '_created_at'] },
  '/api/people': { search: true, sort: ['last_name', 'first_name', 'email', 'campus_id', '_updated_at'] },
  '/api/publications': { search: true, sort: ['title', 'year', 'citation_count'] },
  '/api/requirement-groups': { search: false, sort: ['name', 'order'] },
  '/api/requirement-rules': { search: false, sort: ['name', 'rule_type'] },
  '/api/research-centers': { search: true, sort: ['name', 'established_year'] },
  '/api/resources': { search: true, sort: ['name', 'resource_type'] },
  '/api/sections': { search: false, sort: ['term', 'section_number', 'course', '_created_at'] },
} as const satisfies { readonly [P in keyof paths]?: ListRoute<P> }

export type ListPath = keyof typeof listRoutes
type DetailPath = `${ListPath}/{id}`

export type ClassInfo = Answer<operations['listSchemas']>['items'][number]

/** A class whose records these pages manage: it has a generic record route this app knows. */
export interface Managed extends ClassInfo {
  readonly path: ListPath
  /** The list's `type` filter, for a class that shares its route with its relatives (Faculty in /api/people). */
  readonly typeFilter?: string
}

/** A record as the pages show it: its id and fields, whatever its class. */
export type Row = { readonly _id: string; readonly _version?: number; readonly [field: string]: unknown }

const isListPath = (path: string | undefined): path is ListPath => path !== undefined && path in listRoutes

/**
 * Cache rule. Holds: the tab's one answer of GET /api/schemas (class names, paths, inheritance), for
 * the records pages. Invalidated by: a failed request (dropped, so the next page asks again) and the
 * tab's next full load. No write through the API changes it: the class schema is the service's own
 * and changes only with a new deploy, whose index.html (never cached) starts a fresh tab state. It
 * decides no access: each records page also asks an admin-only route and shows its refusal. Test:
 * test/web/admin-records.test.ts reads every list and form through it and compares with the API.
 */
let classes: Promise<ClassInfo[]> | undefined

/** Every class and enum of /api/schemas, asked once per tab (see the rule above). */
export function loadClasses(): Promise<ClassInfo[]> {
  classes ??= api('get', '/api/schemas').then((answer) => answer.items, (error: unknown) => {
    classes = undefined
    throw error
  })
  return classes
}

export function managed(all: readonly ClassInfo[], name: string): Managed | undefined {
  const found = all.find((c) => c.name === name && c.kind === 'Class')
  if (!found || !isListPath(found.path)) return undefined
  const relative = found.inherits?.some((parent) => all.find((c) => c.name === parent)?.path === found.path)
  return { ...found, path: found.path, ...(relative ? { typeFilter: found.name } : {}) }
}

export interface ListQuery {
  readonly limit: number
  readonly offset: number
  readonly sort?: string
  readonly search?: string
  readonly type?: string
}

/** One page of a class's records through its list route. */
export async function listRecords(cls: Managed, query: Omit<ListQuery, 'type'>): Promise<{ items: readonly Row[]; total: number }> {
  const route = listRoutes[cls.path]
  const sent: ListQuery = {
    limit: query.limit,
    offset: query.offset,
    ...(query.sort ? { sort: query.sort } : {}),
    ...(route.search && query.search ? { search: query.search } : {}),
    ...(cls.typeFilter ? { type: cls.typeFilter } : {}),
  }
  // The route is chosen at run time, so its query is one of theirs: it carries only what its entry allows.
  return api('get', cls.path, { query: sent as never })
}

export function getRecord(cls: Managed, id: string): Promise<Row> {
  return api('get', `${cls.path}/{id}` as DetailPath, { path: { id } })
}

/** The body comes from a form generated from the class's schema: its fields are the schema's, not a type's. */
export function createRecord(cls: Managed, body: Readonly<Record<string, unknown>>): Promise<{ _id?: string; id?: string }> {
  return api('post', cls.path, { body: body as never })
}

export function updateRecord(cls: Managed, id: string, body: Readonly<Record<string, unknown>>): Promise<Row> {
  return api('put', `${cls.path}/{id}` as DetailPath, { path: { id }, body: body as never })
}

/** A property name in words, as the schema's titles default to: `course_code` is "Course code". */
export function words(name: string): string {
  const text = name.replace(/^_+/, '').replace(/_/g, ' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

function text(row: Row, name: string): string {
  const value = row[name]
  return typeof value === 'string' || typeof value === 'number' ? String(value) : ''
}

/** How a record is named in lists and pickers: its code and name or title, a person's name, else its id. */
export function labelOf(row: Row): string {
  const person = [text(row, 'first_name'), text(row, 'last_name')].filter(Boolean).join(' ')
  const named = [text(row, 'course_code'), person || text(row, 'name') || text(row, 'title')].filter(Boolean).join(' ')
  return named || row._id
}


/**
 * The records pages are the admins' (docs/web.md, "Admins' records"), but most lists they show are open to every signed-in
 * user. The server decides who is an admin: an admin-only read answers 403 to anyone else, and the
 * pages show that refusal instead of the records.
 */
export async function adminClasses(): Promise<ClassInfo[]> {
  const [all] = await Promise.all([loadClasses(), api('get', '/api/users', { query: { limit: 1 } })])
  return all
}
