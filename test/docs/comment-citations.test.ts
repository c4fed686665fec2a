import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

/**
 * A comment that rests on a decision cites where the decision is written, and that is in this
 * repository: docs/decisions.md or the doc of its capability (docs/history.md, docs/privacy.md, ...). A
 * newcomer with only the repository can follow every citation. So no file cites a design or security
 * document kept elsewhere ("DESIGN 6.9", "SECURITY.md A"), every `docs/<name>.md` a comment names exists,
 * and every heading it names (`docs/auth.md, "API keys"`, or an anchor `docs/auth.md#api-keys`) is one
 * of that document's headings.
 */

const root = fileURLToPath(new URL('../../', import.meta.url))
const self = relative(root, fileURLToPath(import.meta.url))

/** A citation of a document outside the repository: its sections were "DESIGN x.y" and "SECURITY X". */
const outside = /\bDESIGN(?:\.md\b|\s+\d)|\bSECURITY(?:\.md\b|\s+[A-Z]\b)/g

async function filesUnder(dir: string, extensions: readonly string[]): Promise<string[]> {
  const entries = await readdir(join(root, dir), { recursive: true, withFileTypes: true })
  return entries
    .filter((e) => e.isFile() && extensions.some((ext) => e.name.endsWith(ext)))
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .filter((path) => !path.split('/').includes('node_modules'))
    .sort()
}

const code = (await Promise.all(['src', 'scripts', 'web/src', 'test'].map((dir) => filesUnder(dir, ['.ts', '.tsx', '.js', '.mjs']))))
  .flat().filter((path) => path !== self)
const docs = [...await filesUnder('docs', ['.md']), 'README.md']
const texts = new Map(await Promise.all([...code, ...docs].map(async (path) => [path, await readFile(join(root, path), 'utf8')] as const)))
const text = (path: string) => texts.get(path)!

/** Each match of `pattern` in a file, as `file:line: text`. */
function hits(path: string, pattern: RegExp): string[] {
  const found: string[] = []
  text(path).split('\n').forEach((line, i) => {
    if (line.match(pattern)) found.push(`${path}:${i + 1}: ${line.trim()}`)
  })
  return found
}

t.test('no file cites a design or security document kept outside the repository', async (t) => {
  const found = [...code, ...docs].flatMap((path) => hits(path, outside))
  t.same(found, [], 'cite docs/decisions.md or the capability\'s doc instead')
})

/** The headings of a Markdown document, fenced code left out (its shell comments start with `#` too). */
function headings(markdown: string): string[] {
  let fenced = false
  const found: string[] = []
  for (const line of markdown.split('\n')) {
    if (/^\s*```/.test(line)) fenced = !fenced
    const heading = fenced ? null : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)
    if (heading) found.push(heading[1]!)
  }
  return found
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
const anchor = (heading: string) => heading.toLowerCase().replace(/`/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-')

/** A comment's text with the line breaks of comment blocks taken out, so a citation may wrap. */
const unwrapped = (source: string) => source.replace(/\s*\n\s*(?:\*(?!\/)|\/\/)?\s*/g, ' ')

t.test('every docs/<file>.md the code cites exists, with every heading and anchor it names', async (t) => {
  const missing: string[] = []
  for (const path of code) {
    const source = unwrapped(text(path))
    for (const [, name, hash] of source.matchAll(/\bdocs\/([\w.-]+\.md)(?:#([\w-]+))?/g)) {
      const doc = `docs/${name!}`
      if (!texts.has(doc)) {
        missing.push(`${path}: ${doc} does not exist`)
        continue
      }
      if (hash !== undefined && !headings(text(doc)).map(anchor).includes(hash)) missing.push(`${path}: ${doc} has no heading with the anchor #${hash}`)
    }
    for (const [, name, heading] of source.matchAll(/\bdocs\/([\w.-]+\.md),\s+"([^"]+)"/g)) {
      const doc = `docs/${name!}`
      if (texts.has(doc) && !headings(text(doc)).includes(heading!)) missing.push(`${path}: ${doc} has no heading "${heading!}"`)
    }
  }
  t.same(missing, [], 'each cited document and heading exists')
})

t.test('the heading check reads headings as written and anchors as GitHub makes them', async (t) => {
  t.same(headings('# A\n```sh\n# not one\n```\n## `npm run backup`\n### B ##'), ['A', '`npm run backup`', 'B'])
  t.equal(anchor('Campus sync (OneRoster)'), 'campus-sync-oneroster')
  t.equal(anchor('`npm run backup`'), 'npm-run-backup')
  t.equal(unwrapped(' * (docs/auth.md, "Registering the service with\n * your identity provider")'), ' * (docs/auth.md, "Registering the service with your identity provider")')
})
