import type { RJSFSchema, UiSchema } from '@rjsf/utils'
import { words } from './catalog'

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * Fields the form leaves out: the record's bookkeeping (id, version, times, its type, fixed by the page)
 * and what the served schema marks `readOnly`, among them the fields the class's metadata says the
 * system keeps (`source`, `active`: docs/schemas.md). An update leaves out what it does not send.
 */
const kept = (name: string, schema: Json) => !name.startsWith('_') && name !== 'type' && schema.readOnly !== true

/** `anyOf: [X, null]` (an update's removable field) as X: an emptied field is sent as null (bodyOf). */
function unwrapNull(schema: Json): Json {
  const branches = Array.isArray(schema.anyOf) ? schema.anyOf.filter(isObject) : []
  const other = branches.filter((b) => b.type !== 'null')
  if (branches.length !== 2 || other.length !== 1) return schema
  const { anyOf: _anyOf, ...rest } = schema
  return { ...other[0], ...rest }
}

export interface Prepared {
  readonly schema: RJSFSchema
  readonly uiSchema: UiSchema
  /** The fields the form shows, and so the only ones it sends. */
  readonly fields: readonly string[]
  /** Whether the class's body names its type (polymorphic resources need it). */
  readonly typed: boolean
  /** The schema's `default` of each check box field that has one: what an absent value means. */
  readonly defaults: Readonly<Record<string, boolean>>
}

/**
 * The served schema of one class and variant as a form: each field titled (the schema's title, else its
 * name in words, never the raw name), references as pickers, long texts as text areas.
 */
export function prepare(served: Json): Prepared {
  const properties = isObject(served.properties) ? served.properties : {}
  const shown: Record<string, Json> = {}
  const uiSchema: UiSchema = {}
  const defaults: Record<string, boolean> = {}
  for (const [name, raw] of Object.entries(properties)) {
    if (!isObject(raw) || !kept(name, raw)) continue
    const field = unwrapNull(raw)
    if (field.type === 'boolean' && typeof field.default === 'boolean') defaults[name] = field.default
    shown[name] = { ...field, title: typeof field.title === 'string' ? field.title : words(name) }
    const items = isObject(field.items) ? field.items : undefined
    if (typeof field['x-reference'] === 'string') uiSchema[name] = { 'ui:widget': 'reference' }
    else if (items && typeof items['x-reference'] === 'string') uiSchema[name] = { items: { 'ui:widget': 'reference', 'ui:title': shown[name].title } }
    else if (field.type === 'string' && typeof field.maxLength === 'number' && field.maxLength > 1000) uiSchema[name] = { 'ui:widget': 'textarea' }
  }
  const required = Array.isArray(served.required) ? served.required.filter((n): n is string => typeof n === 'string' && n in shown) : []
  const { $id: _id, $schema: _schema, properties: _properties, required: _required, ...rest } = served
  return {
    schema: { ...rest, type: 'object', properties: shown, ...(required.length ? { required } : {}) } as RJSFSchema,
    uiSchema,
    fields: Object.keys(shown),
    typed: 'type' in properties,
    defaults,
  }
}

/** What a record holds of the form's fields (null, a removed field, as absent). */
export function formDataOf(fields: readonly string[], record: Readonly<Record<string, unknown>>): Json {
  return Object.fromEntries(fields.filter((f) => record[f] !== undefined && record[f] !== null).map((f) => [f, record[f]]))
}

/**
 * What the form shows of a record: its values, and for a check box the record leaves out, the schema's
 * default, which is what the absence means (a course with no `active` is active), never an unchecked box.
 */
export function shownDataOf(form: Pick<Prepared, 'fields' | 'defaults'>, record: Readonly<Record<string, unknown>>): Json {
  const shown = formDataOf(form.fields, record)
  for (const [field, value] of Object.entries(form.defaults)) if (shown[field] === undefined) shown[field] = value
  return shown
}

/**
 * The body to send: the form's fields as filled; on update, a field emptied since it was read is sent as
 * null, and a check box the record left out and still at its default is not sent (the absence already
 * means it, and the record stays as it was).
 */
export function bodyOf(fields: readonly string[], data: Json, read?: Json, defaults: Readonly<Record<string, boolean>> = {}): Json {
  const body: Json = {}
  for (const field of fields) {
    const absent = read !== undefined && (read[field] === undefined || read[field] === null)
    if (absent && field in defaults && data[field] === defaults[field]) continue
    if (data[field] !== undefined) body[field] = data[field]
    else if (read && !absent) body[field] = null
  }
  return body
}

/**
 * The field a 400 names: the server quotes it first, top-level name first ("Invalid body: 'credits'
 * must be >= 0" from src/http/validation.ts, "'prerequisites[0]' refers to ...", "unknown field 'x'").
 */
export function fieldOf(message: string, fields: readonly string[]): string | undefined {
  const name = /'([A-Za-z_][A-Za-z0-9_]*)/.exec(message)?.[1]
  return name !== undefined && fields.includes(name) ? name : undefined
}
