import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../auth/permissions.js'
import { headersOf, type ErrorCode } from '../errors.js'
import { quoting } from '../http/errors.js'

const Check = Type.Object({ ok: Type.Boolean(), adapter: Type.String() })
const Checks = Type.Record(Type.String(), Check)

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/health', {
    config: { policy: allow.public, rateLimit: false },
    schema: { tags: ['Operations'], summary: 'Liveness: the process is up', response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
  }, async () => ({ status: 'ok' as const }))

  app.get('/ready', {
    config: { policy: allow.public, rateLimit: false },
    schema: {
      tags: ['Operations'], summary: 'Readiness: the backing services answer',
      response: {
        200: Type.Object({ status: Type.String(), checks: Checks }),
        503: Type.Object({
          success: Type.Literal(false), error: Type.String(), statusCode: Type.Literal(503), code: Type.Literal('ADKS_NOT_READY'),
          status: Type.String(), checks: Checks,
        }, { description: 'An error body that also names the checks that failed' }),
      },
    },
  }, async (request, reply) => {
    const checks: Record<string, { ok: boolean; adapter: string }> = {}
    for (const [name, probe] of app.readinessProbes) {
      try {
        checks[name] = { ok: true, adapter: await probe() }
      } catch (err) {
        // What the driver said stays in the log: the answer is public and carries no other system's text.
        request.log.error({ err, check: name }, 'readiness check failed')
        checks[name] = { ok: false, adapter: 'unreachable' }
      }
    }
    const failed = Object.keys(checks).filter((name) => !checks[name]!.ok)
    if (!failed.length) return { status: 'ready', checks }
    const code: ErrorCode = 'ADKS_NOT_READY'
    return reply.code(503).headers(headersOf(code)).send({
      success: false, error: quoting(`Not ready: ${failed.join(', ')} did not answer`, request.id), statusCode: 503, code,
      status: 'unavailable', checks,
    })
  })
}
