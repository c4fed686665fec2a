import { assertFilter, escapeRegExp } from '../filter-check.js'
import type { Doc, Filter, Operators, Scalar, SortSpec } from '../port.js'

/**
 * The embedded store's one filter engine: reads, counts, updates and deletes all find their documents
 * with the predicate compiled here, which has MongoDB's semantics (nedb's own matcher differs from it on
 * arrays, and is used only to address documents by `_id`). nedb's cursor also deep-copies every match
 * and re-reads dotted paths at each comparison of a sort, which made a sorted page of 50 people cost
 * milliseconds; here the filter is compiled once, a sort compares precomputed keys, and only the
 * documents returned are copied.
 */

type Predicate = (doc: Doc) => boolean

/** The values at a dotted path; through an array, the values of each element (MongoDB's reading). */
export function valuesAt(doc: unknown, path: readonly string[], from = 0): unknown[] {
  if (from === path.length) return [doc]
  if (doc === null || typeof doc !== 'object') return []
  if (Array.isArray(doc)) return doc.flatMap((item) => valuesAt(item, path, from))
  const next = (doc as Record<string, unknown>)[path[from]!]
  if (next === undefined) return []
  return valuesAt(next, path, from + 1)
}

/** A field's candidate values for matching: an array field offers each element (and the array itself is not a scalar). */
export function candidates(doc: Doc, path: readonly string[]): unknown[] {
  return valuesAt(doc, path).flatMap((value) => (Array.isArray(value) ? value : [value]))
}

function comparable(a: unknown, b: Scalar): boolean {
  return (typeof a === 'string' && typeof b === 'string') || (typeof a === 'number' && typeof b === 'number')
}

type Test = (value: unknown) => boolean

/**
 * Whether any of a field's candidate values passes a test. A top-level field (the common case) is read
 * directly, with no list of candidates made for each document a filter looks at.
 */
function anyCandidate(path: readonly string[]): (doc: Doc, test: Test) => boolean {
  if (path.length > 1) return (doc, test) => candidates(doc, path).some(test)
  const field = path[0]!
  return (doc, test) => {
    const value = doc[field]
    if (value === undefined) return false
    return Array.isArray(value) ? value.some(test) : test(value)
  }
}

function fieldPredicate(field: string, condition: Scalar | Operators): Predicate {
  const path = field.split('.')
  const any = anyCandidate(path)
  if (typeof condition !== 'object') {
    const equal: Test = (v) => v === condition
    return (doc) => any(doc, equal)
  }
  const tests: Predicate[] = []
  for (const [op, operand] of Object.entries(condition)) {
    if (operand === undefined) continue
    switch (op) {
      case '$eq': {
        const equal: Test = (v) => v === operand
        tests.push((doc) => any(doc, equal))
        break
      }
      case '$ne': {
        const equal: Test = (v) => v === operand
        tests.push((doc) => !any(doc, equal))
        break
      }
      case '$in':
      case '$nin': {
        const set = new Set(operand as Scalar[])
        const member: Test = (v) => set.has(v as Scalar)
        tests.push(op === '$in' ? (doc) => any(doc, member) : (doc) => !any(doc, member))
        break
      }
      case '$gt': {
        const above: Test = (v) => comparable(v, operand) && (v as Scalar) > operand
        tests.push((doc) => any(doc, above))
        break
      }
      case '$gte': {
        const atLeast: Test = (v) => comparable(v, operand) && (v as Scalar) >= operand
        tests.push((doc) => any(doc, atLeast))
        break
      }
      case '$lt': {
        const below: Test = (v) => comparable(v, operand) && (v as Scalar) < operand
        tests.push((doc) => any(doc, below))
        break
      }
      case '$lte': {
        const atMost: Test = (v) => comparable(v, operand) && (v as Scalar) <= operand
        tests.push((doc) => any(doc, atMost))
        break
      }
      case '$exists': tests.push((doc) => (valuesAt(doc, path).length > 0) === operand); break
      case '$prefix':
      case '$iprefix': {
        const pattern = new RegExp(`^${escapeRegExp(operand as string)}`, op === '$iprefix' ? 'iu' : 'u')
        const starts: Test = (v) => typeof v === 'string' && pattern.test(v)
        tests.push((doc) => any(doc, starts))
        break
      }
      default: throw new TypeError(`unsupported operator ${op}`)
    }
  }
  return tests.length === 1 ? tests[0]! : (doc) => tests.every((test) => test(doc))
}

function compileInner(filter: Filter): Predicate {
  const parts: Predicate[] = []
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue
    if (key === '$or') {
      const any = (value as Filter[]).map(compileInner)
      parts.push((doc) => any.some((p) => p(doc)))
    } else if (key === '$and') {
      const all = (value as Filter[]).map(compileInner)
      parts.push((doc) => all.every((p) => p(doc)))
    } else {
      parts.push(fieldPredicate(key, value as Scalar | Operators))
    }
  }
  return parts.length === 1 ? parts[0]! : (doc) => parts.every((p) => p(doc))
}

export const always: Predicate = () => true

/** The filter as a predicate; an empty filter is `always`, which callers may test for to skip the scan. */
export function compile(filter: Filter): Predicate {
  assertFilter(filter)
  const predicate = compileInner(filter)
  return Object.keys(filter).length ? predicate : always
}

/** A top-level condition an index can answer: the field and the values it may hold. */
export function indexable(filter: Filter): { field: string; values: Scalar[] }[] {
  const found: { field: string; values: Scalar[] }[] = []
  for (const [field, condition] of Object.entries(filter)) {
    if (field.startsWith('$') || condition === undefined) continue
    if (typeof condition !== 'object') found.push({ field, values: [condition as Scalar] })
    else if ('$eq' in condition && condition.$eq !== undefined) found.push({ field, values: [condition.$eq] })
    else if ('$in' in condition && Array.isArray(condition.$in)) found.push({ field, values: [...condition.$in] })
  }
  return found
}

/** Missing values first, then numbers, then strings, then the rest: the order MongoDB and nedb share. */
function rank(value: unknown): number {
  if (value === undefined || value === null) return 0
  if (typeof value === 'number') return 1
  if (typeof value === 'string') return 2
  return 3
}

function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a)
  const rb = rank(b)
  if (ra !== rb) return ra - rb
  if (ra === 1 || ra === 2) return (a as Scalar) < (b as Scalar) ? -1 : (a as Scalar) > (b as Scalar) ? 1 : 0
  return 0
}

/** Sorts by precomputed keys, each read once per document. */
export function sortDocs<T extends Doc>(docs: readonly T[], sort: SortSpec): T[] {
  const paths = sort.map(([field]) => field.split('.'))
  // valuesAt(doc, [field])[0] is the field's value itself; reading it directly spares a list per document.
  const keyOf = (doc: T, path: readonly string[]) => (path.length === 1 ? doc[path[0]!] : valuesAt(doc, path)[0])
  const keyed = docs.map((doc) => ({ doc, keys: paths.map((path) => keyOf(doc, path)) }))
  keyed.sort((x, y) => {
    for (let i = 0; i < sort.length; i++) {
      const order = compareValues(x.keys[i], y.keys[i])
      if (order !== 0) return order * sort[i]![1]
    }
    return 0
  })
  return keyed.map((entry) => entry.doc)
}

/** A copy of a stored document (plain JSON values), without the omitted top-level fields. */
export function copyOf<T extends Doc>(doc: T, omit?: readonly string[]): T {
  if (!omit?.length) return clone(doc) as T
  const copy: Record<string, unknown> = {}
  for (const key of Object.keys(doc)) if (!omit.includes(key)) copy[key] = clone(doc[key])
  return copy as T
}

function clone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clone)
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {}
    for (const key of Object.keys(value)) copy[key] = clone((value as Record<string, unknown>)[key])
    return copy
  }
  return value
}
