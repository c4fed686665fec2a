/** Words of the class schema's property names kept in capitals when a name is put into words. */
const acronyms = new Set(['id', 'url', 'doi'])

/** A property name in words, for a form's label: `course_code` is "Course code", `campus_id` "Campus ID". */
export function inWords(name: string): string {
  const words = name.replace(/^_+/, '').split(/_+/).filter(Boolean)
  return words.map((word, i) => acronyms.has(word.toLowerCase()) ? word.toUpperCase() : i === 0 ? word[0]!.toUpperCase() + word.slice(1) : word).join(' ')
}

type Json = { [key: string]: unknown }
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Gives every property of a JSON Schema, at any depth, a `title` for form generators to label it with
 * (docs/schemas.md, "One type's schema"): the name in words, unless it has one. The schema's own
 * `description` (the class's `@documentation`) stays what it is, the help shown beside the field. Changes
 * `schema` in place.
 */
export function titleProperties(schema: unknown): void {
  if (Array.isArray(schema)) {
    for (const item of schema) titleProperties(item)
    return
  }
  if (!isObject(schema)) return
  if (isObject(schema.properties)) {
    for (const [name, property] of Object.entries(schema.properties)) if (isObject(property)) property.title ??= inWords(name)
  }
  for (const value of Object.values(schema)) titleProperties(value)
}

/**
 * Calls `visit` with each class's properties in a served schema: the class's own, or each `oneOf` member
 * titled by its class.
 */
function eachClass(schema: unknown, visit: (className: string, properties: Json) => void): void {
  if (!isObject(schema)) return
  if (Array.isArray(schema.oneOf)) for (const member of schema.oneOf) eachClass(member, visit)
  if (typeof schema.title === 'string' && isObject(schema.properties)) visit(schema.title, schema.properties)
}

/**
 * Gives each property a class's `@metadata.defaults` names its JSON Schema `default`, in a served schema:
 * what an absent value means, for forms to show. Only the served copy: the validators write no default.
 * Changes `schema` in place.
 */
export function markDefaults(schema: unknown, defaults: (className: string) => Readonly<Record<string, unknown>>): void {
  eachClass(schema, (className, properties) => {
    for (const [name, value] of Object.entries(defaults(className))) {
      const property = properties[name]
      if (isObject(property)) property.default ??= value
    }
  })
}

/**
 * Marks `readOnly` the properties a class's `@metadata.system_fields` names, in a served create schema,
 * so form generators leave out what the system keeps (docs/schemas.md, "One type's schema"). Only the
 * served copy is marked: the validators accept those fields as before. Changes `schema` in place.
 */
export function markSystemFields(schema: unknown, systemFields: (className: string) => readonly string[]): void {
  eachClass(schema, (className, properties) => {
    for (const name of systemFields(className)) {
      const property = properties[name]
      if (isObject(property)) property.readOnly = true
    }
  })
}
