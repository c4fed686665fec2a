import { Value } from '@sinclair/typebox/value'
import { checkClasses } from './class-checks.js'
import { SchemaError } from './errors.js'
import type { RawDefinition, RawFile } from './load.js'
import { RawMetadataSchema, type RawMetadata } from './metadata.js'
import {
  scalarTypes, type ClassDef, type ClassMetadata, type EnumDef, type KeySpec, type Model,
  type PropertyDef, type PropertyKind, type ScalarType, type Target,
} from './model.js'

const classKeywords = new Set(['@type', '@id', '@key', '@documentation', '@metadata', '@inherits', '@abstract', '@subdocument'])
const enumKeywords = new Set(['@type', '@id', '@value', '@documentation'])
const kinds: Record<string, PropertyKind> = { Optional: 'optional', Set: 'set', List: 'list', Array: 'array' }
/** `type` carries the class name in every record, and `_`-names are system fields. */
const reservedProperties = new Set(['type'])

interface RawClass {
  name: string
  file: string
  abstract: boolean
  subdocument: boolean
  parents: string[]
  key?: KeySpec
  comment?: string
  propertyDocs: Record<string, string>
  metadata: RawMetadata
  properties: { name: string; kind: PropertyKind; className: string }[]
}

function isStrings(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string')
}

function flag(value: unknown, file: string, id: string, keyword: string): boolean {
  if (value === undefined) return false
  if (value === true || (Array.isArray(value) && value.length === 0)) return true
  throw new SchemaError(file, id, `${keyword} must be [] or true`)
}

function parseDocumentation(raw: unknown, file: string, id: string): { comment?: string; properties: Record<string, string> } {
  if (raw === undefined) return { properties: {} }
  if (typeof raw !== 'object' || raw === null) throw new SchemaError(file, id, '@documentation must be an object')
  const { '@comment': comment, '@properties': properties, ...rest } = raw as Record<string, unknown>
  if (Object.keys(rest).length) throw new SchemaError(file, id, `@documentation has unknown keys: ${Object.keys(rest).join(', ')}`)
  if (comment !== undefined && typeof comment !== 'string') throw new SchemaError(file, id, '@documentation.@comment must be a string')
  if (properties !== undefined) {
    if (typeof properties !== 'object' || properties === null || Object.values(properties).some((v) => typeof v !== 'string')) {
      throw new SchemaError(file, id, '@documentation.@properties must map property names to strings')
    }
  }
  return { ...(comment ? { comment } : {}), properties: (properties ?? {}) as Record<string, string> }
}

function parseKey(raw: unknown, file: string, id: string): KeySpec | undefined {
  if (raw === undefined) return undefined
  const key = raw as { '@type'?: unknown; '@fields'?: unknown }
  switch (key?.['@type']) {
    case 'Random': return { type: 'Random' }
    case 'ValueHash': return { type: 'ValueHash' }
    case 'Lexical':
    case 'Hash': {
      const fields = key['@fields']
      if (!isStrings(fields) || !fields.length) {
        throw new SchemaError(file, id, `@key ${key['@type']} needs @fields, a non-empty list of property names`)
      }
      return { type: key['@type'], fields }
    }
    default: throw new SchemaError(file, id, '@key @type must be Random, Lexical, Hash or ValueHash')
  }
}

function parseClass(def: RawDefinition, file: string, id: string): RawClass {
  const docs = parseDocumentation(def['@documentation'], file, id)
  const inherits = def['@inherits']
  const parents: unknown[] = inherits === undefined ? [] : Array.isArray(inherits) ? inherits : [inherits]
  if (!isStrings(parents)) throw new SchemaError(file, id, '@inherits must name classes')
  if (def['@metadata'] !== undefined && !Value.Check(RawMetadataSchema, def['@metadata'])) {
    const [first] = Value.Errors(RawMetadataSchema, def['@metadata'])
    throw new SchemaError(file, id, `@metadata${first?.path ?? ''}: ${first?.message ?? 'invalid'}`)
  }
  const properties: RawClass['properties'] = []
  for (const [name, spec] of Object.entries(def)) {
    if (name.startsWith('@')) {
      if (!classKeywords.has(name)) throw new SchemaError(file, id, `unknown keyword ${name}`)
      continue
    }
    if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new SchemaError(file, id, `property name ${name} must be snake_case`)
    if (reservedProperties.has(name)) throw new SchemaError(file, id, `property name ${name} is reserved`)
    if (typeof spec === 'string') {
      properties.push({ name, kind: 'required', className: spec })
      continue
    }
    const { '@type': kindName, '@class': className, ...rest } = (spec ?? {}) as Record<string, unknown>
    const kind = typeof kindName === 'string' ? kinds[kindName] : undefined
    if (!kind) throw new SchemaError(file, id, `property ${name}: @type must be Optional, Set, List or Array`)
    if (typeof className !== 'string') throw new SchemaError(file, id, `property ${name}: @class must name a type`)
    if (Object.keys(rest).length) throw new SchemaError(file, id, `property ${name}: unknown keys ${Object.keys(rest).join(', ')}`)
    properties.push({ name, kind, className })
  }
  for (const documented of Object.keys(docs.properties)) {
    if (!properties.some((p) => p.name === documented)) {
      throw new SchemaError(file, id, `@documentation names ${documented}, which the class does not declare`)
    }
  }
  const key = parseKey(def['@key'], file, id)
  return {
    name: id, file, parents,
    abstract: flag(def['@abstract'], file, id, '@abstract'),
    subdocument: flag(def['@subdocument'], file, id, '@subdocument'),
    ...(key ? { key } : {}),
    ...(docs.comment ? { comment: docs.comment } : {}),
    propertyDocs: docs.properties,
    metadata: (def['@metadata'] ?? {}) as RawMetadata,
    properties,
  }
}

function parseEnum(def: RawDefinition, file: string, id: string): EnumDef {
  for (const key of Object.keys(def)) {
    if (!enumKeywords.has(key)) throw new SchemaError(file, id, `an Enum takes only ${[...enumKeywords].join(', ')}, not ${key}`)
  }
  const values = def['@value']
  if (!Array.isArray(values) || !values.length) throw new SchemaError(file, id, 'an Enum needs @value, a non-empty list')
  if (!isStrings(values) || values.some((v) => !/^[A-Za-z0-9_]+$/.test(v))) throw new SchemaError(file, id, '@value entries must be words of letters, digits and _')
  if (new Set(values).size !== values.length) throw new SchemaError(file, id, '@value has duplicates')
  const docs = parseDocumentation(def['@documentation'], file, id)
  if (!docs.comment) throw new SchemaError(file, id, '@documentation.@comment is required')
  return { name: id, file, values, comment: docs.comment }
}

/** Ancestors nearest first; throws on a cycle or an unknown parent. */
function linearize(raw: ReadonlyMap<string, RawClass>, name: string, trail: string[] = []): string[] {
  const cls = raw.get(name)!
  const result: string[] = []
  for (const parent of cls.parents) {
    if (trail.includes(parent) || parent === name) throw new SchemaError(cls.file, name, `@inherits cycle: ${[...trail, name, parent].join(' -> ')}`)
    if (!raw.has(parent)) throw new SchemaError(cls.file, name, `@inherits names unknown class ${parent}`)
    for (const ancestor of [parent, ...linearize(raw, parent, [...trail, name])]) {
      if (!result.includes(ancestor)) result.push(ancestor)
    }
  }
  return result
}

function mergeMetadata(layers: readonly RawMetadata[]): ClassMetadata {
  let merged: ClassMetadata = {
    self_editable: [], identity_fields: [], correctable_key: [], system_fields: [], label: [], searchable: [], sortable: [], default_sort: [], list_fields: [],
    filters: {}, indexes: [], constraints: {}, related: [], defaults: {},
  }
  for (const layer of layers) {
    const constraints = { ...merged.constraints }
    for (const [prop, c] of Object.entries(layer.constraints ?? {})) constraints[prop] = { ...constraints[prop], ...c }
    merged = {
      ...merged, ...layer,
      self_editable: [...merged.self_editable, ...(layer.self_editable ?? [])],
      identity_fields: [...merged.identity_fields, ...(layer.identity_fields ?? [])],
      system_fields: [...merged.system_fields, ...(layer.system_fields ?? [])],
      indexes: [...merged.indexes, ...(layer.indexes ?? [])],
      related: [...merged.related, ...(layer.related ?? [])],
      filters: { ...merged.filters, ...layer.filters },
      defaults: { ...merged.defaults, ...layer.defaults },
      constraints,
    }
  }
  return merged
}

function resolveTarget(className: string, raw: ReadonlyMap<string, RawClass>, enums: ReadonlyMap<string, EnumDef>): Target | undefined {
  if (className.startsWith('xsd:')) {
    return (scalarTypes as readonly string[]).includes(className) ? { kind: 'scalar', scalar: className as ScalarType } : undefined
  }
  if (enums.has(className)) return { kind: 'enum', name: className }
  const cls = raw.get(className)
  if (!cls) return undefined
  return cls.subdocument ? { kind: 'subdocument', name: className } : { kind: 'reference', name: className }
}

/** Checks the raw definitions and builds the flattened model; the first fault found is thrown. */
export function buildModel(files: readonly RawFile[]): Model {
  const rawClasses = new Map<string, RawClass>()
  const enums = new Map<string, EnumDef>()
  const origin = new Map<string, string>()
  for (const { file, definitions } of files) {
    definitions.forEach((def, i) => {
      const id = def['@id']
      if (typeof id !== 'string' || !/^[A-Z][A-Za-z0-9]*$/.test(id)) throw new SchemaError(file, `#${i}`, '@id must be a PascalCase name')
      if (origin.has(id)) throw new SchemaError(file, id, `also defined in ${origin.get(id)}`)
      origin.set(id, file)
      if (def['@type'] === 'Enum') enums.set(id, parseEnum(def, file, id))
      else if (def['@type'] === 'Class') rawClasses.set(id, parseClass(def, file, id))
      else throw new SchemaError(file, id, '@type must be Class or Enum')
    })
  }

  const ancestry = new Map([...rawClasses.keys()].map((name) => [name, linearize(rawClasses, name)]))
  const concreteOf = (name: string) => [...rawClasses.values()]
    .filter((c) => !c.abstract && (c.name === name || ancestry.get(c.name)!.includes(name)))
    .map((c) => c.name)
  const classes = new Map<string, ClassDef>()
  for (const raw of rawClasses.values()) {
    const ancestors = ancestry.get(raw.name)!
    const lineage = [...ancestors].reverse().map((name) => rawClasses.get(name)!).concat(raw)
    for (const ancestor of lineage.slice(0, -1)) {
      if (ancestor.subdocument !== raw.subdocument) throw new SchemaError(raw.file, raw.name, `cannot inherit from ${ancestor.name}: one is a @subdocument and the other is not`)
    }
    const properties: PropertyDef[] = []
    for (const layer of lineage) {
      for (const p of layer.properties) {
        const target = resolveTarget(p.className, rawClasses, enums)
        if (!target) throw new SchemaError(layer.file, layer.name, `property ${p.name}: unknown type ${p.className}`)
        const description = layer.propertyDocs[p.name] ?? properties.find((q) => q.name === p.name)?.description
        if (!description) throw new SchemaError(layer.file, layer.name, `property ${p.name} has no @documentation`)
        const def: PropertyDef = { name: p.name, kind: p.kind, target, description, constraints: {}, declaredIn: layer.name }
        const at = properties.findIndex((q) => q.name === p.name)
        if (at >= 0) {
          const before = properties[at]!
          if (before.kind !== def.kind || JSON.stringify(before.target) !== JSON.stringify(def.target)) {
            throw new SchemaError(layer.file, layer.name, `property ${p.name} redefines ${before.declaredIn}.${p.name} with another type`)
          }
          properties[at] = def
        } else properties.push(def)
      }
    }
    if (!raw.comment) throw new SchemaError(raw.file, raw.name, '@documentation.@comment is required')
    const metadata = mergeMetadata(lineage.map((layer) => layer.metadata))
    const key = raw.key ?? lineage.map((layer) => layer.key).filter((k) => k !== undefined).pop()
    if (!key && !raw.abstract && !raw.subdocument) throw new SchemaError(raw.file, raw.name, 'a concrete class needs a @key')
    classes.set(raw.name, {
      name: raw.name, file: raw.file, abstract: raw.abstract, subdocument: raw.subdocument, parents: raw.parents,
      ancestors, concrete: concreteOf(raw.name), comment: raw.comment, metadata,
      properties: properties.map((p) => ({ ...p, constraints: metadata.constraints[p.name] ?? {} })),
      // Abstract classes mint no ids; Random stands in so every ClassDef has a key.
      key: key ?? { type: 'Random' },
    })
  }
  const model = { classes, enums }
  checkClasses(model)
  return model
}
