import { assertFilter } from '../filter-check.js'
import type { Filter, Operators, Scalar, SortSpec } from '../port.js'
import { codePoints, fieldExpression, jsonPath, prefixEnd } from './sql.js'

/** What the translation needs to know of a collection's fields. */
export interface FieldKinds {
  /** An index is led by this field, so its expression (or its keys) can answer a condition on it. */
  indexed(field: string): boolean
  /** Some document holds an array or an object at this field: its conditions go to the keys table. */
  multikey(field: string): boolean
  /** The collection's keys table, quoted. */
  readonly keys: string
}

/**
 * A filter as an SQL condition over the collection's rows. `exact` says the condition matches exactly
 * the documents the filter does; otherwise it matches a superset (or everything, when `where` is
 * empty), and the caller applies the filter's predicate (match.ts) to what it returns.
 */
export interface Translation {
  readonly where: string
  readonly params: unknown[]
  readonly exact: boolean
}

/** How the keys table stores each kind of value; `present` marks a document that has the field at all. */
export const keyKind = { present: 0, number: 1, string: 2, boolean: 3 } as const

type Part = { sql: string; exact: boolean } | null

class Builder {
  readonly params: unknown[] = []
  constructor(private readonly fields: FieldKinds) {}

  bind(...values: unknown[]): string {
    this.params.push(...values)
    return values.map(() => '?').join(', ')
  }

  filter(filter: Filter): Part {
    const parts: string[] = []
    let exact = true
    for (const [key, value] of Object.entries(filter)) {
      if (value === undefined) continue
      const part = key === '$or' ? this.or(value as Filter[])
        : key === '$and' ? this.and(value as Filter[])
        : this.field(key, value as Scalar | Operators)
      if (!part) { exact = false; continue }
      parts.push(part.sql)
      exact &&= part.exact
    }
    if (!parts.length) return exact ? { sql: '1', exact } : null
    return { sql: parts.length === 1 ? parts[0]! : parts.map((p) => `(${p})`).join(' AND '), exact }
  }

  private and(clauses: readonly Filter[]): Part {
    const parts: string[] = []
    let exact = true
    for (const clause of clauses) {
      const part = this.filter(clause)
      if (!part) { exact = false; continue }
      parts.push(`(${part.sql})`)
      exact &&= part.exact
    }
    if (!parts.length) return exact ? { sql: '1', exact } : null
    return { sql: parts.join(' AND '), exact }
  }

  /** An `$or` narrows only when every branch does; an empty one matches nothing, as the predicate says. */
  private or(clauses: readonly Filter[]): Part {
    if (!clauses.length) return { sql: '0', exact: true }
    const parts: string[] = []
    let exact = true
    for (const clause of clauses) {
      const part = this.filter(clause)
      if (!part) return null
      parts.push(`(${part.sql})`)
      exact &&= part.exact
    }
    return { sql: parts.join(' OR '), exact }
  }

  private field(field: string, condition: Scalar | Operators): Part {
    const indexed = field === '_id' || this.fields.indexed(field)
    // Through an array of subdocuments, only the predicate follows MongoDB's reading of a dotted path.
    if (!indexed && field.includes('.')) return null
    const mode = !indexed ? this.unindexed : field !== '_id' && this.fields.multikey(field) ? this.keyed : this.scalar
    const ops = typeof condition === 'object' ? Object.entries(condition).filter(([, v]) => v !== undefined) : [['$eq', condition] as const]
    const parts: string[] = []
    for (const [op, operand] of ops) {
      const sql = mode.call(this, field, op, operand)
      if (sql === null) return null
      parts.push(sql)
    }
    if (!parts.length) return { sql: '1', exact: true }
    return { sql: parts.length === 1 ? parts[0]! : parts.map((p) => `(${p})`).join(' AND '), exact: true }
  }

  /**
   * A condition on a field no document holds an array or object in, through the field's expression
   * index. json_extract gives booleans as 1 and 0, so a number or boolean is checked by its JSON type too;
   * every number sorts before every string in SQLite, which bounds a range to one type.
   */
  private scalar(field: string, op: string, operand: unknown): string | null {
    const x = fieldExpression(field)
    const type = `json_type(doc, ${jsonPath(field)})`
    const equal = (value: Scalar): string => {
      if (typeof value === 'string') return `${x} = ${this.bind(value)}`
      if (typeof value === 'number') return `${x} = ${this.bind(value)} AND ${type} IN ('integer', 'real')`
      return `${x} = ${this.bind(value ? 1 : 0)} AND ${type} = ${this.bind(value ? 'true' : 'false')}`
    }
    const member = (values: readonly Scalar[]): string => {
      const strings = values.filter((v) => typeof v === 'string')
      const numbers = values.filter((v) => typeof v === 'number')
      const parts: string[] = []
      if (strings.length) parts.push(`${x} IN (SELECT value FROM json_each(${this.bind(JSON.stringify(strings))}))`)
      if (numbers.length) parts.push(`${x} IN (SELECT value FROM json_each(${this.bind(JSON.stringify(numbers))})) AND ${type} IN ('integer', 'real')`)
      for (const value of values) if (typeof value === 'boolean') parts.push(equal(value))
      return parts.length ? parts.map((p) => `(${p})`).join(' OR ') : '0'
    }
    switch (op) {
      case '$eq': return equal(operand as Scalar)
      case '$ne': return `NOT coalesce(${equal(operand as Scalar)}, 0)`
      case '$in': return member(operand as Scalar[])
      case '$nin': return `NOT coalesce(${member(operand as Scalar[])}, 0)`
      case '$gt': case '$gte': case '$lt': case '$lte': {
        const sign = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op]
        if (typeof operand === 'number') return `${x} ${sign} ${this.bind(operand)} AND ${x} < '' AND ${type} IN ('integer', 'real')`
        return `${x} ${sign} ${this.bind(operand)} AND ${x} >= ''`
      }
      case '$exists': return operand ? `${type} IS NOT NULL` : `${type} IS NULL`
      case '$prefix': {
        const prefix = operand as string
        return `${x} >= ${this.bind(prefix)} AND ${x} < ${this.bind(prefixEnd(prefix))} AND substr(${x}, 1, ${this.bind(codePoints(prefix))}) = ${this.bind(prefix)}`
      }
      default: return null
    }
  }

  /**
   * A condition on a top-level field no index leads, read from each row's JSON by SQLite: json_each
   * gives an array's elements, or the value itself when it is a scalar, which is MongoDB's "any element
   * matches"; an object is never equal to a scalar, though json_each would give its members.
   */
  private unindexed(field: string, op: string, operand: unknown): string | null {
    const path = jsonPath(field)
    const notObject = `json_type(doc, ${path}) <> 'object'`
    const typeOf = (value: Scalar) => typeof value === 'string' ? `type = 'text'` : typeof value === 'number' ? `type IN ('integer', 'real')` : `type = '${value ? 'true' : 'false'}'`
    const any = (where: () => string) => `EXISTS (SELECT 1 FROM json_each(doc, ${path}) WHERE ${where()}) AND ${notObject}`
    const equal = (value: Scalar) => any(() => typeof value === 'boolean' ? typeOf(value) : `${typeOf(value)} AND value = ${this.bind(value)}`)
    const member = (values: readonly Scalar[]): string => {
      if (!values.length) return '0'
      return any(() => values.map((value) => `(${typeof value === 'boolean' ? typeOf(value) : `${typeOf(value)} AND value = ${this.bind(value)}`})`).join(' OR '))
    }
    switch (op) {
      case '$eq': return equal(operand as Scalar)
      case '$ne': return `NOT coalesce(${equal(operand as Scalar)}, 0)`
      case '$in': return member(operand as Scalar[])
      case '$nin': return `NOT coalesce(${member(operand as Scalar[])}, 0)`
      case '$gt': case '$gte': case '$lt': case '$lte': {
        const sign = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op]
        return any(() => `${typeOf(operand as Scalar)} AND value ${sign} ${this.bind(operand)}`)
      }
      case '$exists': return operand ? `json_type(doc, ${path}) IS NOT NULL` : `json_type(doc, ${path}) IS NULL`
      case '$prefix': {
        const prefix = operand as string
        return any(() => `type = 'text' AND substr(value, 1, ${this.bind(codePoints(prefix))}) = ${this.bind(prefix)}`)
      }
      default: return null
    }
  }

  /** A condition on a field held in the keys table: one row per scalar a document holds there. */
  private keyed(field: string, op: string, operand: unknown): string | null {
    const keys = this.fields.keys
    // The field is bound before the conditions are written, so that the parameters follow the text's order.
    const rows = (where: () => string) => {
      const name = this.bind(field)
      return `_id IN (SELECT id FROM ${keys} WHERE field = ${name} AND ${where()})`
    }
    const kindOf = (value: Scalar) => typeof value === 'number' ? keyKind.number : typeof value === 'string' ? keyKind.string : keyKind.boolean
    const stored = (value: Scalar) => (typeof value === 'boolean' ? (value ? 1 : 0) : value)
    const equal = (value: Scalar) => rows(() => `kind = ${this.bind(kindOf(value))} AND value = ${this.bind(stored(value))}`)
    const member = (values: readonly Scalar[]): string => {
      const byKind = new Map<number, unknown[]>()
      for (const value of values) byKind.set(kindOf(value), [...byKind.get(kindOf(value)) ?? [], stored(value)])
      const parts = [...byKind].map(([kind, list]) => rows(() => `kind = ${this.bind(kind)} AND value IN (SELECT value FROM json_each(${this.bind(JSON.stringify(list))}))`))
      return parts.length ? parts.join(' OR ') : '0'
    }
    switch (op) {
      case '$eq': return equal(operand as Scalar)
      case '$ne': return `NOT (${equal(operand as Scalar)})`
      case '$in': return member(operand as Scalar[])
      case '$nin': return `NOT (${member(operand as Scalar[])})`
      case '$gt': case '$gte': case '$lt': case '$lte': {
        const sign = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op]
        return rows(() => `kind = ${this.bind(kindOf(operand as Scalar))} AND value ${sign} ${this.bind(operand)}`)
      }
      case '$exists': {
        const present = rows(() => `kind = ${this.bind(keyKind.present)}`)
        return operand ? present : `NOT (${present})`
      }
      case '$prefix': {
        const prefix = operand as string
        return rows(() => `kind = ${this.bind(keyKind.string)} AND value >= ${this.bind(prefix)} AND value < ${this.bind(prefixEnd(prefix))} AND substr(value, 1, ${this.bind(codePoints(prefix))}) = ${this.bind(prefix)}`)
      }
      default: return null
    }
  }
}

export function translateFilter(filter: Filter, fields: FieldKinds): Translation {
  assertFilter(filter)
  const builder = new Builder(fields)
  const part = builder.filter(filter)
  return part ? { where: part.sql, params: builder.params, exact: part.exact } : { where: '1', params: [], exact: false }
}

/** ORDER BY written with the very expressions of the sort indexes (collections' `fields`), so SQLite walks one. */
export function orderBy(sort: SortSpec | undefined): string {
  if (!sort?.length) return ''
  return ` ORDER BY ${sort.map(([field, direction]) => `${fieldExpression(field)}${direction < 0 ? ' DESC' : ''}`).join(', ')}`
}
