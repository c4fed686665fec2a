import type { Filter, Operators } from '../port.js'
import { assertFilter, escapeRegExp } from '../filter-check.js'

type MongoQuery = Record<string, unknown>

function prefixClause(field: string, op: '$prefix' | '$iprefix', text: string): MongoQuery {
  return { [field]: { $regex: '^' + escapeRegExp(text), ...(op === '$iprefix' ? { $options: 'i' } : {}) } }
}

function translateInner(filter: Filter): MongoQuery {
  const query: MongoQuery = {}
  const and: MongoQuery[] = []
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue
    if (key === '$or' || key === '$and') {
      and.push({ [key]: (value as Filter[]).map(translateInner) })
      continue
    }
    if (typeof value !== 'object') {
      query[key] = value
      continue
    }
    const operators: Record<string, unknown> = {}
    for (const [op, operand] of Object.entries(value as Operators)) {
      if (operand === undefined) continue
      if (op === '$prefix' || op === '$iprefix') and.push(prefixClause(key, op, operand as string))
      else operators[op] = operand
    }
    const ops = Object.keys(operators)
    // FerretDB 1.24 hands its backend only a filter that is one `_id` equality; as `$in` of one id (a
    // reference check's usual shape) it reads the whole collection. MongoDB means the same by either.
    if (ops.length === 1 && ops[0] === '$in' && (operators.$in as unknown[]).length === 1) query[key] = (operators.$in as unknown[])[0]
    else if (ops.length) query[key] = operators
  }
  if (and.length) query.$and = and
  return query
}

export function translateFilter(filter: Filter): MongoQuery {
  assertFilter(filter)
  return translateInner(filter)
}
