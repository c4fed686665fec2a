import type { TSchema } from '@sinclair/typebox'
import { createHash } from 'node:crypto'
import { createAjv } from './ajv.js'
import { buildModel } from './check.js'
import { collectionSpecs, referenceFields, type CollectionSpec, type ReferenceField } from './collections.js'
import { loadSchemaFiles, type RawFile } from './load.js'
import type { ClassDef, Model } from './model.js'
import { resourceTable, type Resource } from './resources.js'
import { SchemaBuilder, idKeyPattern, type Variant } from './typebox.js'
import { Validators } from './validators.js'

export type { Resource } from './resources.js'
export type { CollectionSpec, ReferenceField } from './collections.js'
export type { ClassDef, Model, PropertyDef } from './model.js'
export type { Variant } from './typebox.js'
export { SchemaError } from './errors.js'

const idShape = new RegExp(`^([A-Z][A-Za-z0-9]*)/(${idKeyPattern})$`)

/** JSON with every object's keys in order, so equal values give equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`
  }
  return JSON.stringify(value)
}

export class CompiledSchema {
  readonly builder: SchemaBuilder
  readonly validators: Validators
  readonly collections: readonly CollectionSpec[]
  readonly resources: readonly Resource[]
  private readonly references: readonly ReferenceField[]

  /**
   * The schema files as read, and their SHA-256 over a canonical JSON form: what a backup records as
   * the schema its records were written under.
   */
  readonly source: readonly RawFile[]
  readonly hash: string

  constructor(readonly model: Model, source: readonly RawFile[] = []) {
    this.source = source
    this.hash = createHash('sha256').update(canonicalJson(source.map(({ file, definitions }) => ({ file, definitions })))).digest('hex')
    this.builder = new SchemaBuilder(model)
    this.validators = new Validators(createAjv(), this.builder)
    this.collections = collectionSpecs(model)
    this.resources = resourceTable(model)
    this.references = referenceFields(model)
  }

  class<N extends string>(name: N): ClassDef<N> | undefined {
    return this.model.classes.get(name) as ClassDef<N> | undefined
  }

  /** The stored class an id names, or undefined when the id is malformed or names no stored class. */
  classOfId(id: string): ClassDef | undefined {
    const match = idShape.exec(id)
    const cls = match ? this.model.classes.get(match[1]!) : undefined
    return cls && !cls.abstract && !cls.subdocument && cls.metadata.collection ? cls : undefined
  }

  /** Fields anywhere in the store that may hold an id of this class. */
  referrersOf(className: string): readonly ReferenceField[] {
    const cls = this.model.classes.get(className)
    if (!cls) return []
    const targets = new Set([cls.name, ...cls.ancestors])
    return this.references.filter((ref) => targets.has(ref.target))
  }

  resourceOf(className: string): Resource | undefined {
    return this.resources.find((r) => r.classes.includes(className))
  }

  /** A class's or an enum's schema; abstract classes get the merged schema of their concrete classes. */
  schemaOf(name: string, variant: Variant): TSchema | undefined {
    if (this.model.enums.has(name)) return this.builder.enumSchema(name)
    const cls = this.model.classes.get(name)
    if (!cls) return undefined
    if (cls.abstract) return this.builder.resourceSchema(cls, variant)
    const typeRequired = variant === 'create' && (this.resourceOf(name)?.polymorphic ?? false)
    return this.builder.classSchema(name, cls.subdocument ? 'create' : variant, typeRequired)
  }
}

export async function compileSchema(dir: string): Promise<CompiledSchema> {
  const files = await loadSchemaFiles(dir)
  return new CompiledSchema(buildModel(files), files)
}
