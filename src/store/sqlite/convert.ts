import { access, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { nedbFiles, readNedbFile, setAside } from './nedb-files.js'
import type { Store } from '../port.js'
import { openDatabase, type Database } from './database.js'

/** Documents written per transaction while converting: a long audit trail goes in as several. */
const batch = 5000

const convertedKey = 'converted_from_nedb'

async function exists(path: string): Promise<boolean> {
  return access(path).then(() => true, () => false)
}

/**
 * Brings a data directory written by the release before this one (one NeDB file per collection) into
 * the SQLite database, at the first start on it. Every document goes in as the old store read it (ids,
 * versions and the audit chain's hashes untouched); the database is written under a temporary name and
 * renamed only once complete, so a conversion cut short starts again from the old files, which are then
 * set aside in `nedb-<time>/` rather than deleted.
 */
export async function convertPreviousRelease(
  dir: string, fileName: string, log: (message: string) => void,
  storeOn: (db: Database) => Store & { meta(key: string, value: string): void },
): Promise<void> {
  const files = await nedbFiles(dir)
  if (!files.length) return
  const target = join(dir, fileName)
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  if (await exists(target)) {
    // A conversion that completed, stopped before it set the old files aside.
    const db = openDatabase(target)
    const converted = db.prepare('SELECT value FROM adks_meta WHERE key = ?').pluck().get(convertedKey)
    db.close()
    if (converted) log(`previous release's files set aside in ${await setAside(dir, files, stamp)} (already converted)`)
    else log(`DATA_DIR ${dir} holds both ${fileName} and files of the previous release (${files.map((f) => f.name).join(', ')}); the files were left alone`)
    return
  }
  const temporary = `${target}.converting`
  for (const suffix of ['', '-wal', '-shm']) await rm(`${temporary}${suffix}`, { force: true })
  const store = storeOn(openDatabase(temporary))
  const counts: string[] = []
  let total = 0
  try {
    for (const file of files) {
      const docs = await readNedbFile(file.path)
      const collection = store.collection(file.name)
      for (let i = 0; i < docs.length; i += batch) await collection.insertMany(docs.slice(i, i + batch))
      counts.push(`${file.name} ${docs.length}`)
      total += docs.length
    }
    store.meta(convertedKey, JSON.stringify({ at: new Date().toISOString(), collections: Object.fromEntries(counts.map((c) => c.split(' '))) }))
  } finally {
    await store.close()
  }
  await rename(temporary, target)
  const aside = await setAside(dir, files, stamp)
  log(`converted DATA_DIR ${dir} from the previous release: ${total} documents in ${files.length} collections (${counts.join(', ')}); the old files are kept in ${aside}`)
}
