import { Type, type Static } from '@sinclair/typebox'
import type { Model } from '../schema/model.js'

const Name = Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]{0,63}$' })
const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()])

/** The operations of a migration file (docs/schemas.md, "Migrations", each with an example), after TerminusDB's. */
export const Operation = Type.Union([
  Type.Object({ op: Type.Literal('create_property'), class: Name, property: Name, default: Type.Unknown() }, { additionalProperties: false }),
  Type.Object({ op: Type.Literal('delete_property'), class: Name, property: Name }, { additionalProperties: false }),
  Type.Object({ op: Type.Literal('rename_property'), class: Name, from: Name, to: Name }, { additionalProperties: false }),
  Type.Object({
    op: Type.Literal('cast_property'), class: Name, property: Name,
    type: Type.Union(['xsd:string', 'xsd:integer', 'xsd:decimal', 'xsd:boolean', 'xsd:date', 'xsd:dateTime'].map((t) => Type.Literal(t))),
    default: Scalar,
  }, { additionalProperties: false }),
  Type.Object({ op: Type.Literal('replace_enum_value'), enum: Name, from: Type.String(), to: Type.String() }, { additionalProperties: false }),
  Type.Object({ op: Type.Literal('map_enum_values'), enum: Name, values: Type.Record(Type.String(), Type.String()) }, { additionalProperties: false }),
])
export type Operation = Static<typeof Operation>

type State = Record<string, unknown>

/** A value cast to a scalar type, or undefined where it does not cast. */
function cast(value: unknown, type: string): unknown {
  switch (type) {
    case 'xsd:string': return typeof value === 'object' ? undefined : String(value)
    case 'xsd:integer': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
      return typeof n === 'number' && Number.isInteger(n) ? n : typeof n === 'boolean' ? Number(n) : undefined
    }
    case 'xsd:decimal': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
      return typeof n === 'number' && Number.isFinite(n) ? n : undefined
    }
    case 'xsd:boolean': return typeof value === 'boolean' ? value : value === 'true' || value === 1 ? true : value === 'false' || value === 0 ? false : undefined
    case 'xsd:date': return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString().slice(0, 10) : undefined
    case 'xsd:dateTime': return typeof value === 'string' && !Number.isNaN(Date.parse(value)) ? new Date(value).toISOString() : undefined
    default: return undefined
  }
}

/** The concrete classes whose records an operation changes, in the model the records are read under. */
export function classesOf(operation: Operation, model: Model): string[] {
  if ('class' in operation) return model.classes.get(operation.class)?.concrete.filter((name) => model.classes.get(name)?.metadata.collection) ?? []
  const users = [...model.classes.values()].filter((c) => !c.abstract && c.metadata.collection && c.properties.some((p) => p.target.kind === 'enum' && p.target.name === operation.enum))
  return users.map((c) => c.name)
}

/**
 * A record after the operation, or the same object when the operation leaves it as it is: each
 * operation changes only what is still as before it, so applying it again changes nothing (a migration
 * resumed after a crash applies no operation twice). `model` is the one the record was read under.
 */
export function applyOperation(record: State, operation: Operation, model: Model): State {
  switch (operation.op) {
    case 'create_property':
      return operation.property in record ? record : { ...record, [operation.property]: operation.default }
    case 'delete_property': {
      if (!(operation.property in record)) return record
      const { [operation.property]: _gone, ...rest } = record
      return rest
    }
    case 'rename_property': {
      if (!(operation.from in record) || operation.to in record) return record
      const { [operation.from]: value, ...rest } = record
      return { ...rest, [operation.to]: value }
    }
    case 'cast_property': {
      const value = record[operation.property]
      if (value === undefined || value === null) return record
      const cast1 = (v: unknown) => cast(v, operation.type) ?? operation.default
      const next = Array.isArray(value) ? value.map(cast1) : cast1(value)
      return JSON.stringify(next) === JSON.stringify(value) ? record : { ...record, [operation.property]: next }
    }
    case 'replace_enum_value':
    case 'map_enum_values': {
      const mapping: Record<string, string> = operation.op === 'replace_enum_value' ? { [operation.from]: operation.to } : operation.values
      const cls = model.classes.get(String(record.type))
      let next = record
      for (const p of cls?.properties ?? []) {
        if (p.target.kind !== 'enum' || p.target.name !== operation.enum) continue
        const value = record[p.name]
        const mapped = Array.isArray(value) ? value.map((v) => (typeof v === 'string' && v in mapping ? mapping[v] : v)) : typeof value === 'string' && value in mapping ? mapping[value] : value
        if (JSON.stringify(mapped) !== JSON.stringify(value)) next = { ...next, [p.name]: mapped }
      }
      return next
    }
  }
}
