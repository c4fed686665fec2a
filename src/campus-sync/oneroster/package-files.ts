import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { OneRosterPackageError } from './errors.js'
import { readZipCsvFiles } from './zip.js'

export interface PackageLimits {
  readonly maxFileBytes: number
  readonly maxTotalBytes: number
}

export const defaultPackageLimits: PackageLimits = { maxFileBytes: 200 * 1024 * 1024, maxTotalBytes: 500 * 1024 * 1024 }

/** The CSV files of a OneRoster package, a directory or a .zip, by base name; sizes capped either way. */
export async function readPackageFiles(path: string, limits: PackageLimits = defaultPackageLimits): Promise<Map<string, Buffer>> {
  let info
  try {
    info = await stat(path)
  } catch {
    throw new OneRosterPackageError(`No OneRoster package at ${path}`)
  }
  if (!info.isDirectory()) return readZipCsvFiles(path, { maxEntryBytes: limits.maxFileBytes, maxTotalBytes: limits.maxTotalBytes, maxEntries: 64 })
  const files = new Map<string, Buffer>()
  let total = 0
  for (const name of await readdir(path)) {
    if (!name.toLowerCase().endsWith('.csv')) continue
    const file = join(path, name)
    const size = (await stat(file)).size
    total += size
    if (size > limits.maxFileBytes || total > limits.maxTotalBytes) throw new OneRosterPackageError(`${name} takes the package over its size cap`)
    files.set(name, await readFile(file))
  }
  return files
}
