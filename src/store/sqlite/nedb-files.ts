import { mkdir, open, readdir, rename } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Doc } from '../port.js'

/**
 * The data files of the embedded store before SQLite: one append-only nedb file per collection, read
 * here without nedb itself so that the package can go once every data directory has been converted.
 */

export interface NedbFile {
  /** The collection's name: the file's name without `.db`. */
  readonly name: string
  readonly path: string
}

const extension = '.db'
/** nedb writes a compacted file under this suffix, then renames it over the data file. */
const compactionSuffix = '~'

/**
 * Every collection's file in `dir`, sorted by name; none when `dir` does not exist (a data directory
 * that never held a nedb store). A compaction temp file stands in for its collection only when the data
 * file is missing, which is the one case nedb reads it too: the rename that should have replaced the
 * data file never happened.
 */
export async function nedbFiles(dir: string): Promise<NedbFile[]> {
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  }
  const files = new Map<string, NedbFile>()
  const leftovers = new Map<string, NedbFile>()
  for (const entry of entries) {
    if (!entry.isFile()) continue
    if (entry.name.endsWith(extension) && entry.name.length > extension.length) {
      const name = entry.name.slice(0, -extension.length)
      files.set(name, { name, path: join(dir, entry.name) })
    } else if (entry.name.endsWith(extension + compactionSuffix) && entry.name.length > extension.length + compactionSuffix.length) {
      const name = entry.name.slice(0, -(extension + compactionSuffix).length)
      leftovers.set(name, { name, path: join(dir, entry.name) })
    }
  }
  for (const [name, leftover] of leftovers) if (!files.has(name)) files.set(name, leftover)
  return [...files.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/**
 * nedb's stand-in for a Date, `{"$$date": <ms>}`, as the ISO string every other time in the store is.
 * nedb turns any object holding the key into the Date, whatever else it holds, and so does this.
 */
function revive(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, '$$date')) return value
  const time = (value as { $$date: unknown }).$$date
  if (typeof time !== 'number' && typeof time !== 'string') throw new Error(`$$date holds ${JSON.stringify(time)}, not a time`)
  const date = new Date(time)
  if (Number.isNaN(date.getTime())) throw new Error(`$$date holds ${JSON.stringify(time)}, not a time`)
  return date.toISOString()
}

type Line =
  | { readonly kind: 'doc'; readonly doc: Doc }
  | { readonly kind: 'deleted'; readonly id: string }
  | { readonly kind: 'index' }

/** What one line of the log says, or an Error saying why it cannot be trusted. */
function parseLine(text: string): Line {
  const value: unknown = JSON.parse(text, revive)
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not a JSON object')
  const record = value as Record<string, unknown>
  if (Object.hasOwn(record, '_id')) {
    const id = record._id
    if (typeof id !== 'string' || id === '') throw new Error(`its _id is ${JSON.stringify(id)}, not a non-empty string`)
    return record.$$deleted === true ? { kind: 'deleted', id } : { kind: 'doc', doc: record as Doc }
  }
  const created = record.$$indexCreated as { fieldName?: unknown } | undefined
  if (created !== null && typeof created === 'object' && created.fieldName != null) return { kind: 'index' }
  if (typeof record.$$indexRemoved === 'string') return { kind: 'index' }
  // nedb skips such a line without a word; it never writes one, so one here means the file is not what it seems.
  throw new Error('neither a document, a deletion nor an index declaration')
}

/**
 * The documents a nedb file holds, as nedb replays its log on load: a later line for an `_id` replaces
 * the earlier, a `$$deleted` line removes it, index declarations are skipped. Documents come in the
 * order their `_id` first appeared (after a deletion, its return counts as a first appearance).
 *
 * Where nedb counts a line it cannot parse as corrupt and carries on below 10% of the file, this refuses
 * the file, naming the line: a conversion must not quietly lose records. Lines end at `\n`, `\r\n` or
 * `\r`, as nedb's do, but not where nedb also splits, at U+0085, U+2028 and U+2029: JSON.stringify
 * leaves those unescaped inside strings, so a document holding one is read whole here where nedb lost it
 * as two corrupt fragments.
 *
 * The file is streamed, as an old audit log can be large; only the documents are held.
 */
export async function readNedbFile(path: string): Promise<Doc[]> {
  const docs = new Map<string, Doc>()
  // Opened first, so that a missing or unreadable file fails here with its own error.
  const handle = await open(path, 'r')
  const input = handle.createReadStream({ encoding: 'utf8', autoClose: false })
  const lines = createInterface({ input, crlfDelay: Infinity })
  let number = 0
  try {
    for await (const text of lines) {
      number++
      if (text.trim() === '') continue
      let line: Line
      try {
        line = parseLine(text)
      } catch (error) {
        throw new Error(`${path}, line ${number}: corrupt (${(error as Error).message}); refusing to read the file`, { cause: error })
      }
      if (line.kind === 'doc') docs.set(line.doc._id, line.doc)
      else if (line.kind === 'deleted') docs.delete(line.id)
    }
  } finally {
    lines.close()
    input.destroy()
    await handle.close()
  }
  return [...docs.values()]
}

/**
 * Makes the renames durable before the caller goes on, so that a power cut cannot bring back files the
 * caller believes are gone. Windows cannot open a directory for this, and needs no such flush.
 */
async function flushDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/**
 * Moves the files (and any compaction temp file left beside one) into `dir/nedb-<stamp>/` and returns
 * that folder, kept for going back to the release before. The folder must not exist yet: an earlier
 * conversion's files are never overwritten.
 */
export async function setAside(dir: string, files: readonly NedbFile[], stamp: string): Promise<string> {
  if (stamp === '' || /[/\\\0]/.test(stamp)) throw new Error(`${JSON.stringify(stamp)} cannot name a folder`)
  const folder = join(dir, `nedb-${stamp}`)
  await mkdir(folder)
  for (const file of files) {
    await rename(file.path, join(folder, basename(file.path)))
    if (!file.path.endsWith(extension)) continue
    try {
      await rename(file.path + compactionSuffix, join(folder, basename(file.path) + compactionSuffix))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  await flushDirectory(folder)
  await flushDirectory(dir)
  return folder
}
