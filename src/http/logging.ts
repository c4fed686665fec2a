import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { FastifyServerOptions } from 'fastify'
import type { DestinationStream } from 'pino'

const sensitiveParams = /([?&](?:token|customToken|idToken|SAMLResponse|SAMLRequest|RelayState|api_key|apiKey|key)=)[^&]*/gi
/** API keys (by their fixed prefix) and JWTs (by their JSON header), wherever a careless client put them. */
const credentialShapes = /adks_[0-9A-Za-z]+|eyJ[\w-]*\.[\w-]*\.[\w-]*/g
const requestIdShape = /^[A-Za-z0-9._-]{1,64}$/

/** A URL fit for the log: credential-bearing query parameters, and credentials anywhere, become [REDACTED]. */
export function loggableUrl(url: string): string {
  return url.replace(sensitiveParams, '$1[REDACTED]').replace(credentialShapes, '[REDACTED]')
}

/** Honours a caller's X-Request-Id when it is short and plain, so requests can be traced across services. */
export function requestId(req: IncomingMessage): string {
  const given = req.headers['x-request-id']
  return typeof given === 'string' && requestIdShape.test(given) ? given : randomUUID()
}

/** pino settings: JSON lines with the request id; credentials, keys and cookies never reach the log. */
export function loggerOptions(level: string, stream?: DestinationStream): FastifyServerOptions['logger'] {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: {
      paths: ['req.headers.authorization', 'req.headers["x-api-key"]', 'req.headers.cookie', 'res.headers["set-cookie"]', '*.password', '*.key', '*.idToken', '*.customToken', '*.token'],
      censor: '[REDACTED]',
    },
    serializers: {
      req: (req: { method: string; url: string; ip?: string; headers?: Record<string, unknown> }) => ({
        method: req.method,
        url: loggableUrl(req.url),
        remoteAddress: req.ip,
        userAgent: typeof req.headers?.['user-agent'] === 'string' ? req.headers['user-agent'].slice(0, 200) : undefined,
      }),
    },
  } as FastifyServerOptions['logger']
}
