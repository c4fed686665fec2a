import { MongoBulkWriteError, MongoServerError, type Collection, type Document } from 'mongodb'
import type { Doc } from '../port.js'

const DUPLICATE_KEY = 11000

/**
 * FerretDB 1.x (SQLite backend) answers an update into a taken unique value not with 11000 but with an
 * InternalError carrying SQLite's own message, which names the index as `<table>_<index name>`.
 */
const SQLITE_UNIQUE = /UNIQUE constraint failed(?:: index '([^']+)')?/

export function isDuplicate(error: unknown): error is MongoServerError {
  return error instanceof MongoServerError && (error.code === DUPLICATE_KEY || SQLITE_UNIQUE.test(error.message))
}

function valueAt(doc: Document, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Document)[key] : undefined), doc)
}

/**
 * The fields of the unique index a write ran into. MongoDB says so in `keyPattern`; FerretDB says which
 * index only when an update hit it (in SQLite's message). For an insert or upsert into FerretDB, which
 * says nothing, the written document is checked against each unique index (`_id` first) for another
 * document holding its values. A conflicting document deleted in between leaves the answer empty, which
 * the port allows ("when the adapter can tell").
 */
export async function duplicateFields(raw: Collection<Doc>, error: MongoServerError, written?: Document): Promise<string[]> {
  const bulkError = error instanceof MongoBulkWriteError ? [error.writeErrors].flat()[0] : undefined
  const keyPattern = (error.keyPattern ?? (bulkError?.err as Document | undefined)?.keyPattern) as Document | undefined
  if (keyPattern) return Object.keys(keyPattern)
  const indexes = await raw.listIndexes().toArray()
  const unique = [...indexes.filter((index) => index.name === '_id_'), ...indexes.filter((index) => index.unique)]
  const named = SQLITE_UNIQUE.exec(error.message)?.[1]
  const hit = named && unique.find((index) => typeof index.name === 'string' && named.endsWith(`_${index.name}`))
  if (hit) return Object.keys(hit.key as Document)
  const doc = written ?? bulkError?.getOperation()
  if (!doc) return []
  for (const index of unique) {
    const fields = Object.keys(index.key as Document)
    const values = fields.map((field) => valueAt(doc, field))
    if (values.some((value) => value === undefined || Array.isArray(value))) continue
    const filter: Document = Object.fromEntries(fields.map((field, i) => [field, values[i]]))
    if (!fields.includes('_id')) filter._id = { $ne: doc._id }
    if (await raw.countDocuments(filter, { limit: 1 })) return fields
  }
  return []
}
