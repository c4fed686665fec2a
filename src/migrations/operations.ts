import { Type, type Static } from '@sinclair/typebox'
import type { ClassDef, Model, PropertyDef } from '../schema/model.js'

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
  Type.Object({ op: Type.Literal('rename_class'), from: Name, to: Name }, { additionalProperties: false }),
  Type.Object({ op: Type.Literal('delete_class'), class: Name }, { additionalProperties: false }),
])
export type Operation = Static<typeof Operation>

export type State = Record<string, unknown>

/**
 * The two schemas a migration reads classes in: the stored one, which its records were written under,
 * and the files' one, which alone knows a class an earlier migration renamed a class to.
 */
export interface Models {
  readonly was: Model
  readonly is: Model
}

export function classIn(models: Models, name: string): ClassDef | undefined {
  return models.was.classes.get(name) ?? models.is.classes.get(name)
}

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

/** Whether the class, or a subdocument it holds at any depth, has a property `wanted` picks. */
function holds(cls: ClassDef, models: Models, wanted: (prop: PropertyDef) => boolean, seen = new Set<string>()): boolean {
  if (seen.has(cls.name)) return false
  seen.add(cls.name)
  return cls.properties.some((prop) => {
    if (wanted(prop)) return true
    const sub = prop.target.kind === 'subdocument' ? classIn(models, prop.target.name) : undefined
    return sub !== undefined && holds(sub, models, wanted, seen)
  })
}

/** The stored concrete classes of either schema that hold such a property. */
function storedHolding(models: Models, wanted: (prop: PropertyDef) => boolean): string[] {
  const names = new Set([...models.was.classes.keys(), ...models.is.classes.keys()])
  return [...names].filter((name) => {
    const cls = classIn(models, name)!
    return !cls.abstract && cls.metadata.collection && holds(cls, models, wanted)
  })
}

/** The property kinds that can hold a reference to a record of the class (or of a subclass). */
function refersTo(className: string, models: Models): (prop: PropertyDef) => boolean {
  const cls = classIn(models, className)
  const targets = new Set([className, ...cls?.ancestors ?? []])
  return (prop) => prop.target.kind === 'reference' && targets.has(prop.target.name)
}

function storedConcrete(className: string, models: Models): string[] {
  return classIn(models, className)?.concrete.filter((name) => classIn(models, name)?.metadata.collection) ?? []
}

/** The stored concrete classes whose records an operation may change. */
export function classesOf(operation: Operation, models: Models): string[] {
  switch (operation.op) {
    case 'rename_class':
      return [...new Set([...storedConcrete(operation.from, models), ...storedHolding(models, refersTo(operation.from, models))])]
    case 'delete_class':
      return [...new Set([...storedConcrete(operation.class, models), ...storedHolding(models, refersTo(operation.class, models))])]
    case 'replace_enum_value':
    case 'map_enum_values':
      return storedHolding(models, (prop) => prop.target.kind === 'enum' && prop.target.name === operation.enum)
    default:
      return storedConcrete(operation.class, models)
  }
}

function mapArray(values: readonly unknown[], map: (value: unknown) => unknown): readonly unknown[] {
  let next: unknown[] | undefined
  values.forEach((value, i) => {
    const mapped = map(value)
    if (mapped !== value) (next ??= [...values])[i] = mapped
  })
  return next ?? values
}

/**
 * The record with each value of each property (into subdocuments, at any depth) through `map`: the same
 * object where nothing changed, so an operation that finds nothing to do leaves the record as it is.
 */
export function mapProperties(record: State, cls: ClassDef | undefined, models: Models, map: (prop: PropertyDef, value: unknown) => unknown): State {
  let next = record
  for (const prop of cls?.properties ?? []) {
    const value = record[prop.name]
    if (value === undefined || value === null) continue
    const one = (item: unknown): unknown => {
      if (prop.target.kind !== 'subdocument') return map(prop, item)
      if (!item || typeof item !== 'object' || Array.isArray(item)) return item
      const sub = item as State
      return mapProperties(sub, classIn(models, typeof sub.type === 'string' ? sub.type : prop.target.name), models, map)
    }
    const mapped = Array.isArray(value) ? mapArray(value, one) : one(value)
    if (mapped !== value) next = { ...next, [prop.name]: mapped }
  }
  return next
}

/** A record's class in the schemas: its own, or the one it was renamed to. */
export function classOfRecord(record: State, models: Models): ClassDef | undefined {
  return classIn(models, String(record.type))
}

/**
 * A record after the operation (null: the operation deletes it), or the same object when the operation
 * leaves it as it is: each operation changes only what is still as before it, so applying it again
 * changes nothing (a migration resumed after a crash applies no operation twice).
 */
export function applyOperation(record: State, operation: Operation, models: Models): State | null {
  const cls = classOfRecord(record, models)
  switch (operation.op) {
    case 'rename_class': {
      const prefix = `${operation.from}/`
      const follow = (value: unknown) => (typeof value === 'string' && value.startsWith(prefix) ? `${operation.to}/${value.slice(prefix.length)}` : value)
      const mapped = mapProperties(record, cls, models, (prop, value) => (prop.target.kind === 'reference' ? follow(value) : value))
      if (record.type !== operation.from) return mapped
      return { ...mapped, _id: follow(record._id), type: operation.to }
    }
    case 'delete_class':
      return record.type === operation.class ? null : record
    case 'replace_enum_value':
    case 'map_enum_values': {
      const mapping: Record<string, string> = operation.op === 'replace_enum_value' ? { [operation.from]: operation.to } : operation.values
      return mapProperties(record, cls, models, (prop, value) =>
        prop.target.kind === 'enum' && prop.target.name === operation.enum && typeof value === 'string' && Object.hasOwn(mapping, value) ? mapping[value] : value)
    }
  }
  if (!storedConcrete(operation.class, models).includes(String(record.type))) return record
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
  }
}

/** A record through a migration's operations in order; null once one deletes it. */
export function applyOperations(record: State, operations: readonly Operation[], models: Models): State | null {
  let next: State | null = record
  for (const op of operations) {
    if (next === null) return null
    next = applyOperation(next, op, models)
  }
  return next
}
