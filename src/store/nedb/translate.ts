import type { Filter, Operators, Scalar } from '../port.js'
import { assertFilter, escapeRegExp } from '../filter-check.js'

type NedbQuery = Record<string, unknown>

function valueAt(doc: Record<string, unknown>, path: string): unknown {
  let value: unknown = doc
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined
    value = (value as Record<string, unknown>)[part]
  }
  return value
}

function isIndexable(condition: unknown): boolean {
  if (typeof condition !== 'object' || condition === null) return true
  const keys = Object.keys(condition)
  return keys.length === 1 && keys[0] === '$in'
}

/**
 * Clauses for one field condition. nedb applies `$ne`, `$nin` and `$exists` element-wise to arrays,
 * unlike MongoDB, so those are rewritten into forms that mean what MongoDB means.
 */
function fieldClauses(field: string, condition: Scalar | Operators): NedbQuery[] {
  if (typeof condition !== 'object') return [{ [field]: condition }]
  const clauses: NedbQuery[] = []
  for (const [op, operand] of Object.entries(condition)) {
    if (operand === undefined) continue
    switch (op) {
      case '$eq': clauses.push({ [field]: operand }); break
      case '$ne': clauses.push({ $not: { [field]: operand } }); break
      case '$nin': clauses.push({ $not: { [field]: { $in: operand } } }); break
      case '$in': case '$gt': case '$gte': case '$lt': case '$lte':
        clauses.push({ [field]: { [op]: operand } }); break
      case '$exists': {
        const wanted = operand as boolean
        clauses.push({ $where(this: Record<string, unknown>) { return (valueAt(this, field) !== undefined) === wanted } })
        break
      }
      case '$prefix': clauses.push({ [field]: new RegExp('^' + escapeRegExp(operand as string), 'u') }); break
      case '$iprefix': clauses.push({ [field]: new RegExp('^' + escapeRegExp(operand as string), 'iu') }); break
      default: throw new TypeError(`unsupported operator ${op}`)
    }
  }
  return clauses
}

function translateInner(filter: Filter): NedbQuery {
  const top: NedbQuery = {}
  const rest: NedbQuery[] = []
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue
    if (key === '$or' || key === '$and') {
      rest.push({ [key]: (value as Filter[]).map(translateInner) })
    } else if (isIndexable(value)) {
      // Plain equality and $in stay at the top level, where nedb can answer them from an index.
      top[key] = value
    } else {
      rest.push(...fieldClauses(key, value as Operators))
    }
  }
  if (rest.length) top.$and = rest
  return top
}

export function translateFilter(filter: Filter): NedbQuery {
  assertFilter(filter)
  return translateInner(filter)
}
