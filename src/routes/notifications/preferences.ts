import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { principalOf } from '../../auth/plugin.js'
import { digestFrequencies, emailFrequencies } from '../../notifications/email/preferences.js'
import { callerOf } from '../../workflows/identity.js'
import { errorResponses } from '../responses.js'
import { JobAccepted, noQuery } from '../shared.js'

const Frequency = Type.Union(emailFrequencies.map((f) => Type.Literal(f)), {
  description: 'immediate: an email per event; daily or weekly: one digest of what awaits you and other news; off: no email',
})

const Preference = Type.Object({
  email: Frequency,
  default: Type.Boolean({ description: 'True while you have not chosen: immediate for students, daily for everyone else' }),
}, { title: 'NotificationPreferences', additionalProperties: false })

/**
 * The caller's email preference (docs/notifications.md), kept under their workflow id (their Person id, else
 * their User id), which is the id events name them by; and the admin's run-it-now of a digest.
 */
export const notificationPreferenceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const email = app.notifications.email
  const idOf = async (request: Parameters<typeof principalOf>[0]) => (await callerOf(principalOf(request), app.people)).id

  app.get('/api/notifications/preferences', {
    config: { policy: allow.signedIn },
    schema: {
      tags: ['Notifications'], summary: "The caller's email preference",
      querystring: noQuery,
      response: { 200: Preference, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => email.preferences.of(await idOf(request)))

  app.put('/api/notifications/preferences', {
    config: { policy: allow.signedIn },
    schema: {
      tags: ['Notifications'], summary: "Sets the caller's email preference",
      description: 'Held news goes out in the next digest of the frequency you have when it runs.',
      querystring: noQuery,
      body: Type.Object({ email: Frequency }, { additionalProperties: false }),
      response: { 200: Preference, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => email.preferences.set(await idOf(request), request.body.email, new Date()))

  app.post('/api/admin/notifications/digest', {
    config: { policy: allow.permission('manage_jobs') },
    schema: {
      tags: ['Notifications'], summary: 'Runs a digest now',
      description: 'Sends the digest of the current period to everyone on that frequency who has not had it; a second run in the period sends nothing.',
      querystring: noQuery,
      body: Type.Object({ frequency: Type.Union(digestFrequencies.map((f) => Type.Literal(f))) }, { additionalProperties: false }),
      response: { 202: JobAccepted, ...errorResponses(400, 401, 403, 503) },
    },
  }, async (request, reply) => {
    const job = await email.enqueueDigest(request.body.frequency)
    return reply.code(202).send({ jobId: job.id })
  })
}
