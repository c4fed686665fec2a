import type { FastifyInstance, FastifySchema } from 'fastify'
import type { FastifyValidationResult } from 'fastify/types/schema.js'
import type { FastifySchemaValidationError } from 'fastify/types/schema.js'
import { createAjv, describeError } from '../schema/ajv.js'
import { lazy } from './lazy-compile.js'

const partNames: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'headers' }

/**
 * Request validation with the shared engine: bodies exactly as sent (no type coercion, unknown fields
 * refused), query strings and path parameters coerced from text. The first problem is reported as one
 * sentence naming the field.
 */
export function installValidation(app: FastifyInstance): void {
  const strict = createAjv()
  const coercing = createAjv({ coerce: true })
  app.setValidatorCompiler(({ schema, httpPart }) =>
    lazy(() => (httpPart === 'body' ? strict : coercing).compile(schema as FastifySchema & object)) as FastifyValidationResult)
  app.setSchemaErrorFormatter((errors: FastifySchemaValidationError[], dataVar: string) => {
    const [first] = errors
    let detail = first ? describeError(first) : 'invalid'
    if (dataVar !== 'body') detail = detail.replace(/^unknown field/, 'unknown parameter')
    return new Error(`Invalid ${partNames[dataVar] ?? dataVar}: ${detail}`)
  })
}
