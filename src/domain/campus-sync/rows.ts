import type { Mapped, MappedRecord, RowError } from './types.js'

interface RowLike {
  readonly row: number
  readonly sourcedId: string
  readonly status: MappedRecord['status']
}

/**
 * Runs `map` over rows with the checks every kind shares: a row needs a sourcedId, and a sourcedId
 * seen before in the same input is a duplicate (the first one wins, the later ones are reported).
 * `map` returns the record, or a string naming why the row cannot be used.
 */
export function mapRows<R extends RowLike>(rows: readonly R[], map: (row: R, fail: (message: string) => RowError) => MappedRecord | RowError | { skip: string }): Mapped {
  const out: Mapped = { records: [], errors: [], skipped: [] }
  const seen = new Map<string, number>()
  for (const row of rows) {
    const fail = (message: string): RowError => ({ row: row.row, sourced_id: row.sourcedId, message })
    if (row.sourcedId === '') {
      out.errors.push(fail('sourcedId is missing'))
      continue
    }
    const first = seen.get(row.sourcedId)
    if (first !== undefined) {
      out.errors.push(fail(`duplicate sourcedId, first seen on row ${first}`))
      continue
    }
    seen.set(row.sourcedId, row.row)
    const result = map(row, fail)
    if ('skip' in result) out.skipped.push({ row: row.row, sourced_id: row.sourcedId, reason: result.skip })
    else if ('kind' in result) out.records.push(result)
    else out.errors.push(result)
  }
  return out
}

/** Drops undefined values, so an absent field never reads as a change to "nothing". */
export function defined(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined))
}
