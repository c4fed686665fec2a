import { parse } from 'csv-parse'
import { OneRosterPackageError } from './errors.js'
import type { Collection, Page, RowOf } from '../../domain/campus-sync/model.js'
import { collections } from '../../domain/campus-sync/model.js'
import { normalizeRow } from './normalize.js'
import { readPackageFiles, type PackageLimits } from './package-files.js'

export type FileMode = 'bulk' | 'delta' | 'absent'
export type OneRosterVersion = '1.1' | '1.2'

export interface OneRosterPackage {
  readonly version: OneRosterVersion
  /** Per collection, as `file.<name>` in manifest.csv says; a file the manifest does not name is absent. */
  readonly modes: Readonly<Record<Collection, FileMode>>
  /** The rows of one file in pages of `pageSize`; nothing for an absent file. */
  pages<C extends Collection>(collection: C, pageSize?: number): AsyncGenerator<Page<C>>
}

// Exports from spreadsheets and SIS tools carry a byte-order mark and CRLF; quoted cells hold commas
// and line breaks. csv-parse reads all of that per RFC 4180; blank lines at the end are common too. A row
// with too few or too many cells is still read, so the validator reports it instead of the file failing.
const csvOptions = { bom: true, columns: (header: string[]) => header.map((name) => name.trim()), skip_empty_lines: true, relax_column_count: true } as const

/** Opens a OneRoster CSV package (1.1 or 1.2), a directory or a .zip holding manifest.csv. */
export async function openPackage(path: string, limits?: PackageLimits): Promise<OneRosterPackage> {
  const files = await readPackageFiles(path, limits)
  const manifestFile = files.get('manifest.csv')
  if (!manifestFile) throw new OneRosterPackageError('The package has no manifest.csv')
  const manifest = new Map<string, string>()
  for await (const entry of parseCsv('manifest.csv', manifestFile)) {
    const name = entry.propertyName?.trim()
    if (name) manifest.set(name, (entry.value ?? '').trim())
  }
  const modes = {} as Record<Collection, FileMode>
  for (const collection of collections) {
    const mode = (manifest.get(`file.${collection}`) ?? 'absent').toLowerCase()
    if (mode !== 'bulk' && mode !== 'delta' && mode !== 'absent') throw new OneRosterPackageError(`manifest.csv: file.${collection} is "${mode}", not bulk, delta or absent`)
    if (mode !== 'absent' && !files.has(`${collection}.csv`)) throw new OneRosterPackageError(`manifest.csv lists ${collection}.csv as ${mode} but the package has no such file`)
    modes[collection] = mode
  }
  const version = detectVersion(manifest.get('oneroster.version'), files)
  const rolesByUser = version === '1.2' ? await readRoles(files.get('roles.csv')) : new Map<string, Record<string, string | undefined>[]>()

  return {
    version,
    modes,
    async *pages<C extends Collection>(collection: C, pageSize = 500): AsyncGenerator<Page<C>> {
      const file = files.get(`${collection}.csv`)
      if (modes[collection] === 'absent' || !file) return
      let rows: RowOf[C][] = []
      let offset = 0
      for await (const record of parseCsv(`${collection}.csv`, file)) {
        const raw: Record<string, unknown> = { ...record }
        if (collection === 'users' && version === '1.2') raw.roles = rolesByUser.get(record.sourcedId?.trim() ?? '') ?? []
        rows.push(normalizeRow(collection, raw, offset + rows.length + 1))
        if (rows.length === pageSize) {
          yield { collection, offset, rows }
          offset += rows.length
          rows = []
        }
      }
      if (rows.length > 0) yield { collection, offset, rows }
    },
  }
}

/** The manifest says which version; without it, 1.2 is told apart by roles.csv, 1.1 by a role column on users.csv. */
function detectVersion(declared: string | undefined, files: Map<string, Buffer>): OneRosterVersion {
  if (declared === '1.1' || declared === '1.2') return declared
  if (declared) throw new OneRosterPackageError(`manifest.csv: oneroster.version "${declared}" is not 1.1 or 1.2`)
  if (files.has('roles.csv')) return '1.2'
  const users = files.get('users.csv')
  // Header names never hold commas or quotes worth keeping, so the first line is enough.
  const header = users?.toString('utf8', 0, 8192).replace(/^\uFEFF/, '').split(/\r?\n/)[0] ?? ''
  return header.split(',').some((name) => name.trim().replace(/^"|"$/g, '') === 'role') ? '1.1' : '1.2'
}

async function readRoles(file: Buffer | undefined): Promise<Map<string, Record<string, string | undefined>[]>> {
  const byUser = new Map<string, Record<string, string | undefined>[]>()
  if (!file) return byUser
  for await (const record of parseCsv('roles.csv', file)) {
    if (record.status?.trim() === 'tobedeleted') continue
    const user = record.userSourcedId?.trim()
    if (!user) continue
    byUser.set(user, [...(byUser.get(user) ?? []), record])
  }
  return byUser
}

async function* parseCsv(name: string, file: Buffer): AsyncGenerator<Record<string, string | undefined>> {
  const parser = parse(file, csvOptions)
  try {
    for await (const record of parser) yield record as Record<string, string | undefined>
  } catch (error) {
    throw new OneRosterPackageError(`${name} is not readable CSV: ${error instanceof Error ? error.message : String(error)}`)
  }
}
