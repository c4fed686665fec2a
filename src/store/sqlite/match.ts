import { assertFilter, escapeRegExp } from '../filter-check.js'
import type { Doc, Filter, Operators, Scalar } from '../port.js'

/**
 * MongoDB's filter semantics as a JavaScript predicate: what the SQLite adapter applies to the rows its
 * SQL narrowed down whenever part of a filter has no exact SQL form (a condition on a field no index
 * serves, a case-insensitive prefix). The SQL narrowing is a superset; this predicate decides.
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
