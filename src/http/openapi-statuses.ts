import type { OpenApiDocument } from './openapi-components.js'

type Json = Record<string, unknown>
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value)

interface Operation {
  operationId?: string
  security?: unknown[]
  parameters?: { in: string; required?: boolean; schema?: { default?: unknown } }[]
  requestBody?: { content?: Record<string, { schema?: unknown }> }
  responses: Record<string, unknown>
}

/** The error answers routes share, by status: what each means, and its name among the document's responses. */
const errors: Record<number, { readonly name: string; readonly description: string }> = {
  400: { name: 'BadRequest', description: 'Invalid input; the message names the field' },
  401: { name: 'Unauthorized', description: 'Not signed in, or the credential is invalid' },
  403: { name: 'Forbidden', description: 'Signed in but not allowed: the role, a permission, or an API key where keys are not accepted' },
  404: { name: 'NotFound', description: 'No such record' },
  409: { name: 'Conflict', description: 'Conflict: duplicate, stale version or still referenced' },
  413: { name: 'PayloadTooLarge', description: 'Body larger than the limit' },
  415: { name: 'UnsupportedMediaType', description: 'Body of a media type the route does not take' },
  429: { name: 'TooManyRequests', description: 'Rate limit exceeded; x-ratelimit-reset says when to try again' },
  503: { name: 'ServiceUnavailable', description: 'A backing service is unavailable' },
}

export const errorMeanings: Readonly<Record<number, string>> = Object.fromEntries(Object.entries(errors).map(([status, { description }]) => [status, description]))

const errorBody = '#/components/schemas/ErrorBody'
const shared = (status: string) => ({ $ref: `#/components/responses/${errors[Number(status)]!.name}` })

/** The shared answer a response is, when it is one: the error body with its status's usual meaning. */
function isShared(status: string, response: unknown): boolean {
  const { description, content, ...rest } = (response ?? {}) as { description?: string; content?: Record<string, { schema?: { $ref?: string } }> }
  const media = Object.entries(content ?? {})
  return errors[Number(status)]?.description === description && !Object.keys(rest).length
    && media.length === 1 && media[0]![0] === 'application/json' && media[0]![1].schema?.$ref === errorBody && Object.keys(media[0]![1]).length === 1
}

/**
 * The answers every route of a kind can give, whether or not its own schema lists them: the request gate
 * refuses a missing or bad credential (401), a caller or API key the route's policy does not admit (403),
 * and, on a route the rate limiter counts, a caller over the limit (429); validation refuses bad input (400), the body parser a body over
 * the limit (413) or of another media type (415); a write, an instance whose schema the store has moved past (503).
 */
function addStatuses(operation: Operation, throttled: boolean, writes: boolean): void {
  const { responses } = operation
  const add = (status: string) => { responses[status] ??= shared(status) }
  if (operation.parameters?.length || operation.requestBody) add('400')
  if (operation.security?.length) {
    add('401')
    add('403')
  }
  if (operation.requestBody) {
    add('413')
    add('415')
  }
  if (throttled) add('429')
  // An instance left on an older class schema refuses writes (ADKS_SCHEMA_CHANGED).
  if (writes) add('503')
  for (const [status, response] of Object.entries(responses)) if (isShared(status, response)) responses[status] = shared(status)
}

/** A field with a default may be left out (the default is applied): it is not required of the caller. */
function optionalDefaults(schema: unknown): void {
  if (Array.isArray(schema)) return schema.forEach(optionalDefaults)
  if (!isObject(schema)) return
  const properties = schema.properties as Record<string, { default?: unknown }> | undefined
  if (properties && Array.isArray(schema.required)) {
    const required = schema.required.filter((name: string) => properties[name]?.default === undefined)
    if (required.length) schema.required = required
    else delete schema.required
  }
  for (const [key, value] of Object.entries(schema)) if (key !== 'default' && key !== 'examples' && key !== 'enum') optionalDefaults(value)
}

/**
 * What the caller must send and what a route can answer, as the service does it (see addStatuses); the
 * error answers as shared responses (`#/components/responses/Forbidden`), so a client has one type for each.
 */
export function completeOperations(doc: OpenApiDocument, unthrottled: ReadonlySet<string>): void {
  const paths = doc.paths as Record<string, Record<string, Operation>>
  for (const methods of Object.values(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      for (const parameter of operation.parameters ?? []) {
        if (parameter.in !== 'path' && parameter.schema?.default !== undefined) parameter.required = false
      }
      for (const media of Object.values(operation.requestBody?.content ?? {})) optionalDefaults(media.schema)
      addStatuses(operation, !unthrottled.has(operation.operationId ?? ''), !['get', 'head', 'options'].includes(method))
    }
  }
  doc.components.responses = Object.fromEntries(Object.values(errors).map(({ name, description }) =>
    [name, { description, content: { 'application/json': { schema: { $ref: errorBody } } } }]))
}
