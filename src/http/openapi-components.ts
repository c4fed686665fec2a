import type { CompiledSchema } from '../schema/index.js'
import { variants } from '../schema/typebox.js'

type Json = Record<string, unknown>

/** The parts of the OpenAPI document that are completed here and in openapi-statuses.ts. */
export interface OpenApiDocument {
  paths: Json
  components: { schemas?: Json; responses?: Json }
}
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)
/** Values that are data, not schemas: a title inside them names nothing. */
const dataKeywords = new Set(['default', 'example', 'examples', 'const', 'enum'])
/** Maps whose keys are names (of properties, of answers), never keywords: `properties.default` is a schema. */
const namedMaps = new Set(['properties', 'patternProperties', '$defs', 'responses'])
/** The members of a node worth looking into, as [key, value, whether the value is a map of names]. */
function members(node: Json, isMap: boolean): [string, unknown, boolean][] {
  return Object.entries(node).filter(([k]) => isMap || !dataKeywords.has(k)).map(([k, v]) => [k, v, !isMap && namedMaps.has(k)])
}
const refTo = (name: string) => `#/components/schemas/${name}`

/** The same JSON whatever the order of its keys. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (isObject(v) ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, v[k]])) : v))
}

/** What makes two schemas the same component: everything but the description a use may give it. */
function keyOf(schema: Json): string {
  const { description: _description, ...rest } = schema
  return canonical(rest)
}

const titled = (node: Json): node is Json & { title: string } => typeof node.title === 'string' && !('$ref' in node)

/** The class schema's schemas by the names the document gives them; `inputs` only where an operation takes them. */
export interface ClassComponents {
  readonly schemas: ReadonlyMap<string, Json>
  readonly inputs: ReadonlySet<string>
  /** Enum names by their values, for the properties and parameters that hold one. */
  readonly enums: ReadonlyMap<string, string>
}

/**
 * The class schema's own names for its schemas: a class's record is `Faculty`, what creates and updates
 * one `FacultyCreate` and `FacultyUpdate` (as the class's resource takes them), an abstract class's
 * `Person`, `PersonCreate` (a oneOf of its classes' creates) and `PersonUpdate`, an embedded
 * (subdocument) class and an enum their names. In plain JSON, as the document holds them.
 */
export function classComponents(schema: CompiledSchema): ClassComponents {
  const schemas = new Map<string, Json>()
  const inputs = new Set<string>()
  const plain = (built: unknown) => JSON.parse(JSON.stringify(built)) as Json
  const suffix = { record: '', create: 'Create', update: 'Update' } as const
  for (const cls of schema.model.classes.values()) {
    for (const variant of cls.subdocument ? ['record' as const] : variants) {
      const name = `${cls.name}${suffix[variant]}`
      schemas.set(name, plain(schema.schemaOf(cls.name, variant)))
      if (variant !== 'record') inputs.add(name)
    }
  }
  const byValues = new Map<string, string[]>()
  for (const [name, def] of schema.model.enums) {
    schemas.set(name, plain(schema.schemaOf(name, 'record')))
    const values = canonical(def.values)
    byValues.set(values, [...(byValues.get(values) ?? []), name])
  }
  // Two enums with the same values cannot be told apart by them: their uses stay as they are.
  const enums = new Map([...byValues].filter(([, names]) => names.length === 1).map(([values, [name]]) => [values, name!]))
  return { schemas, inputs, enums }
}

/** An enum's values where a property or parameter holds it: `{type: 'string', enum}`, with a description at most. */
function enumValues(node: Json): string | undefined {
  if (node.type !== 'string' || !Array.isArray(node.enum) || 'title' in node) return undefined
  return Object.keys(node).every((k) => k === 'type' || k === 'enum' || k === 'description') ? canonical(node.enum) : undefined
}

/** The role of a place in the document, to name a schema that shares its title with another. */
function roleAt(path: readonly string[]): string {
  const method = path[2]
  if (path[3] === 'requestBody') return method === 'post' ? 'Create' : 'Update'
  if (path[3] === 'responses') return 'Detail'
  return 'Variant'
}

/**
 * Makes every titled schema of the document one named component that its uses reference, instead of a
 * copy at each use: the class schema's schemas under their class names (see `classComponents`), any other
 * titled schema under its title. Two different schemas with one title are told apart by where they are
 * first used (`DegreeDetail` for Degree's detail answer); one that still cannot be named stays inline.
 * Existing components that are a class's schema under another name become references to it.
 * Every class's record is a component, used or not, so clients can import each class by name.
 */
export function hoistComponents(doc: OpenApiDocument, known: ClassComponents): void {
  const { schemas: classes, inputs, enums } = known
  const components: Json = { ...(doc.components.schemas ?? {}) }
  const nameOf = new Map<string, string>()
  // The first name wins: a concrete class's over that of an abstract class with no other subclass.
  for (const [name, schema] of classes) if (!nameOf.has(keyOf(schema))) nameOf.set(keyOf(schema), name)
  const used = new Set<string>([...Object.keys(components).filter((name) => !nameOf.has(keyOf(components[name] as Json)))])

  // First the titles in use and the schemas bearing each, so that names do not depend on visiting order.
  const firstSeen = new Map<string, { title: string; path: string[] }>()
  const collect = (node: unknown, path: string[], isMap = false) => {
    if (Array.isArray(node)) return node.forEach((item, i) => collect(item, [...path, String(i)]))
    if (!isObject(node)) return
    if (!isMap && titled(node)) {
      const key = keyOf(node)
      if (!firstSeen.has(key)) firstSeen.set(key, { title: node.title, path })
    }
    for (const [k, v, map] of members(node, isMap)) collect(v, [...path, k], map)
  }
  collect(doc.paths, ['paths'])
  for (const key of firstSeen.keys()) {
    const known = nameOf.get(key)
    if (known) used.add(known)
  }
  for (const name of classes.keys()) if (!inputs.has(name)) used.add(name)
  const byTitle = new Map<string, string[]>()
  for (const [key, { title }] of firstSeen) if (!nameOf.has(key)) byTitle.set(title, [...(byTitle.get(title) ?? []), key])
  for (const [title, keys] of byTitle) {
    const base = title.replace(/\(([^)]*)\)/g, ' $1').split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')
    for (const key of keys) {
      const role = roleAt(firstSeen.get(key)!.path)
      const candidates = keys.length === 1 ? [base, `${base}${role}`, `${base}${role}Body`] : [`${base}${role}`, `${base}${role}Body`]
      // A class's schema keeps its own name even where no operation takes it, so another schema of the
      // same title (a route's narrower body) never takes that name and is then replaced by the class's.
      const free = candidates.find((name) => !used.has(name) && !classes.has(name))
      if (!free) continue
      nameOf.set(key, free)
      used.add(free)
    }
  }

  // Then each titled schema, innermost first, becomes its component and a reference in its place.
  const hoist = (node: unknown, isMap = false): unknown => {
    if (Array.isArray(node)) return node.map((item) => hoist(item))
    if (!isObject(node)) return node
    const values = isMap ? undefined : enumValues(node)
    const name = isMap ? undefined : titled(node) ? nameOf.get(keyOf(node)) : values === undefined ? undefined : enums.get(values)
    const out: Json = { ...node }
    for (const [k, v, map] of members(node, isMap)) out[k] = hoist(v, map)
    if (!name) return out
    components[name] ??= out
    const own = (components[name] as Json).description
    return node.description !== undefined && node.description !== own ? { $ref: refTo(name), description: node.description } : { $ref: refTo(name) }
  }
  for (const [name, schema] of classes) {
    if (inputs.has(name) && !used.has(name)) continue
    // An enum is its own component: only a class's schema holds others.
    if (!('properties' in schema || 'oneOf' in schema)) {
      components[name] ??= schema
      continue
    }
    const { title: _title, ...inner } = schema
    const body = hoist(inner) as Json
    components[name] ??= { ...(schema.title === undefined ? {} : { title: schema.title }), ...body }
  }
  // Existing components (shared schemas the routes add) that are a class's schema become references to it.
  const renamed = new Map<string, string>()
  for (const [name, schema] of Object.entries(components)) {
    const known = nameOf.get(keyOf(schema as Json))
    if (known && known !== name && classes.has(known)) renamed.set(name, known)
  }
  for (const name of renamed.keys()) delete components[name]
  for (const [name, schema] of Object.entries(components)) {
    if (classes.has(name)) continue
    const { title: _title, ...inner } = schema as Json
    components[name] = { ...('title' in (schema as Json) ? { title: (schema as Json).title } : {}), ...(hoist(inner) as Json) }
  }
  doc.paths = hoist(doc.paths) as Json
  doc.components.schemas = Object.fromEntries(Object.keys(components).sort().map((name) => [name, components[name]]))
  redirect(doc, renamed)
  mapDiscriminators(doc.components.schemas)
}

function redirect(node: unknown, renamed: ReadonlyMap<string, string>): void {
  if (!renamed.size) return
  if (Array.isArray(node)) return node.forEach((item) => redirect(item, renamed))
  if (!isObject(node)) return
  if (typeof node.$ref === 'string') {
    const target = renamed.get(node.$ref.replace('#/components/schemas/', ''))
    if (target) node.$ref = refTo(target)
  }
  for (const value of Object.values(node)) redirect(value, renamed)
}

/**
 * A discriminated oneOf of references gets the mapping from each value of the discriminating property to
 * its schema, which generators need to pick the type (POST /api/people's body: `type` Faculty is FacultyCreate...).
 */
function mapDiscriminators(schemas: Json): void {
  for (const schema of Object.values(schemas) as Json[]) {
    const discriminator = schema.discriminator as { propertyName: string; mapping?: Record<string, string> } | undefined
    const options = schema.oneOf as { $ref?: string }[] | undefined
    if (!discriminator || !options?.every((o) => o.$ref)) continue
    const mapping: Record<string, string> = {}
    for (const { $ref } of options) {
      const target = schemas[$ref!.replace('#/components/schemas/', '')] as { properties?: Record<string, { const?: string; enum?: string[] }> } | undefined
      const tag = target?.properties?.[discriminator.propertyName]
      for (const value of tag?.const !== undefined ? [tag.const] : tag?.enum ?? []) mapping[value] = $ref!
    }
    discriminator.mapping = mapping
  }
}
