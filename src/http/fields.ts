/**
 * Whether a request part (params, query) holds named fields. Hooks see every route, so the type
 * provider cannot type these parts for them; a route without the part leaves it undefined or null.
 */
export function hasFields(part: unknown): part is Readonly<Record<string, unknown>> {
  return typeof part === 'object' && part !== null
}

const none: Readonly<Record<string, unknown>> = Object.freeze({})

/** The part's fields, or none. */
export function fieldsOf(part: unknown): Readonly<Record<string, unknown>> {
  return hasFields(part) ? part : none
}
