import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { Plugin } from 'vite'

/** Text a browser fetches: worth compressing. Fingerprinted images and fonts are compressed already. */
const compressible = /\.(js|css|html|svg|json|txt)$/
/** Below this, the encoding's own bytes eat the gain. */
const leastBytes = 1024
const brotli = promisify(brotliCompress)
const gzipped = promisify(gzip)

/**
 * Writes a Brotli (`.br`) and a gzip (`.gz`) copy beside each text file of the build, once, at build
 * time: the service sends the copy the browser accepts (`preCompressed` of @fastify/static), so no
 * request pays to compress, and the app's first load is about a third of its raw size. The files are
 * read as written, after every other plugin has had its say about their content.
 */
export function precompress(): Plugin {
  return {
    name: 'adks-precompress',
    apply: 'build',
    async writeBundle(options, bundle) {
      const dir = options.dir!
      await Promise.all(Object.keys(bundle).filter((name) => compressible.test(name)).map(async (name) => {
        const bytes = await readFile(join(dir, name))
        if (bytes.length < leastBytes) return
        const params = { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length }
        await writeFile(join(dir, `${name}.br`), await brotli(bytes, { params }))
        await writeFile(join(dir, `${name}.gz`), await gzipped(bytes, { level: 9 }))
      }))
    },
  }
}
