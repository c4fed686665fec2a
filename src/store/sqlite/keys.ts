import type { Doc } from '../port.js'
import { candidates, valuesAt } from './match.js'
import { keyKind } from './translate.js'

/**
 * Whether a document holds only a scalar (or nothing) at a field, reached through objects alone: what
 * lets a condition on the field use its expression index, whose one value per document cannot stand
 * for an array's elements.
 */
export function plainAt(doc: Doc, field: string): boolean {
  let value: unknown = doc
  for (const segment of field.split('.')) {
    if (value === null || value === undefined) return true
    if (Array.isArray(value)) return false
    if (typeof value !== 'object') return true
    value = (value as Record<string, unknown>)[segment]
  }
  return value === null || value === undefined || typeof value !== 'object'
}

/**
 * The keys-table rows of a document at a field: one per distinct scalar MongoDB would match there (an
 * array's elements, through arrays of subdocuments too), and a `present` row when the field exists at all.
 */
export function keysOf(doc: Doc, field: string): [kind: number, value: string | number][] {
  const path = field.split('.')
  const rows: [number, string | number][] = []
  if (valuesAt(doc, path).length) rows.push([keyKind.present, ''])
  for (const value of candidates(doc, path)) {
    if (typeof value === 'string') rows.push([keyKind.string, value])
    else if (typeof value === 'number') rows.push([keyKind.number, value])
    else if (typeof value === 'boolean') rows.push([keyKind.boolean, value ? 1 : 0])
  }
  return rows
}
