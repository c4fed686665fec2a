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

/**
 * How one field's conditions are written: through its expression index, its keys, or its JSON. Each
 * gives the positive forms; `condition` writes the negations. Every method binds its values as it
 * writes them, so the parameters follow the text's order.
 */
interface Mode {
  equal(value: Scalar): string
  /** A list of one value or more. */
  member(values: readonly Scalar[]): string
  range(sign: string, value: string | number): string
  exists(): string
  prefix(prefix: string): string
}

const signs = { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' } as const

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
    const mode = !indexed ? this.unindexed(field) : field !== '_id' && this.fields.multikey(field) ? this.keyed(field) : this.scalar(field)
    const ops = typeof condition === 'object' ? Object.entries(condition).filter(([, v]) => v !== undefined) : [['$eq', condition] as const]
    const parts: string[] = []
    for (const [op, operand] of ops) {
      const sql = this.condition(mode, op, operand)
      if (sql === null) return null
      parts.push(sql)
    }
    if (!parts.length) return { sql: '1', exact: true }
    return { sql: parts.length === 1 ? parts[0]! : parts.map((p) => `(${p})`).join(' AND '), exact: true }
  }

  /** One operator through a field's mode; the negations are written once, here, for every mode. */
  private condition(mode: Mode, op: string, operand: unknown): string | null {
    const member = (values: readonly Scalar[]) => (values.length ? mode.member(values) : '0')
    switch (op) {
      case '$eq': return mode.equal(operand as Scalar)
      case '$ne': return `NOT coalesce(${mode.equal(operand as Scalar)}, 0)`
      case '$in': return member(operand as Scalar[])
      case '$nin': return `NOT coalesce(${member(operand as Scalar[])}, 0)`
      case '$gt': case '$gte': case '$lt': case '$lte': return mode.range(signs[op], operand as string | number)
      case '$exists': return operand ? mode.exists() : `NOT coalesce(${mode.exists()}, 0)`
      case '$prefix': return mode.prefix(operand as string)
      // `$iprefix` needs Unicode case folding, which SQLite lacks: the predicate applies it.
      default: return null
    }
  }

  /**
   * A field no document holds an array or object in, through the field's expression index.
   * json_extract gives booleans as 1 and 0, so a number or boolean is checked by its JSON type too;
   * every number sorts before every string in SQLite, which bounds a range to one type.
   */
  private scalar(field: string): Mode {
    const x = fieldExpression(field)
    const type = `json_type(doc, ${jsonPath(field)})`
    const equal = (value: Scalar): string => {
      if (typeof value === 'string') return `${x} = ${this.bind(value)}`
      if (typeof value === 'number') return `${x} = ${this.bind(value)} AND ${type} IN ('integer', 'real')`
      return `${x} = ${this.bind(value ? 1 : 0)} AND ${type} = ${this.bind(value ? 'true' : 'false')}`
    }
    return {
      equal,
      member: (values) => {
        const strings = values.filter((v) => typeof v === 'string')
        const numbers = values.filter((v) => typeof v === 'number')
        const parts: string[] = []
        if (strings.length) parts.push(`${x} IN (SELECT value FROM json_each(${this.bind(JSON.stringify(strings))}))`)
        if (numbers.length) parts.push(`${x} IN (SELECT value FROM json_each(${this.bind(JSON.stringify(numbers))})) AND ${type} IN ('integer', 'real')`)
        for (const value of values) if (typeof value === 'boolean') parts.push(equal(value))
        return parts.map((p) => `(${p})`).join(' OR ')
      },
      range: (sign, value) => typeof value === 'number'
        ? `${x} ${sign} ${this.bind(value)} AND ${x} < '' AND ${type} IN ('integer', 'real')`
        : `${x} ${sign} ${this.bind(value)} AND ${x} >= ''`,
      exists: () => `${type} IS NOT NULL`,
      prefix: (prefix) => `${x} >= ${this.bind(prefix)} AND ${x} < ${this.bind(prefixEnd(prefix))} AND substr(${x}, 1, ${this.bind(codePoints(prefix))}) = ${this.bind(prefix)}`,
    }
  }

  /**
   * A top-level field no index leads, read from each row's JSON by SQLite: json_each gives an array's
   * elements, or the value itself when it is a scalar, which is MongoDB's "any element matches"; an
   * object is never equal to a scalar, though json_each would give its members.
   */
  private unindexed(field: string): Mode {
    const path = jsonPath(field)
    const typeOf = (value: Scalar) => typeof value === 'string' ? `type = 'text'` : typeof value === 'number' ? `type IN ('integer', 'real')` : `type = '${value ? 'true' : 'false'}'`
    const any = (where: () => string) => `EXISTS (SELECT 1 FROM json_each(doc, ${path}) WHERE ${where()}) AND json_type(doc, ${path}) <> 'object'`
    const is = (value: Scalar) => (typeof value === 'boolean' ? typeOf(value) : `${typeOf(value)} AND value = ${this.bind(value)}`)
    return {
      equal: (value) => any(() => is(value)),
      member: (values) => any(() => values.map((value) => `(${is(value)})`).join(' OR ')),
      range: (sign, value) => any(() => `${typeOf(value)} AND value ${sign} ${this.bind(value)}`),
      exists: () => `json_type(doc, ${path}) IS NOT NULL`,
      prefix: (prefix) => any(() => `type = 'text' AND substr(value, 1, ${this.bind(codePoints(prefix))}) = ${this.bind(prefix)}`),
    }
  }

  /** A field held in the keys table: one row per scalar a document holds there. */
  private keyed(field: string): Mode {
    const keys = this.fields.keys
    // The field is bound before the conditions are written, so that the parameters follow the text's order.
    const rows = (where: () => string) => {
      const name = this.bind(field)
      return `_id IN (SELECT id FROM ${keys} WHERE field = ${name} AND ${where()})`
    }
    const kindOf = (value: Scalar) => typeof value === 'number' ? keyKind.number : typeof value === 'string' ? keyKind.string : keyKind.boolean
    const stored = (value: Scalar) => (typeof value === 'boolean' ? (value ? 1 : 0) : value)
    return {
      equal: (value) => rows(() => `kind = ${this.bind(kindOf(value))} AND value = ${this.bind(stored(value))}`),
      member: (values) => {
        const byKind = new Map<number, unknown[]>()
        for (const value of values) byKind.set(kindOf(value), [...byKind.get(kindOf(value)) ?? [], stored(value)])
        return [...byKind].map(([kind, list]) => rows(() => `kind = ${this.bind(kind)} AND value IN (SELECT value FROM json_each(${this.bind(JSON.stringify(list))}))`)).join(' OR ')
      },
      range: (sign, value) => rows(() => `kind = ${this.bind(kindOf(value))} AND value ${sign} ${this.bind(value)}`),
      exists: () => rows(() => `kind = ${this.bind(keyKind.present)}`),
      prefix: (prefix) => rows(() => `kind = ${this.bind(keyKind.string)} AND value >= ${this.bind(prefix)} AND value < ${this.bind(prefixEnd(prefix))} AND substr(value, 1, ${this.bind(codePoints(prefix))}) = ${this.bind(prefix)}`),
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
