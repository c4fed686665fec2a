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
