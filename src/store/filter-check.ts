import type { Filter, Operators, Update } from './port.js'

const operators = new Set<keyof Operators>(['$eq', '$ne', '$in', '$nin', '$gt', '$gte', '$lt', '$lte', '$exists', '$prefix', '$iprefix'])
const logical = new Set(['$or', '$and'])
const updateOperators = new Set(['$set', '$unset', '$inc', '$push'])

function isScalar(value: unknown): boolean {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
}

/**
 * Run-time guard behind the port's types: a filter built from untrusted input by mistake still cannot
 * carry an operator the adapters do not translate, or a value that is not a plain scalar.
 */
export function assertFilter(filter: Filter): void {
  for (const [key, value] of Object.entries(filter)) {
    if (value === undefined) continue
    if (key.startsWith('$')) {
      if (!logical.has(key) || !Array.isArray(value)) throw new TypeError(`unsupported filter operator ${key}`)
      for (const sub of value as Filter[]) assertFilter(sub)
      continue
    }
    if (isScalar(value)) continue
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new TypeError(`unsupported condition on ${key}`)
    for (const [op, operand] of Object.entries(value)) {
      if (!operators.has(op as keyof Operators)) throw new TypeError(`unsupported operator ${op} on ${key}`)
      const ok = op === '$in' || op === '$nin'
        ? Array.isArray(operand) && operand.every(isScalar)
        : op === '$exists' ? typeof operand === 'boolean' : isScalar(operand)
      if (!ok) throw new TypeError(`bad operand for ${op} on ${key}`)
    }
  }
}

export function assertUpdate(update: Update): void {
  for (const [op, fields] of Object.entries(update)) {
    if (!updateOperators.has(op)) throw new TypeError(`unsupported update operator ${op}`)
    for (const field of Object.keys(fields as object)) {
      if (field.startsWith('$') || field === '_id') throw new TypeError(`field ${field} cannot be updated`)
    }
  }
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}
