import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../auth/permissions.js'

const Check = Type.Object({ ok: Type.Boolean(), adapter: Type.String(), error: Type.Optional(Type.String()) })

export const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/health', {
    config: { policy: allow.public, rateLimit: false },
    schema: { tags: ['Operations'], summary: 'Liveness: the process is up', response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
  }, async () => ({ status: 'ok' as const }))

  app.get('/ready', {
    config: { policy: allow.public, rateLimit: false },
    schema: {
      tags: ['Operations'], summary: 'Readiness: the backing services answer',
      response: { 200: Type.Object({ status: Type.String(), checks: Type.Record(Type.String(), Check) }), 503: Type.Object({ status: Type.String(), checks: Type.Record(Type.String(), Check) }) },
    },
  }, async (_request, reply) => {
    const checks: Record<string, { ok: boolean; adapter: string; error?: string }> = {}
    for (const [name, probe] of app.readinessProbes) {
      try {
        checks[name] = { ok: true, adapter: await probe() }
      } catch (error) {
        checks[name] = { ok: false, adapter: 'unreachable', error: (error as Error).message }
      }
    }
    const ready = Object.values(checks).every((c) => c.ok)
    reply.code(ready ? 200 : 503)
    return { status: ready ? 'ready' : 'unavailable', checks }
  })
}
