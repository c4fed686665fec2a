import { parseCourseCode } from '../domain/course-code.js'
import { weights } from '../domain/search/quality.js'
import type { SearchDocument, SearchField } from '../domain/search/search-index.js'
import type { ApiRecord } from '../records/service.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'

/** The kinds of record search covers, each the resource of one root class. */
export const searchKindRoots = { person: 'Person', course: 'Course', lab: 'Lab' } as const
export type SearchKindName = keyof typeof searchKindRoots

export interface SearchKind {
  readonly name: SearchKindName
  readonly collection: string
  readonly root: ClassDef
  /** The permission that reads the resource, and so its search results. */
  readonly readPermission: string
}

/** The kinds this schema has: a custom schema without one of the root classes simply has no such results. */
export function searchKinds(schema: CompiledSchema): SearchKind[] {
  return (Object.entries(searchKindRoots) as [SearchKindName, string][]).flatMap(([name, rootName]) => {
    const resource = schema.resources.find((r) => r.root.name === rootName)
    if (!resource || !resource.root.metadata.searchable.length) return []
    return [{ name, collection: resource.collection, root: resource.root, readPermission: resource.permissions.read }]
  })
}

const detailLength = 120

/** A one-line excerpt: whitespace collapsed, cut at a word boundary. */
function excerpt(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  if (line.length <= detailLength) return line
  const cut = line.lastIndexOf(' ', detailLength - 1)
  return `${line.slice(0, cut > 0 ? cut : detailLength - 1)}…`
}

/** "GraduateStudent" → "Graduate student". */
function typeName(className: string): string {
  const spaced = className.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase()
  return spaced.charAt(0).toUpperCase() + spaced.slice(1)
}

function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string').join(' ') : ''
}

/** The short second line of a result: a person's title or kind, what a course or lab is about. */
function detailOf(kind: SearchKindName, record: ApiRecord): string {
  switch (kind) {
    case 'person': return textOf(record.title) || typeName(record.type)
    case 'course': return excerpt(textOf(record.description)) || (typeof record.credits === 'number' ? `${record.credits} credits` : '')
    case 'lab': return excerpt(textOf(record.description))
  }
}

/**
 * A record as a search document: labelled by its class's `label` fields, found by its `searchable`
 * ones; the label fields (names, codes, titles) weigh more than the others (emails, descriptions).
 * A course code is also one word ("cs101" finds "CS 101").
 */
export function documentOf(schema: CompiledSchema, kind: SearchKindName, record: ApiRecord): SearchDocument {
  const { label, searchable } = (schema.class(record.type) ?? schema.class(searchKindRoots[kind])!).metadata
  const fields: SearchField[] = searchable.map((field) => ({
    text: textOf(record[field]),
    weight: label.includes(field) ? weights.primary : weights.secondary,
  }))
  const code = typeof record.course_code === 'string' ? parseCourseCode(record.course_code) : undefined
  if (code) fields.push({ text: `${code.subject}${code.level}`, weight: weights.primary })
  return {
    kind, id: record._id, type: record.type,
    label: label.map((field) => textOf(record[field])).filter(Boolean).join(' ') || record._id,
    detail: detailOf(kind, record),
    fields,
  }
}
