/**
 * The web app's one visual system (docs/web.md, "The look"): colours, type sizes and spacing are tokens
 * declared once in web/src/style.css's `:root`, every stylesheet uses them rather than literals, and the
 * pairs of colours the app sets text in meet WCAG AA (4.5:1; 3:1 for the focus ring and control borders,
 * which are not text). The print stylesheet is left out: a printed audit is black on white by design.
 */
import { readFile, readdir } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'

const root = fileURLToPath(new URL('../../', import.meta.url))
const webSrc = join(root, 'web/src')
const printSheet = 'degrees/print.css'

async function stylesheets(): Promise<{ path: string; text: string }[]> {
  const entries = await readdir(webSrc, { recursive: true, withFileTypes: true })
  const paths = entries.filter((e) => e.isFile() && e.name.endsWith('.css')).map((e) => relative(webSrc, join(e.parentPath, e.name)))
  return Promise.all(paths.sort().map(async (path) => ({ path, text: await readFile(join(webSrc, path), 'utf8') })))
}

/** The custom properties of the `:root` rule, by name. */
function tokens(css: string): Map<string, string> {
  const rootRule = /:root\s*\{([^}]*)\}/.exec(css)
  const found = new Map<string, string>()
  for (const [, name, value] of rootRule?.[1]!.matchAll(/--([a-z0-9-]+)\s*:\s*([^;]+);/g) ?? []) found.set(name!, value!.trim())
  return found
}

/** A stylesheet without comments and without its `:root` rule, where the tokens are declared. */
function usesOf(css: string): string {
  return css.replace(/\/\*[\s\S]*?\*\//g, '').replace(/:root\s*\{[^}]*\}/, '')
}

function luminance(hex: string): number {
  const digits = hex.slice(1).length === 3 ? [...hex.slice(1)].map((d) => d + d).join('') : hex.slice(1)
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(digits.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light! + 0.05) / (dark! + 0.05)
}

t.test('colours and type sizes are tokens, declared once', async (t) => {
  const sheets = await stylesheets()
  t.ok(sheets.length >= 4, `the stylesheets are read (${sheets.map((s) => s.path).join(', ')})`)
  const declared = tokens(sheets.find((s) => s.path === 'style.css')!.text)
  for (const kind of ['text', 'space']) t.ok([...declared.keys()].some((name) => name.startsWith(`${kind}-`)), `a ${kind} scale is declared`)
  const literals: string[] = []
  const undeclared: string[] = []
  for (const { path, text } of sheets) {
    if (path === printSheet) continue
    const uses = usesOf(text)
    for (const [literal] of uses.matchAll(/#[0-9a-fA-F]{3,8}\b|\brgba?\(|\bhsla?\(/g)) literals.push(`${path}: colour ${literal}`)
    for (const [, value] of uses.matchAll(/font-size\s*:\s*([^;}]+)/g)) if (!/^var\(--text-[a-z0-9-]+\)$/.test(value!.trim())) literals.push(`${path}: font-size ${value!.trim()}`)
    for (const [, name] of uses.matchAll(/var\(--([a-z0-9-]+)/g)) if (!declared.has(name!)) undeclared.push(`${path}: --${name}`)
  }
  t.same(literals, [], 'no colour or font size outside the tokens')
  t.same(undeclared, [], 'every token used is declared')
})

t.test('text colours meet AA on the backgrounds they are set on', async (t) => {
  const declared = tokens(await readFile(join(webSrc, 'style.css'), 'utf8'))
  const colour = (name: string) => {
    const value = declared.get(name)
    t.match(value, /^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/, `--${name} is a colour`)
    return value ?? '#000'
  }
  // [text, background, least ratio]: each pair the stylesheets set together.
  const pairs: [string, string, number][] = [
    ['ink', 'paper', 4.5], ['ink', 'wash', 4.5], ['ink', 'select-wash', 4.5], ['ink', 'warn-wash', 4.5], ['ink', 'danger-wash', 4.5],
    ['muted', 'paper', 4.5], ['muted', 'wash', 4.5], ['muted', 'select-wash', 4.5], ['muted', 'warn-wash', 4.5],
    ['brand', 'paper', 4.5], ['brand-ink', 'brand', 4.5], ['on-brand-muted', 'brand', 4.5],
    ['danger', 'paper', 4.5], ['danger-ink', 'danger-wash', 4.5], ['warn', 'warn-wash', 4.5], ['warn', 'paper', 4.5], ['ok', 'paper', 4.5],
    ['focus', 'paper', 3], ['focus-on-brand', 'brand', 3], ['control-rule', 'paper', 3], ['control-rule', 'wash', 3], ['warn-rule', 'paper', 3],
  ]
  for (const [text, background, least] of pairs) {
    const ratio = contrast(colour(text), colour(background))
    t.ok(ratio >= least, `--${text} on --${background}: ${ratio.toFixed(2)}:1, at least ${least}:1`)
  }
})
