import type { RowStatus } from '../../domain/campus-sync/model.js'

/**
 * Readers for untrusted field values: everything becomes a trimmed, length-capped string or is left
 * out, so a feed cannot smuggle objects, arrays or megabyte strings into a record (docs/decisions.md, "Calls to outside systems").
 */

const maxFieldLength = 1000

export function text(value: unknown): string | undefined {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (typeof value !== 'string') return undefined
  const trimmed = value.trim().slice(0, maxFieldLength)
  return trimmed === '' ? undefined : trimmed
}

/** A `{sourcedId}` reference (REST) or a bare id (CSV). */
export function refId(value: unknown): string | undefined {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return text((value as Record<string, unknown>).sourcedId)
  return text(value)
}

/** A JSON array of references or strings (REST), or a comma-separated cell (CSV). */
export function list(value: unknown, read: (item: unknown) => string | undefined = text): string[] {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : []
  return items.map(read).filter((item): item is string => item !== undefined)
}

/** OneRoster writes booleans as the strings "true"/"false"; blank means the default. */
export function flag(value: unknown, fallback: boolean): boolean {
  if (typeof value === 'boolean') return value
  const word = text(value)?.toLowerCase()
  return word === undefined ? fallback : word === 'true' || word === '1'
}

/** Bulk CSV rows leave status blank, which means active. Unknown words are kept out as active too. */
export function status(value: unknown): RowStatus {
  const word = text(value)
  return word === 'tobedeleted' || word === 'inactive' ? word : 'active'
}
