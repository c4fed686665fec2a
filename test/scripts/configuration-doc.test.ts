import t from 'tap'
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { EnvSchema } from '../../src/config.js'

const root = fileURLToPath(new URL('../../', import.meta.url))
const doc = await readFile(join(root, 'docs/configuration.md'), 'utf8')

/** The variables a table documents: the `NAME`s in the first cell of each of its rows. */
function documented(markdown: string): Set<string> {
  const names = new Set<string>()
  for (const line of markdown.split('\n')) {
    const first = /^\|([^|]*)\|/.exec(line)?.[1] ?? ''
    for (const [, name] of first.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(name!)
  }
  return names
}

const [serviceSection = '', scriptsSection = ''] = doc.split(/^## Tests and benchmarks$/m)
const service = documented(serviceSection)
const scripts = documented(scriptsSection)

async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(join(root, dir), { recursive: true, withFileTypes: true })
  return entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => join(e.parentPath, e.name))
}

t.test('every variable of the environment schema is documented among the service\'s', async (t) => {
  const keys = Object.keys(EnvSchema.properties)
  t.ok(keys.length > 0)
  t.same(keys.filter((key) => !service.has(key)), [], 'missing from docs/configuration.md')
})

t.test('the service\'s table documents no variable the service does not read', async (t) => {
  const keys = new Set(Object.keys(EnvSchema.properties))
  t.same([...service].filter((name) => !keys.has(name)), [], 'not in src/config.ts')
})

t.test('every process.env variable read in src/ and scripts/ is documented', async (t) => {
  const read = new Set<string>()
  for (const file of [...await sources('src'), ...await sources('scripts')]) {
    const text = await readFile(file, 'utf8')
    for (const [, dotted, quoted] of text.matchAll(/process\.env(?:\.([A-Z][A-Z0-9_]*)|\[['"]([A-Z][A-Z0-9_]*)['"]\])/g)) read.add((dotted ?? quoted)!)
  }
  t.ok(read.size > 0, 'the scripts read some variables')
  t.same([...read].filter((name) => !service.has(name) && !scripts.has(name)).sort(), [], 'missing from docs/configuration.md')
})
