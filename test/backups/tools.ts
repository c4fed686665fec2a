import { EJSON } from 'bson'
import { execFile } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import type { Test } from 'tap'
import { readArchive, type ArchiveKey } from '../../src/backups/archive.js'
import type { Config } from '../../src/config.js'
import { MongoStore } from '../../src/store/mongo/store.js'
import type { Doc, Store } from '../../src/store/port.js'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import { projectRoot } from '../process/server-process.js'
import { tempDir } from '../helpers/temp-dir.js'

/** The MongoDB-wire server of the suites' second pass; unset, only the embedded store is used. */
export const mongodbUrl = process.env.MONGODB_URL

/** A key as BACKUP_KEY takes it, with the same key as the reader is given it. */
export function newKey(): { hex: string; key: ArchiveKey } {
  const bytes = randomBytes(32)
  return { hex: bytes.toString('hex'), key: { bytes, source: 'BACKUP_KEY' } }
}

export interface Run {
  readonly code: number | null
  readonly stdout: string
  readonly stderr: string
}

/** `npm run backup` or `npm run restore` as the operator runs it: a process of its own, with only this environment. */
export function runScript(script: 'backup' | 'restore', args: readonly string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', `scripts/${script}.ts`, ...args],
      { cwd: projectRoot, env: { PATH: process.env.PATH, NODE_ENV: 'test', LOG_LEVEL: 'silent', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }))
  })
}

/** Where a script finds a store: a data directory, and on the MongoDB pass a database of that server. */
export interface Target {
  readonly kind: 'embedded' | 'mongodb'
  readonly env: Record<string, string>
  open(): Promise<Store>
}

let databases = 0

/** A fresh, empty store of the kind asked for, removed when the test ends. */
export async function newTarget(t: Test, kind: 'embedded' | 'mongodb'): Promise<Target> {
  const database = `adks_backup_${process.pid}_${databases++}`
  const dataDir = await tempDir(t, async () => {
    if (kind === 'mongodb') await dropDatabase(database)
  })
  if (kind === 'embedded') return { kind, env: { DATA_DIR: dataDir }, open: () => EmbeddedStore.open(dataDir, []) }
  const url = mongodbUrl!
  return { kind, env: { DATA_DIR: dataDir, MONGODB_URL: url, MONGODB_DB: database }, open: () => MongoStore.open(url, database) }
}

/** The environment the scripts need to reach a test app's store (test/helpers/app.ts). */
export function envOf(config: Config): Record<string, string> {
  return { DATA_DIR: config.dataDir, ...(config.mongodbUrl ? { MONGODB_URL: config.mongodbUrl, MONGODB_DB: config.mongodbDb } : {}) }
}

async function dropDatabase(database: string): Promise<void> {
  const store = await MongoStore.open(mongodbUrl!, database)
  await store.dropDatabase()
  await store.close()
}

export type Contents = Record<string, Doc[]>

/** Every document of every collection that holds any, in `_id` order, as plain JSON. */
export async function contentsOf(store: Store): Promise<Contents> {
  const contents: Contents = {}
  for (const name of await store.collectionNames()) {
    const docs = await store.collection(name).find({}, { sort: [['_id', 1]] })
    if (docs.length) contents[name] = JSON.parse(JSON.stringify(docs)) as Doc[]
  }
  return contents
}

/** The same of a store opened for the reading alone (a script's, once it has exited). */
export async function contentsAt(target: Target): Promise<Contents> {
  const store = await target.open()
  try {
    return await contentsOf(store)
  } finally {
    await store.close()
  }
}

/** What a backup holds, read as a restore reads it. */
export async function archiveContents(file: string, keys: readonly ArchiveKey[]): Promise<Contents> {
  const contents: Contents = {}
  await readArchive(file, keys, (entry) => {
    if (entry.kind === 'collection') contents[entry.name] = []
    else contents[entry.collection]!.push(EJSON.parse(entry.line, { relaxed: true }) as Doc)
  })
  for (const [name, docs] of Object.entries(contents)) {
    if (docs.length) contents[name] = JSON.parse(JSON.stringify(docs)) as Doc[]
    else delete contents[name]
  }
  return contents
}
