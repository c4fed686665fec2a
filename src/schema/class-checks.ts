import type { Ajv } from 'ajv'
import { createAjv, describeError } from './ajv.js'
import { SchemaError } from './errors.js'
import { builtInFilters } from './metadata.js'
import type { ClassDef, Model, PropertyDef } from './model.js'
import { SchemaBuilder } from './typebox.js'

/**
 * The checks of a built model that look across a class's metadata, properties and the other classes:
 * what `@metadata` names must exist and fit, how each class is stored, and that a collection's classes
 * agree. check.ts parses and flattens the definitions, then runs these; the first fault found is thrown.
 */

/** Field lists such as `sortable` and `indexes` may name these as well as properties. */
const systemFields = ['_id', '_version', '_created_at', '_updated_at'] as const

/**
 * A default must name an optional property and be one of its values, as the validators would take it
 * (its type, enum, constraints): a form shows it, and a record saved from that form must be valid.
 */
function checkDefaults(cls: ClassDef, builder: SchemaBuilder, ajv: Ajv): void {
  for (const [name, value] of Object.entries(cls.metadata.defaults)) {
    const prop = cls.properties.find((p) => p.name === name)
    if (!prop || prop.kind !== 'optional') throw new SchemaError(cls.file, cls.name, `defaults name ${name}, which is not an optional property`)
    const validate = ajv.compile(builder.valueSchema(prop))
    if (!validate(value)) {
      const type = prop.target.kind === 'scalar' ? prop.target.scalar : prop.target.name
      const [first] = validate.errors ?? []
      throw new SchemaError(cls.file, cls.name, `defaults on ${name}: ${JSON.stringify(value)} is not a value of ${type}${first ? ` (${describeError(first)})` : ''}`)
    }
  }
}

function checkConstraints(cls: ClassDef): void {
  for (const [name, c] of Object.entries(cls.metadata.constraints)) {
    const prop = cls.properties.find((p) => p.name === name)
    if (!prop) throw new SchemaError(cls.file, cls.name, `constraints name ${name}, which is not a property`)
    const scalar = prop.target.kind === 'scalar' ? prop.target.scalar : prop.target.kind === 'reference' ? 'reference' : prop.target.kind
    const isString = scalar === 'xsd:string'
    const isNumber = scalar === 'xsd:integer' || scalar === 'xsd:decimal'
    if ((c.pattern !== undefined || c.format !== undefined || c.minLength !== undefined || c.maxLength !== undefined) && !isString) {
      throw new SchemaError(cls.file, cls.name, `constraints on ${name}: pattern, format and lengths apply to strings only`)
    }
    if ((c.minimum !== undefined || c.maximum !== undefined || c.exclusiveMinimum !== undefined) && !isNumber) {
      throw new SchemaError(cls.file, cls.name, `constraints on ${name}: minimum and maximum apply to numbers only`)
    }
    if (c.maxItems !== undefined && !['set', 'list', 'array'].includes(prop.kind)) {
      throw new SchemaError(cls.file, cls.name, `constraints on ${name}: maxItems applies to Set, List and Array only`)
    }
    if (c.pattern !== undefined) {
      try { new RegExp(c.pattern, 'u') } catch { throw new SchemaError(cls.file, cls.name, `constraints on ${name}: pattern is not a valid regular expression`) }
    }
  }
}

function checkFieldLists(cls: ClassDef, classes: ReadonlyMap<string, ClassDef>): void {
  const has = (name: string) => cls.properties.some((p) => p.name === name)
  const { metadata: m } = cls
  const lists: [string, readonly string[], boolean][] = [
    ['self_editable', m.self_editable, false], ['identity_fields', m.identity_fields, false], ['correctable_key', m.correctable_key, false], ['system_fields', m.system_fields, false], ['label', m.label, false],
    ['searchable', m.searchable, false], ['list_fields', m.list_fields, false],
    ['sortable', m.sortable, true], ['default_sort', m.default_sort.map((f) => f.replace(/^-/, '')), true],
    ...m.indexes.map((index): [string, readonly string[], boolean] => ['indexes', index.fields, true]),
  ]
  for (const [list, fields, systemAllowed] of lists) {
    for (const field of fields) {
      if (!has(field) && !(systemAllowed && (systemFields as readonly string[]).includes(field))) {
        throw new SchemaError(cls.file, cls.name, `@metadata ${list} names ${field}, which is not a property`)
      }
    }
  }
  if (m.grants !== undefined && !has(m.grants)) throw new SchemaError(cls.file, cls.name, `@metadata grants names ${m.grants}, which is not a property`)
  for (const [param, meaning] of Object.entries(m.filters)) {
    if (meaning.startsWith('@') ? !(builtInFilters as readonly string[]).includes(meaning) : !has(meaning)) {
      throw new SchemaError(cls.file, cls.name, `filter ${param}: ${meaning} is neither a built-in filter (${builtInFilters.join(', ')}) nor a property`)
    }
  }
  for (const related of m.related) {
    const other = classes.get(related.class)
    const field = other?.properties.find((p) => p.name === related.field)
    if (!other || !other.metadata.collection) throw new SchemaError(cls.file, cls.name, `related ${related.path}: ${related.class} is not a stored class`)
    if (field?.target.kind !== 'reference' || ![cls.name, ...cls.ancestors].includes(field.target.name)) {
      throw new SchemaError(cls.file, cls.name, `related ${related.path}: ${related.class}.${related.field} does not reference ${cls.name}`)
    }
  }
  for (const path of m.cache?.related ?? []) {
    if (!m.related.some((r) => r.path === path)) throw new SchemaError(cls.file, cls.name, `cache names related list ${path}, which is not declared in related`)
  }
}

function checkStorage(cls: ClassDef, classes: ReadonlyMap<string, ClassDef>): void {
  const m = cls.metadata
  if (cls.subdocument) {
    if (m.collection || m.path) throw new SchemaError(cls.file, cls.name, 'a @subdocument is embedded in its owner and takes no collection or path')
    return
  }
  if (!cls.abstract && !m.collection) throw new SchemaError(cls.file, cls.name, 'a concrete class needs @metadata.collection')
  if (m.path && !m.permissions) throw new SchemaError(cls.file, cls.name, 'a class with a path needs @metadata.permissions')
  if (m.path && m.protected) throw new SchemaError(cls.file, cls.name, 'a protected class cannot have a generic path')
  for (const prop of cls.properties) {
    if (prop.target.kind !== 'reference') continue
    const target = classes.get(prop.target.name)!
    if (!target.concrete.length || target.concrete.some((name) => !classes.get(name)!.metadata.collection)) {
      throw new SchemaError(cls.file, cls.name, `property ${prop.name} references ${target.name}, which is not stored in a collection`)
    }
  }
  if (cls.key && cls.key.type !== 'Random' && cls.key.type !== 'ValueHash') {
    for (const field of cls.key.fields) {
      const prop = cls.properties.find((p) => p.name === field)
      if (!prop || prop.kind !== 'required' || prop.target.kind === 'subdocument') {
        throw new SchemaError(cls.file, cls.name, `@key field ${field} must be a required property holding a value or a reference`)
      }
    }
  }
}

/** Properties of one name must mean the same thing everywhere in a collection, or one record schema cannot describe it. */
function checkCollections(classes: ReadonlyMap<string, ClassDef>): void {
  const seen = new Map<string, Map<string, { prop: PropertyDef; cls: ClassDef }>>()
  const paths = new Map<string, ClassDef>()
  for (const cls of classes.values()) {
    const collection = cls.metadata.collection
    if (!collection || cls.subdocument) continue
    const props = seen.get(collection) ?? new Map()
    seen.set(collection, props)
    for (const prop of cls.properties) {
      const before = props.get(prop.name)
      if (before && (before.prop.kind !== prop.kind || JSON.stringify(before.prop.target) !== JSON.stringify(prop.target))) {
        throw new SchemaError(cls.file, cls.name, `property ${prop.name} differs from ${before.cls.name}.${prop.name} in collection ${collection}`)
      }
      props.set(prop.name, { prop, cls })
    }
    const path = cls.metadata.path
    const owner = path ? paths.get(path) : undefined
    if (path && owner && owner.metadata.collection !== collection) {
      throw new SchemaError(cls.file, cls.name, `path ${path} is already served from collection ${owner.metadata.collection}`)
    }
    if (path && !owner) paths.set(path, cls)
  }
}

export function checkClasses(model: Model): void {
  const { classes } = model
  const builder = new SchemaBuilder(model)
  for (const cls of classes.values()) {
    checkConstraints(cls)
    checkFieldLists(cls, classes)
    checkStorage(cls, classes)
  }
  checkCollections(classes)
  // Last: a default is checked by the validators' engine against the schema they build, which needs the rest sound.
  const ajv = createAjv()
  for (const cls of classes.values()) checkDefaults(cls, builder, ajv)
}
