import { Type, type TSchema } from '@sinclair/typebox'
import type { ClassDef, Model, PropertyDef, Target } from './model.js'

export type Variant = 'record' | 'create' | 'update'
export const variants: readonly Variant[] = ['record', 'create', 'update']

/** The part of an id after the slash: URL-safe without encoding, so ids travel in paths as they are. */
export const idKeyPattern = '[A-Za-z0-9._~-]{1,160}'
const defaultMaxLength = 1000
const defaultMaxItems = 500

export function idPattern(classNames: readonly string[]): string {
  return `^(${classNames.join('|')})/${idKeyPattern}$`
}

function scalarSchema(target: Extract<Target, { kind: 'scalar' }>, prop: PropertyDef): TSchema {
  const { maxItems, ...c } = prop.constraints
  switch (target.scalar) {
    case 'xsd:string': return Type.String({ maxLength: defaultMaxLength, ...c })
    case 'xsd:integer': return Type.Integer(c)
    case 'xsd:decimal': return Type.Number(c)
    case 'xsd:boolean': return Type.Boolean()
    case 'xsd:dateTime': return Type.String({ format: 'date-time' })
    case 'xsd:date': return Type.String({ format: 'date' })
  }
}

/** Builds the TypeBox schemas of the model's classes; results are cached per class and variant. */
export class SchemaBuilder {
  private readonly cache = new Map<string, TSchema>()

  constructor(private readonly model: Model) {}

  /** The schema of one value of the property (an item, for Sets and Lists). */
  valueSchema(prop: PropertyDef): TSchema {
    const { target } = prop
    switch (target.kind) {
      case 'scalar': return scalarSchema(target, prop)
      case 'enum': {
        const values = this.model.enums.get(target.name)!.values
        return Type.Unsafe<string>({ type: 'string', enum: [...values] })
      }
      case 'reference': {
        const concrete = this.model.classes.get(target.name)!.concrete
        return Type.String({ pattern: idPattern(concrete), 'x-reference': target.name })
      }
      case 'subdocument': return this.classSchema(target.name, 'create')
    }
  }

  private propertySchema(prop: PropertyDef, variant: Variant): TSchema {
    const value = this.valueSchema(prop)
    const options = prop.description ? { description: prop.description } : {}
    if (prop.kind === 'set' || prop.kind === 'list' || prop.kind === 'array') {
      const array = Type.Array(value, {
        ...options, maxItems: prop.constraints.maxItems ?? defaultMaxItems, ...(prop.kind === 'set' ? { uniqueItems: true } : {}),
      })
      return variant === 'record' ? array : Type.Optional(array)
    }
    const described = { ...value, ...options } as TSchema
    if (prop.kind === 'required') return variant === 'update' ? Type.Optional(described) : described
    // In an update, null removes an optional value.
    return Type.Optional(variant === 'update' ? Type.Union([described, Type.Null()], options) : described)
  }

  private systemProperties(cls: ClassDef, variant: Variant, typeRequired: boolean): Record<string, TSchema> {
    const id = Type.String({ pattern: idPattern(cls.concrete), description: 'Record id, <Type>/<identifier>' })
    const type = cls.concrete.length === 1
      ? Type.Literal(cls.concrete[0]!, { description: 'Record type' })
      : Type.Unsafe<string>({ type: 'string', enum: [...cls.concrete], description: 'Record type' })
    const version = Type.Integer({ minimum: 1, description: 'Incremented by every write; send it back to update only the version you read' })
    const stamp = (description: string) => Type.String({ format: 'date-time', description, readOnly: true })
    if (cls.subdocument) return {}
    switch (variant) {
      case 'record':
        return { _id: id, type, _version: version, _created_at: stamp('Creation time'), _updated_at: stamp('Last update time') }
      case 'create':
        return { type: typeRequired ? type : Type.Optional(type) }
      case 'update':
        // A record read with GET may be sent back whole: its id, type and timestamps must match or are ignored.
        return {
          _id: Type.Optional(id), type: Type.Optional(type), _version: Type.Optional(version),
          _created_at: Type.Optional(stamp('Ignored on update')), _updated_at: Type.Optional(stamp('Ignored on update')),
        }
    }
  }

  /** Schema of one class. `typeRequired` makes `type` mandatory in a create body (polymorphic resources). */
  classSchema(name: string, variant: Variant, typeRequired = false): TSchema {
    const cacheKey = `${name}:${variant}:${typeRequired}`
    const cached = this.cache.get(cacheKey)
    if (cached) return cached
    const cls = this.model.classes.get(name)
    if (!cls) throw new Error(`unknown class ${name}`)
    const properties: Record<string, TSchema> = { ...this.systemProperties(cls, variant, typeRequired) }
    for (const prop of cls.properties) properties[prop.name] = this.propertySchema(prop, variant)
    const schema = Type.Object(properties, {
      title: cls.name, additionalProperties: false, ...(cls.comment ? { description: cls.comment } : {}),
    })
    this.cache.set(cacheKey, schema)
    return schema
  }

  enumSchema(name: string): TSchema {
    const def = this.model.enums.get(name)!
    return Type.Unsafe<string>({ type: 'string', title: name, enum: [...def.values], ...(def.comment ? { description: def.comment } : {}) })
  }

  /**
   * Schema of a resource serving several classes (people): records and updates merge every class's
   * properties, all optional; creates are a oneOf discriminated by `type`.
   */
  resourceSchema(root: ClassDef, variant: Variant): TSchema {
    if (root.concrete.length === 1) return this.classSchema(root.concrete[0]!, variant)
    const cacheKey = `resource:${root.name}:${variant}`
    const cached = this.cache.get(cacheKey)
    if (cached) return cached
    let schema: TSchema
    if (variant === 'create') {
      schema = Type.Unsafe({
        type: 'object',
        title: `${root.name} (create)`,
        description: `${root.comment ?? ''} The \`type\` field picks the kind of record.`.trim(),
        oneOf: root.concrete.map((name) => this.classSchema(name, 'create', true)),
        discriminator: { propertyName: 'type' },
      })
    } else {
      // The id and type of any concrete class: each class's own would admit only its own ids.
      const merged: Record<string, TSchema> = { ...this.systemProperties(root, variant, false) }
      for (const name of root.concrete) {
        const { properties, required = [] } = this.classSchema(name, variant) as TSchema & { properties: Record<string, TSchema>; required?: string[] }
        for (const [prop, s] of Object.entries(properties)) {
          const sharedRequired = required.includes(prop) && root.concrete.every((c) => this.classRequired(c, variant).includes(prop))
          merged[prop] ??= sharedRequired ? s : Type.Optional(s)
        }
      }
      schema = Type.Object(merged, { title: root.name, additionalProperties: false, ...(root.comment ? { description: root.comment } : {}) })
    }
    this.cache.set(cacheKey, schema)
    return schema
  }

  private classRequired(name: string, variant: Variant): string[] {
    return ((this.classSchema(name, variant) as { required?: string[] }).required) ?? []
  }
}
