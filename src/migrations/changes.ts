import type { ClassDef, Constraints, Model, PropertyDef, Target } from '../schema/model.js'

/**
 * One difference between the stored class schema and the files (docs/schemas.md). `compatible` changes
 * cannot make a stored record invalid and apply at once; the others are checked against the stored
 * records of `classes` (the stored classes they touch), and apply only if none breaks.
 */
export interface SchemaChange {
  readonly compatible: boolean
  /** What changed, in words: `Faculty.orcid_verified: a new required property`. */
  readonly text: string
  /** The stored classes whose records the change can break. */
  readonly classes: readonly string[]
  /** The property changed, for a change of one. */
  readonly property?: string
  /** The migration operation that would resolve it, where records break. */
  readonly remedy?: string
}

function targetText(target: Target): string {
  return target.kind === 'scalar' ? target.scalar : target.name
}

function propertyText(p: PropertyDef): string {
  return `${p.kind} ${targetText(p.target)}`
}

const looser: Record<string, readonly string[]> = {
  required: ['optional'],
  optional: [],
  set: [],
  list: [],
  array: [],
}

/** Whether every value `was` allows, `is` allows too (a loosened or unchanged constraint). */
function loosened(was: Constraints, is: Constraints): boolean {
  const lower = (a?: number, b?: number) => b === undefined || (a !== undefined && b <= a)
  const upper = (a?: number, b?: number) => b === undefined || (a !== undefined && b >= a)
  return (is.pattern === undefined || is.pattern === was.pattern) && (is.format === undefined || is.format === was.format)
    && lower(was.minLength, is.minLength) && upper(was.maxLength, is.maxLength)
    && lower(was.minimum, is.minimum) && upper(was.maximum, is.maximum)
    && lower(was.exclusiveMinimum, is.exclusiveMinimum) && upper(was.maxItems, is.maxItems)
}

/** The stored concrete classes a class's records live in (itself, or its concrete descendants). */
function storedOf(cls: ClassDef, model: Model): string[] {
  return cls.concrete.filter((name) => model.classes.get(name)?.metadata.collection && !model.classes.get(name)?.subdocument)
}

function propertyChanges(cls: ClassDef, was: ClassDef, model: Model): SchemaChange[] {
  const changes: SchemaChange[] = []
  const own = (p: PropertyDef) => p.declaredIn === cls.name
  const stored = storedOf(cls, model)
  for (const p of cls.properties.filter(own)) {
    const before = was.properties.find((q) => q.name === p.name)
    const at = `${cls.name}.${p.name}`
    if (!before) {
      const compatible = p.kind !== 'required'
      changes.push({ compatible, text: `${at}: a new ${p.kind === 'required' ? 'required' : p.kind} property (${targetText(p.target)})`, classes: stored, property: p.name, ...(compatible ? {} : { remedy: `create_property ${at} with a default` }) })
      continue
    }
    if (before.kind !== p.kind && !looser[before.kind]?.includes(p.kind)) {
      changes.push({ compatible: false, text: `${at}: ${propertyText(before)} becomes ${propertyText(p)}`, classes: stored, property: p.name, remedy: p.kind === 'required' ? `create_property ${at} with a default for records without it` : `cast_property ${at}` })
    }
    if (targetText(before.target) !== targetText(p.target)) {
      changes.push({ compatible: false, text: `${at}: its type ${targetText(before.target)} becomes ${targetText(p.target)}`, classes: stored, property: p.name, remedy: `cast_property ${at} to ${targetText(p.target)} with a default` })
    }
    if (!loosened(before.constraints, p.constraints)) {
      changes.push({ compatible: false, text: `${at}: a tightened constraint (${JSON.stringify(p.constraints)})`, classes: stored, property: p.name, remedy: `cast_property ${at} with a default for values outside it` })
    }
  }
  for (const p of was.properties.filter((q) => q.declaredIn === was.name)) {
    if (!cls.properties.some((q) => q.name === p.name)) {
      changes.push({ compatible: false, text: `${cls.name}.${p.name}: the property is gone`, classes: stored, property: p.name, remedy: `delete_property ${cls.name}.${p.name} (or rename_property, if it was renamed)` })
    }
  }
  return changes
}

/** Every change from `was` (the stored schema's model) to `is` (the files'), classified. */
export function schemaChanges(was: Model, is: Model): SchemaChange[] {
  const changes: SchemaChange[] = []
  for (const cls of is.classes.values()) {
    const before = was.classes.get(cls.name)
    if (!before) {
      changes.push({ compatible: true, text: `${cls.name}: a new class`, classes: [] })
      continue
    }
    const stored = storedOf(cls, is)
    if (before.metadata.collection !== cls.metadata.collection) {
      changes.push({ compatible: false, text: `${cls.name}: its collection ${before.metadata.collection ?? '(none)'} becomes ${cls.metadata.collection ?? '(none)'}`, classes: storedOf(before, was), remedy: `rename_class or delete_class ${cls.name}` })
    }
    if (JSON.stringify(before.key) !== JSON.stringify(cls.key)) {
      changes.push({ compatible: false, text: `${cls.name}: its @key changes`, classes: stored, remedy: `rename_class ${cls.name} (ids follow the new key)` })
    }
    if (before.abstract !== cls.abstract || JSON.stringify(before.ancestors) !== JSON.stringify(cls.ancestors)) {
      changes.push({ compatible: false, text: `${cls.name}: its place among the classes changes (abstract or inherits)`, classes: [...new Set([...stored, ...storedOf(before, was)])] })
    }
    changes.push(...propertyChanges(cls, before, is))
  }
  for (const cls of was.classes.values()) {
    if (!is.classes.has(cls.name)) changes.push({ compatible: false, text: `${cls.name}: the class is gone`, classes: storedOf(cls, was), remedy: `delete_class ${cls.name} (or rename_class, if it was renamed)` })
  }
  for (const e of is.enums.values()) {
    const before = was.enums.get(e.name)
    if (!before) {
      changes.push({ compatible: true, text: `${e.name}: a new enum`, classes: [] })
      continue
    }
    const added = e.values.filter((v) => !before.values.includes(v))
    const removed = before.values.filter((v) => !e.values.includes(v))
    if (added.length) changes.push({ compatible: true, text: `${e.name}: new value${added.length > 1 ? 's' : ''} ${added.join(', ')}`, classes: [] })
    if (removed.length) {
      const users = [...is.classes.values()].filter((c) => c.properties.some((p) => p.target.kind === 'enum' && p.target.name === e.name))
      changes.push({ compatible: false, text: `${e.name}: value${removed.length > 1 ? 's' : ''} ${removed.join(', ')} removed`, classes: [...new Set(users.flatMap((c) => storedOf(c, is)))], remedy: `replace_enum_value ${e.name} ${removed[0]} → another value` })
    }
  }
  for (const e of was.enums.values()) {
    if (!is.enums.has(e.name)) changes.push({ compatible: false, text: `${e.name}: the enum is gone`, classes: [] })
  }
  return changes
}
