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
    if (Object.keys(operators).length) query[key] = operators
  }
  if (and.length) query.$and = and
  return query
}

export function translateFilter(filter: Filter): MongoQuery {
  assertFilter(filter)
  return translateInner(filter)
}
