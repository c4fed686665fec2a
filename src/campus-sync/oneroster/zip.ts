import yauzl from 'yauzl'
import { OneRosterPackageError } from './errors.js'

export interface ZipLimits {
  readonly maxEntryBytes: number
  readonly maxTotalBytes: number
  readonly maxEntries: number
}

/**
 * The CSV files of a zip, by base name (exports sometimes wrap them in one folder). Sizes are checked
 * against the declared size before inflating and again while reading, so a zip bomb stops at the cap.
 */
export function readZipCsvFiles(path: string, limits: ZipLimits): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: true }, (error, zip) => {
      if (error || !zip) return reject(new OneRosterPackageError(`Not a readable zip: ${error?.message ?? 'unknown error'}`))
      const files = new Map<string, Buffer>()
      let total = 0
      let entries = 0
      const fail = (message: string) => {
        zip.close()
        reject(new OneRosterPackageError(message))
      }
      zip.on('error', (cause: Error) => reject(new OneRosterPackageError(`Broken zip: ${cause.message}`)))
      zip.on('end', () => resolve(files))
      zip.on('entry', (entry: yauzl.Entry) => {
        const name = entry.fileName.split('/').pop() ?? ''
        if (entry.fileName.endsWith('/') || !name.toLowerCase().endsWith('.csv')) return zip.readEntry()
        if (++entries > limits.maxEntries) return fail(`Zip holds more than ${limits.maxEntries} CSV files`)
        if (entry.uncompressedSize > limits.maxEntryBytes) return fail(`${name} is over the ${limits.maxEntryBytes}-byte cap`)
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return fail(`Cannot read ${name}: ${streamError?.message ?? 'unknown error'}`)
          const chunks: Buffer[] = []
          let size = 0
          stream.on('data', (chunk: Buffer) => {
            size += chunk.length
            total += chunk.length
            if (size > limits.maxEntryBytes || total > limits.maxTotalBytes) {
              stream.destroy()
              return fail(`${name} takes the package over its size cap`)
            }
            chunks.push(chunk)
          })
          stream.on('error', (cause: Error) => fail(`Cannot read ${name}: ${cause.message}`))
          stream.on('end', () => {
            files.set(name, Buffer.concat(chunks))
            zip.readEntry()
          })
        })
      })
      zip.readEntry()
    })
  })
}
