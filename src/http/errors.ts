import { Type } from '@sinclair/typebox'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { AppError } from '../errors.js'
import { StoreUnavailableError } from '../store/port.js'

export const ErrorBody = Type.Object({
  success: Type.Literal(false),
  error: Type.String({ description: 'What went wrong, naming the field or credential at fault' }),
  statusCode: Type.Integer(),
}, { $id: 'ErrorBody', title: 'Error' })

/** Fastify's own client errors keep their status, with messages that do not echo parser internals. */
const clientMessages: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'Body is not valid JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'Body is empty but Content-Type is application/json',
  FST_ERR_CTP_BODY_TOO_LARGE: 'Body is larger than the limit',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'Unsupported Content-Type',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'Content-Length does not match the body',
  FST_ERR_BAD_URL: 'Malformed URL: broken percent-encoding in the path',
  FST_ERR_MAX_PARAM_LENGTH: 'A path parameter is too long',
}

function send(reply: FastifyReply, statusCode: number, error: string, headers: Record<string, string> = {}) {
  return reply.code(statusCode).headers(headers).send({ success: false, error, statusCode })
}

/**
 * The router's own refusals (a malformed URL, an overlong path parameter) happen before any route or
 * error handler; Fastify's `frameworkErrors` option hands them here so they get the same shape.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  void send(reply, error.statusCode ?? 400, (error.code && clientMessages[error.code]) ?? 'Bad request')
}

/** Every error answers `{success: false, error, statusCode}`; a 5xx never says more than its request id. */
async function errors(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.warn({ err: error }, error.message)
      return send(reply, error.statusCode, error.message, { ...error.headers })
    }
    if (error.validation) return send(reply, 400, error.message)
    if (error instanceof StoreUnavailableError) {
      request.log.error({ err: error }, 'record store unavailable')
      return send(reply, 503, 'The record store is unavailable; try again shortly', { 'retry-after': '5' })
    }
    const status = error.statusCode ?? 500
    if (status >= 400 && status < 500) {
      const message = (error.code && clientMessages[error.code]) ?? error.message
      return send(reply, status, message)
    }
    request.log.error({ err: error }, 'unhandled error')
    return send(reply, 500, `Internal error; quote request id ${request.id} when reporting it`)
  })

  // The request gate runs for it too: the 404 answer is rate limited, so it cannot probe for paths at full speed.
  app.setNotFoundHandler((request, reply) => send(reply, 404, `Route ${request.method} ${request.url.split('?')[0]} not found`))
}

export const errorsPlugin = fp(errors, { name: 'errors', dependencies: ['gate'] })
