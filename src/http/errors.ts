import { Type } from '@sinclair/typebox'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { errorTable, headersOf, isAppError, type ErrorCode } from '../errors.js'
import { StoreUnavailableError } from '../store/port.js'

export const ErrorBody = Type.Object({
  success: Type.Literal(false),
  error: Type.String({ description: 'What went wrong, naming the field or credential at fault; a 5xx gives the request id to quote' }),
  statusCode: Type.Integer(),
  code: Type.Unsafe<ErrorCode>({ type: 'string', enum: Object.keys(errorTable), description: 'The condition, a stable name clients match on (docs/errors.md says what each means)' }),
}, { $id: 'ErrorBody', title: 'Error' })

/** Fastify's own client errors keep their status, with messages that do not echo parser internals. */
const clientErrors: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'ADKS_BODY_MALFORMED', message: 'Body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'ADKS_BODY_MALFORMED', message: 'Body is empty but Content-Type is application/json' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'ADKS_BODY_MALFORMED', message: 'Content-Length does not match the body' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'ADKS_BODY_TOO_LARGE', message: 'Body is larger than the limit' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'ADKS_MEDIA_TYPE_UNSUPPORTED', message: 'Unsupported Content-Type' },
  FST_ERR_BAD_URL: { code: 'ADKS_URL_MALFORMED', message: 'Malformed URL: broken percent-encoding in the path' },
  FST_ERR_INVALID_URL: { code: 'ADKS_URL_MALFORMED', message: 'Malformed URL' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'ADKS_URL_TOO_LONG', message: 'A path parameter is too long' },
}

/** A 5xx says what failed in our words and the id its log lines carry, nothing more. */
export function quoting(message: string, requestId: string): string {
  return `${message}; quote request id ${requestId} when reporting it`
}

function send(reply: FastifyReply, code: ErrorCode, error: string, status: number = errorTable[code].status, headers: Readonly<Record<string, string>> = {}) {
  const message = status >= 500 ? quoting(error, reply.request.id) : error
  return reply.code(status).headers({ ...headersOf(code), ...headers }).send({ success: false, error: message, statusCode: status, code })
}

function clientError(reply: FastifyReply, error: FastifyError, fallback: string) {
  const known = error.code ? clientErrors[error.code] : undefined
  if (known) return send(reply, known.code, known.message, error.statusCode ?? errorTable[known.code].status)
  return send(reply, 'ADKS_BAD_REQUEST', fallback, error.statusCode ?? 400)
}

/**
 * The router's own refusals (a malformed URL, an overlong path parameter) happen before any route or
 * error handler; Fastify's `frameworkErrors` option hands them here so they get the same shape.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void clientError(reply, error, 'Bad request')
}

/** Every error answers `{success: false, error, statusCode, code}`; a 5xx never says more than its request id. */
async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (isAppError(error)) {
      if (error.statusCode >= 500) request.log.warn({ err: error }, error.message)
      return send(reply, error.code, error.message, error.statusCode, error.headers)
    }
    if (error.validation) return send(reply, 'ADKS_VALIDATION_FAILED', error.message)
    if (error instanceof StoreUnavailableError) {
      request.log.error({ err: error }, 'record store unavailable')
      return send(reply, 'ADKS_STORE_UNAVAILABLE', 'The record store is unavailable; try again shortly')
    }
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500) return clientError(reply, error, error.message)
    request.log.error({ err: error }, 'unhandled error')
    return send(reply, 'ADKS_INTERNAL', 'Internal error')
  })

  // The request gate runs for it too: the 404 answer is rate limited, so it cannot probe for paths at full speed.
  app.setNotFoundHandler((request, reply) => send(reply, 'ADKS_ROUTE_NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`))
}

export const errorsPlugin = fp(errors, { name: 'errors', dependencies: ['gate'] })
