import { Ajv, type ErrorObject, type Options } from 'ajv'
import formatsPlugin from 'ajv-formats'

/**
 * The one validation engine: Fastify's request validation and the record service both compile the
 * derived schemas with it, so a record gets the same checks and messages whichever way it arrives.
 * `coerce` is for query strings and path parameters only; a body's types must be right as sent.
 */
export function createAjv(options: { coerce?: boolean } = {}): Ajv {
  const settings: Options = {
    strict: true,
    allErrors: false,
    verbose: true,
    discriminator: true,
    removeAdditional: false,
    useDefaults: true,
    coerceTypes: options.coerce ? 'array' : false,
  }
  const ajv = new Ajv(settings)
  // ajv-formats is CommonJS: the default import is its module.exports, which also carries the plugin as
  // `default`, the one name its typings give it under NodeNext.
  formatsPlugin.default(ajv, ['email', 'uri', 'date-time', 'date'])
  ajv.addKeyword({ keyword: 'x-reference', schemaType: 'string' })
  return ajv
}

function fieldName(path: string): string {
  return path.replace(/^\//, '').replace(/\/(\d+)(?=\/|$)/g, '[$1]').replace(/\//g, '.')
}

/** One readable sentence naming the field, e.g. `'email' must be a valid email`. */
export function describeError(error: ErrorObject): string {
  const field = fieldName(error.instancePath)
  const at = (name: string) => `'${name}'`
  const subject = field ? at(field) : 'the value'
  const params = error.params as Record<string, unknown>
  const parent = (error.parentSchema ?? {}) as Record<string, unknown>
  switch (error.keyword) {
    case 'additionalProperties':
      return `unknown field ${at(field ? `${field}.${params.additionalProperty}` : String(params.additionalProperty))}`
    case 'required':
      return `${at(field ? `${field}.${params.missingProperty}` : String(params.missingProperty))} is required`
    case 'enum':
      return `${subject} must be one of: ${(params.allowedValues as unknown[]).join(', ')}`
    case 'const':
      return `${subject} must be ${JSON.stringify(params.allowedValue)}`
    case 'discriminator':
      return params.error === 'tag'
        ? `'${params.tag}' is required and must be a string`
        : `'${params.tag}' must be one of: ${listTypes(parent)}`
    case 'pattern':
      if (typeof parent['x-reference'] === 'string') {
        const name = parent['x-reference']
        return `${subject} must be the id of ${/^(?:[AEIO]|U(?!s|ni))/.test(name) ? 'an' : 'a'} ${name} (<Type>/<identifier>)`
      }
      return `${subject} must match the pattern ${params.pattern}`
    case 'format':
      return `${subject} must be a valid ${params.format}`
    case 'uniqueItems':
      return `${subject} must not repeat an item (items ${params.j} and ${params.i} are equal)`
    case 'type':
      return `${subject} must be ${Array.isArray(params.type) ? params.type.join(' or ') : params.type}`
    default:
      return `${subject} ${error.message ?? 'is invalid'}`
  }
}

/** The values a discriminated oneOf takes in its tag (`type` of a person, `decision` of a workflow decision). */
function listTypes(schema: Record<string, unknown>): string {
  const tag = (schema.discriminator as { propertyName?: string } | undefined)?.propertyName ?? 'type'
  const options = (schema.oneOf ?? []) as { properties?: Record<string, { const?: string; enum?: string[] } | undefined> }[]
  return options.map((o) => o.properties?.[tag]?.const ?? o.properties?.[tag]?.enum?.join(', ')).filter(Boolean).join(', ')
}
