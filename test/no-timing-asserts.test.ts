import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

/**
 * The suite asserts what the service does, never how fast: an assertion on elapsed time, or a test bound
 * under 30 s, fails whenever the machine is busy with other work (issue 38). Speed is the benchmarks' to
 * measure (npm run bench:*, docs/performance.md). This scan finds the obvious forms so they do not come back:
 * - two clock readings subtracted inside an assertion (`t.ok(Date.now() - started < 20_000)`), or into a
 *   variable an assertion then compares (`const ran = Date.now() - started` ... `t.ok(ran < bound)`);
 * - a tap test's own timeout under 30 s (`t.setTimeout(5000)`, `{ timeout: 5000 }`).
 * A clock reading compared with a stamp the service wrote (`stamp >= before && stamp <= Date.now()`) is a
 * bracket, not a bound, and passes.
 */

const minimumBoundMs = 30_000
const clock = String.raw`(?:Date\.now\(\)|performance\.now\(\)|process\.hrtime(?:\.bigint)?\(\))`
/** A clock reading minus something: an elapsed time. */
const elapsed = new RegExp(String.raw`${clock}\s*-\s*[\w.(]`)
const assertion = /\bt\.(?:ok|notOk|equal|not|same|strictSame|match|assert)\(/
const comparison = /[<>]=?/

/** Every problem in one file's text, as `line: what`; none on a sound file. */
export function timingAsserts(text: string): string[] {
  const found: string[] = []
  const lines = text.split('\n')
  const elapsedNames = new Set<string>()
  for (const line of lines) {
    const named = new RegExp(String.raw`(?:const|let|var)\s+(\w+)\s*=\s*${clock}\s*-`).exec(line)
    if (named) elapsedNames.add(named[1]!)
  }
  lines.forEach((line, i) => {
    const at = `${i + 1}`
    if (assertion.test(line) && elapsed.test(line) && comparison.test(line)) found.push(`${at}: an assertion on elapsed time`)
    for (const name of elapsedNames) {
      if (assertion.test(line) && new RegExp(String.raw`\b${name}\b\s*[<>]|[<>]=?\s*${name}\b`).test(line)) found.push(`${at}: an assertion on elapsed time (${name})`)
    }
    const bound = /\bt\.setTimeout\(\s*([\d_]+)\s*\)|[{,]\s*timeout:\s*([\d_]+)\s*[,}]/.exec(line)
    const ms = bound ? Number((bound[1] ?? bound[2])!.replaceAll('_', '')) : undefined
    if (ms !== undefined && ms < minimumBoundMs) found.push(`${at}: a timeout of ${ms} ms, under ${minimumBoundMs / 1000} s`)
  })
  return found
}

const root = fileURLToPath(new URL('../', import.meta.url))

t.test('no test asserts elapsed time or bounds itself under 30 s', async (t) => {
  const entries = await readdir(join(root, 'test'), { recursive: true, withFileTypes: true })
  const files = entries.filter((e) => e.isFile() && e.name.endsWith('.ts')).map((e) => join(e.parentPath, e.name))
  t.ok(files.length > 100, `${files.length} files read`)
  const problems: string[] = []
  for (const file of files) {
    if (file === fileURLToPath(import.meta.url)) continue
    for (const problem of timingAsserts(await readFile(file, 'utf8'))) problems.push(`${relative(root, file)}:${problem}`)
  }
  t.same(problems, [])
})

t.test('the scan finds what it should, and passes brackets, comments and poll intervals', async (t) => {
  t.same(timingAsserts("t.ok(Date.now() - started < 20_000, 'within 20 s')"), ['1: an assertion on elapsed time'])
  t.same(timingAsserts('const ran = performance.now() - t0\nt.comment(`${ran} ms`)\nif (bench) t.ok(ran < boundMs)'), ['3: an assertion on elapsed time (ran)'])
  t.same(timingAsserts("t.setTimeout(5000)\nt.test('x', { timeout: 10_000 }, async () => {})"), ['1: a timeout of 5000 ms, under 30 s', '2: a timeout of 10000 ms, under 30 s'])
  t.same(timingAsserts([
    "t.ok(stamp >= before && stamp <= Date.now(), 'stamped')",
    't.comment(`${n} deliveries in ${Date.now() - started} ms`)',
    'await new Promise((resolve) => setTimeout(resolve, 50))',
    "t.setTimeout(30_000)",
    "t.test('y', { timeout: 600_000 }, async () => {})",
    "const expired = sign({ expiresIn: 60_000, clockTimestamp: Date.now() - 120_000 })",
  ].join('\n')), [])
})
