import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes, timingSafeEqual, type CipherGCM, type Hash } from 'node:crypto'
import { createReadStream, createWriteStream } from 'node:fs'
import { open, rename, rm, stat } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import { PassThrough, Transform, type Readable, type Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip, createGzip } from 'node:zlib'

/**
 * The backup file (docs/operations.md), made to be read by a person with standard tools when unencrypted:
 *
 *   one line of JSON, the header, in clear: the format, its version, how the rest is encrypted, and
 *   the SHA-256 of those fields, so that a damaged header is told from a wrong key or another file
 *   the body: gzip of NDJSON, AES-256-GCM encrypted under a key derived from BACKUP_KEY (else
 *   SECRETS_KEY) unless made with --no-encrypt
 *   the trailer: encrypted, the 16-byte GCM tag, the header being its authenticated data; unencrypted,
 *   the 32-byte SHA-256 of all that comes before it. Either way no byte of the file changes unnoticed,
 *   where gzip's own check misses a change to its header's time and flags or to the bits after its
 *   last block.
 *
 * The NDJSON: for each collection a line `{"$collection": name}`, then its documents as relaxed
 * Extended JSON, one per line; last, `{"$manifest": ...}` with each collection's count and the SHA-256
 * of its document lines. A reader checks all of them, and a file cut short lacks the manifest.
 */
export const archiveFormat = 'adks-backup'
export const archiveVersion = 1

export type KeySource = 'BACKUP_KEY' | 'SECRETS_KEY' | 'the data directory\'s development key'

export interface ArchiveHeader {
  readonly format: typeof archiveFormat
  readonly version: number
  readonly created_at: string
  readonly encryption: null | {
    readonly cipher: 'aes-256-gcm'
    readonly key: KeySource
    /** Salt of the key derivation (HKDF-SHA-256), the GCM nonce, and a value that tells the right key from a wrong one. */
    readonly salt: string
    readonly iv: string
    readonly check: string
  }
  /** SHA-256 (hex) of the header's JSON without this field, as written. */
  readonly sha256: string
}

export interface CollectionDigest {
  readonly count: number
  readonly sha256: string
}

export interface Manifest {
  readonly format_version: number
  readonly service_version: string
  /** The moment the backup is consistent to: every write acknowledged before it is in the file, none after. */
  readonly created_at: string
  readonly store: 'embedded' | 'mongodb'
  readonly encrypted: boolean
  readonly schema: { readonly hash: string; readonly definitions: unknown }
  readonly collections: Readonly<Record<string, CollectionDigest>>
}

/** A backup that cannot be made or read, said in one line (the CLI prints it and exits non-zero). */
export class BackupError extends Error {
  override name = 'BackupError'
}

const tagLength = 16
const digestLength = 32

function trailerLength(header: Pick<ArchiveHeader, 'encryption'>): number {
  return header.encryption ? tagLength : digestLength
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

function deriveKey(master: Buffer, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', master, salt, 'adks-backup v1', 32))
}

function keyCheck(key: Buffer): Buffer {
  return createHmac('sha256', key).update('adks-backup key check').digest().subarray(0, 16)
}

export interface ArchiveKey {
  readonly bytes: Buffer
  readonly source: KeySource
}

const chunkBytes = 64 * 1024

/** One collection's documents being written: each line counted and hashed as it goes. */
class Section {
  count = 0
  readonly hash: Hash = createHash('sha256')
  constructor(readonly name: string) {}
}

/** Passes bytes through, adding each to `hash`. */
function hashing(hash: Hash): Transform {
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk)
      done(null, chunk)
    },
  })
}

/**
 * Writes a backup to `file` (through a temporary file beside it, renamed at the end, so a file of that
 * name is always whole). Call `collection`, then `document` for each of its documents, and `finish`.
 */
export class ArchiveWriter {
  private readonly gzip = createGzip()
  private readonly done: Promise<void>
  private readonly sections: Section[] = []
  private readonly header: ArchiveHeader
  private cipher?: CipherGCM
  /** Unencrypted: the SHA-256 of the header line and the gzip written after it, the file's trailer. */
  private digest?: Hash
  private readonly partial: string

  constructor(readonly file: string, createdAt: Date, key: ArchiveKey | null) {
    this.partial = `${file}.partial`
    let encryption: ArchiveHeader['encryption'] = null
    let derived: Buffer | undefined
    let iv: Buffer | undefined
    if (key) {
      const salt = randomBytes(16)
      iv = randomBytes(12)
      derived = deriveKey(key.bytes, salt)
      encryption = { cipher: 'aes-256-gcm', key: key.source, salt: salt.toString('base64'), iv: iv.toString('base64'), check: keyCheck(derived).toString('base64') }
    }
    const fields: Omit<ArchiveHeader, 'sha256'> = { format: archiveFormat, version: archiveVersion, created_at: createdAt.toISOString(), encryption }
    this.header = { ...fields, sha256: sha256Hex(JSON.stringify(fields)) }
    const headerLine = Buffer.from(`${JSON.stringify(this.header)}\n`)
    const out = createWriteStream(this.partial, { mode: 0o600 })
    out.write(headerLine)
    const stages: (Transform | Writable)[] = [this.gzip]
    if (derived && iv) {
      const cipher = createCipheriv('aes-256-gcm', derived, iv)
      cipher.setAAD(headerLine)
      this.cipher = cipher
      stages.push(cipher)
    } else {
      const digest = createHash('sha256').update(headerLine)
      this.digest = digest
      stages.push(hashing(digest))
    }
    this.done = pipeline([...stages, out])
    this.done.catch(() => undefined)
  }

  /**
   * Lines are gathered into chunks of about 64 KB before they go to gzip: each write to zlib is a round
   * trip to its thread pool, and a million small ones cost the backup more than its reads and hashes.
   */
  private pending: string[] = []
  private pendingBytes = 0

  private async line(text: string): Promise<void> {
    this.pending.push(text, '\n')
    this.pendingBytes += text.length + 1
    if (this.pendingBytes >= chunkBytes) await this.flush()
  }

  private async flush(): Promise<void> {
    if (!this.pending.length) return
    const chunk = this.pending.join('')
    this.pending = []
    this.pendingBytes = 0
    if (!this.gzip.write(chunk)) await new Promise<void>((resolve) => this.gzip.once('drain', resolve))
  }

  async collection(name: string): Promise<void> {
    this.sections.push(new Section(name))
    await this.line(JSON.stringify({ $collection: name }))
  }

  /** One document, as one line of relaxed Extended JSON (no line breaks inside). */
  async document(line: string): Promise<void> {
    const section = this.sections.at(-1)
    if (!section) throw new Error('a document before its collection')
    section.count++
    section.hash.update(line).update('\n')
    await this.line(line)
  }

  /** Writes the manifest, closes the file and gives it its name; the manifest as written. */
  async finish(manifest: Omit<Manifest, 'collections' | 'encrypted' | 'format_version'>): Promise<Manifest> {
    const collections = Object.fromEntries(this.sections.map((s) => [s.name, { count: s.count, sha256: s.hash.digest('hex') }]))
    const whole: Manifest = { format_version: archiveVersion, ...manifest, encrypted: this.header.encryption !== null, collections }
    await this.line(JSON.stringify({ $manifest: whole }))
    await this.flush()
    this.gzip.end()
    await this.done
    const handle = await open(this.partial, 'a')
    try {
      await handle.write(this.cipher ? this.cipher.getAuthTag() : this.digest!.digest())
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(this.partial, this.file)
    return whole
  }

  /** Gives up: the partial file is removed. */
  async abort(): Promise<void> {
    this.gzip.destroy()
    await this.done.catch(() => undefined)
    await rm(this.partial, { force: true })
  }
}

const headerStart = Buffer.from(`{"format":"${archiveFormat}"`)

/** Reads the clear header of a backup file: what it is and how it is encrypted. */
export async function readHeader(file: string): Promise<{ header: ArchiveHeader; length: number; size: number }> {
  let size: number
  try {
    size = (await stat(file)).size
  } catch (error) {
    throw new BackupError(`${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`)
  }
  if (size === 0) throw new BackupError(`${file}: the file is empty`)
  const handle = await open(file, 'r')
  const buffer = Buffer.alloc(Math.min(size, 4096))
  try {
    await handle.read(buffer, 0, buffer.length, 0)
  } finally {
    await handle.close()
  }
  // What this service writes first: a file beginning so is a backup, damaged if it does not read as one.
  const prefix = Math.min(buffer.length, headerStart.length)
  const ours = buffer.subarray(0, prefix).equals(headerStart.subarray(0, prefix))
  const end = buffer.indexOf(0x0a)
  if (end < 0) {
    if (!ours) throw new BackupError(`${file}: not a backup of this service (no header line)`)
    throw new BackupError(`${file}: ${size === buffer.length ? 'the backup is truncated (it ends within its header)' : 'the backup\'s header is damaged'}`)
  }
  const first = buffer.subarray(0, end).toString('utf8')
  let header: ArchiveHeader
  try {
    header = JSON.parse(first) as ArchiveHeader
    if (!header || typeof header !== 'object') throw new SyntaxError('not an object')
  } catch {
    throw new BackupError(`${file}: ${ours ? 'the backup\'s header is damaged (it is not JSON)' : 'not a backup of this service (its header is not JSON)'}`)
  }
  // The version first: a newer format may check its header otherwise, and one edited to say so is refused as newer.
  if (header.format === archiveFormat && Number.isInteger(header.version) && header.version > archiveVersion) {
    throw new BackupError(`${file}: backup format ${header.version} is newer than this service reads (${archiveVersion}); restore it with a newer version of the service`)
  }
  const { sha256, ...fields } = header
  if (typeof sha256 === 'string' || ours) {
    if (sha256 !== sha256Hex(JSON.stringify(fields))) throw new BackupError(`${file}: the backup's header is damaged (it does not match its checksum)`)
  }
  if (header.format !== archiveFormat || !Number.isInteger(header.version)) throw new BackupError(`${file}: not a backup of this service`)
  return { header, length: end + 1, size }
}

/** One entry of a backup being read: a collection's start, one of its documents, or the manifest at the end. */
export type ArchiveEntry =
  | { readonly kind: 'collection'; readonly name: string }
  | { readonly kind: 'document'; readonly collection: string; readonly line: string }

const developmentKey: KeySource = 'the data directory\'s development key'

/** The key a header asks for, or a one-line refusal naming what is missing or wrong. */
function keyFor(file: string, header: ArchiveHeader, keys: readonly ArchiveKey[]): Buffer | null {
  const encryption = header.encryption
  if (!encryption) return null
  if (!keys.length) {
    throw new BackupError(encryption.key === developmentKey
      ? `${file}: the backup is encrypted under the development key of the data directory it was made in, and no key is set; copy that directory's secrets-key file into DATA_DIR, or set BACKUP_KEY to what it holds`
      : `${file}: the backup is encrypted under ${encryption.key} and no key is set; set BACKUP_KEY (or SECRETS_KEY) to the key it was made under`)
  }
  const salt = Buffer.from(encryption.salt, 'base64')
  const check = Buffer.from(encryption.check, 'base64')
  for (const key of keys) {
    const derived = deriveKey(key.bytes, salt)
    const mine = keyCheck(derived)
    if (mine.length === check.length && timingSafeEqual(mine, check)) return derived
  }
  const tried = keys.map((key) => key.source === developmentKey ? 'this data directory\'s development key' : `the ${key.source} set`).join(' nor ')
  const made = encryption.key === developmentKey ? 'a data directory\'s development key' : `a ${encryption.key}`
  throw new BackupError(`${file}: wrong key: the backup was made under ${made} that is not ${tried}`)
}

/** A fault of the caller's `onEntry` (a store that refuses a write), passed on as it is. */
class EntryFault {
  constructor(readonly error: unknown) {}
}

/**
 * Reads a backup from start to end, checking everything: the header's checksum, the key, the GCM tag
 * (or, unencrypted, the file's SHA-256), gzip's own checksum, and each collection's count and SHA-256
 * against the manifest. `onEntry` hears every entry as it is read; the manifest is returned only once
 * all of it has been checked, and any fault of the file throws a BackupError (one of `onEntry`'s own
 * is thrown as it is), so a caller that writes only after this returns writes nothing from a bad file.
 */
export async function readArchive(file: string, keys: readonly ArchiveKey[], onEntry?: (entry: ArchiveEntry) => void | Promise<void>): Promise<Manifest> {
  const { header, length, size } = await readHeader(file)
  const derived = keyFor(file, header, keys)
  const bodyEnd = size - trailerLength(header)
  if (bodyEnd <= length) throw new BackupError(`${file}: the backup is truncated`)
  // The header line as it is in the file (the tag's authenticated data, the digest's first bytes) and the trailer.
  const headerBytes = Buffer.alloc(length)
  const trailer = Buffer.alloc(size - bodyEnd)
  const handle = await open(file, 'r')
  try {
    await handle.read(headerBytes, 0, length, 0)
    await handle.read(trailer, 0, trailer.length, bodyEnd)
  } finally {
    await handle.close()
  }
  const source: Readable = createReadStream(file, { start: length, end: bodyEnd - 1 })
  const stages: Transform[] = []
  const digest = derived ? undefined : createHash('sha256').update(headerBytes)
  if (derived && header.encryption) {
    const decipher = createDecipheriv('aes-256-gcm', derived, Buffer.from(header.encryption.iv, 'base64'))
    decipher.setAuthTag(trailer)
    decipher.setAAD(headerBytes)
    stages.push(decipher)
  } else {
    stages.push(hashing(digest!))
  }
  const gunzip = createGunzip()
  const text = new PassThrough()
  const reading = pipeline([source, ...stages, gunzip, text])
  let manifest: Manifest | undefined
  const seen = new Map<string, Section>()
  let current: Section | undefined
  let failure: unknown
  const lines = createInterface({ input: text, crlfDelay: Infinity })
  // The interface repeats its input's error as its own, which would go unheard once the loop below has
  // left (a bad line found first): the pipeline's promise carries that error.
  lines.on('error', () => undefined)
  try {
    for await (const line of lines) {
      if (manifest) throw new BackupError(`${file}: the backup is damaged (data after its manifest)`)
      if (line.startsWith('{"$collection":')) {
        const name = (JSON.parse(line) as { $collection: string }).$collection
        if (seen.has(name)) throw new BackupError(`${file}: the backup is damaged (collection ${name} is in it twice)`)
        current = new Section(name)
        seen.set(name, current)
        await hear(onEntry, { kind: 'collection', name })
      } else if (line.startsWith('{"$manifest":')) {
        manifest = (JSON.parse(line) as { $manifest: Manifest }).$manifest
      } else {
        if (!current) throw new BackupError(`${file}: the backup is damaged (a document before any collection)`)
        current.count++
        current.hash.update(line).update('\n')
        await hear(onEntry, { kind: 'document', collection: current.name, line })
      }
    }
    await reading
  } catch (error) {
    failure = error
  }
  if (failure) {
    reading.catch(() => undefined)
    source.destroy()
    if (failure instanceof EntryFault) throw failure.error
    if (failure instanceof BackupError) throw failure
    throw new BackupError(`${file}: ${describeReadFault(failure)}`)
  }
  if (digest && !digest.digest().equals(trailer)) throw new BackupError(`${file}: the backup is damaged or truncated (it does not match its checksum)`)
  if (!manifest) throw new BackupError(`${file}: the backup is truncated (it ends before its manifest)`)
  for (const [name, expected] of Object.entries(manifest.collections)) {
    const section = seen.get(name)
    if (!section) throw new BackupError(`${file}: the backup is damaged (collection ${name} is missing)`)
    const sha256 = section.hash.digest('hex')
    if (section.count !== expected.count || sha256 !== expected.sha256) throw new BackupError(`${file}: the backup is damaged (collection ${name} does not match its checksum)`)
  }
  for (const name of seen.keys()) if (!(name in manifest.collections)) throw new BackupError(`${file}: the backup is damaged (collection ${name} is not in its manifest)`)
  if (manifest.format_version > archiveVersion) throw new BackupError(`${file}: backup format ${manifest.format_version} is newer than this service reads (${archiveVersion})`)
  return manifest
}

async function hear(onEntry: ((entry: ArchiveEntry) => void | Promise<void>) | undefined, entry: ArchiveEntry): Promise<void> {
  try {
    await onEntry?.(entry)
  } catch (error) {
    throw new EntryFault(error)
  }
}

function describeReadFault(error: unknown): string {
  const message = (error as Error).message ?? String(error)
  const code = (error as { code?: string }).code
  if (/unable to authenticate|unsupported state/i.test(message)) return 'the backup is damaged, truncated or altered (its authentication tag does not match)'
  if (code === 'Z_BUF_ERROR' || /unexpected end of file/i.test(message)) return 'the backup is truncated or damaged'
  if (code === 'Z_DATA_ERROR' || /incorrect (header|data) check|invalid/i.test(message)) return 'the backup is damaged (its compressed data does not check)'
  if (error instanceof SyntaxError) return 'the backup is damaged (a line is not JSON)'
  return `the backup cannot be read: ${message}`
}
