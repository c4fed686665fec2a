import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { eventTypes } from '../../domain/notifications/events.js'
import { deliveryStatuses } from '../../notifications/webhooks/records.js'
import { errorResponses } from '../responses.js'
import { emptyBody, noQuery, paging } from '../shared.js'

const tags = ['Notifications']
const policy = allow.admin
const DateTime = Type.String({ format: 'date-time' })
const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()])

const Webhook = Type.Object({
  _id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  description: Type.String(),
  active: Type.Boolean({ description: 'False when an admin turned it off or it was disabled (see disabled_reason)' }),
  consecutive_failures: Type.Integer({ description: 'Deliveries failed for good in a row; 50 disable the webhook, a success sets it to 0' }),
  disabled_reason: Nullable(Type.String({ description: 'Why deliveries disabled it (a 410 answer, 50 failed deliveries); null when they did not' })),
  disabled_at: Nullable(DateTime),
  secret_rotated_at: Nullable(DateTime),
  previous_secret_expires_at: Nullable(Type.String({ format: 'date-time', description: 'Until when the secret replaced by the last rotation still signs beside the new one' })),
  created_at: DateTime,
  updated_at: DateTime,
}, { title: 'Webhook', additionalProperties: false })

const WithSecret = Type.Composite([Webhook, Type.Object({
  secret: Type.String({ description: 'whsec_ and the base64 of the key: shown in this answer only, never again' }),
})], { title: 'WebhookWithSecret', additionalProperties: false })

const WebhookBody = Type.Object({
  url: Type.String({ minLength: 1, maxLength: 2000, description: 'http(s); a loopback, link-local or private address (or a name resolving to one) is refused unless WEBHOOK_ALLOW_PRIVATE is true' }),
  events: Type.Array(Type.String({ maxLength: 100 }), { minItems: 1, maxItems: eventTypes.length, description: `Event types to receive: ${eventTypes.join(', ')}` }),
  description: Type.Optional(Type.String({ maxLength: 500 })),
  active: Type.Optional(Type.Boolean({ description: 'Default true on creation; left out on update, it keeps its value' })),
}, { additionalProperties: false })

const Attempt = Type.Object({
  at: DateTime,
  status_code: Type.Union([Type.Integer(), Type.Null()], { description: "The receiver's status; null when none came" }),
  error: Nullable(Type.String({ description: 'Why it failed (status, timeout, network error, refused address, redirect); null on success' })),
  response_body: Nullable(Type.String({ description: "The first 4 KB of the receiver's answer" })),
}, { additionalProperties: false })

const Delivery = Type.Object({
  _id: Type.String(),
  event_id: Type.String({ description: 'The event id, sent as webhook-id and as the CloudEvent id' }),
  type: Type.String(),
  status: Type.Union(deliveryStatuses.map((s) => Type.Literal(s))),
  attempts: Type.Array(Attempt),
  next_attempt_at: Nullable(Type.String({ format: 'date-time', description: 'When the next attempt is due; null once it succeeded or failed for good' })),
  created_at: DateTime,
}, { title: 'WebhookDelivery', additionalProperties: false })

const token = { pattern: '^[A-Za-z0-9_-]{1,64}$' }
const WebhookId = Type.Object({ id: Type.String(token) }, { additionalProperties: false })
const DeliveryParams = Type.Object({ id: Type.String(token), deliveryId: Type.String(token) }, { additionalProperties: false })
const page = <T extends typeof Webhook | typeof Delivery>(item: T) => Type.Object({ items: Type.Array(item), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() })

/**
 * Webhooks (docs/notifications.md): admins only, never API keys. A secret is answered at creation and
 * rotation only; deliveries are sent by jobs, never from these routes.
 */
export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const hooks = () => app.notifications.webhooks

  app.post('/api/webhooks', {
    config: { policy },
    schema: {
      tags, summary: 'Creates a webhook', description: 'Answers the webhook with its signing secret, which no later answer shows. The URL is checked against private and internal addresses (docs/notifications.md, "Where a webhook may send").',
      querystring: noQuery, body: WebhookBody, response: { 201: WithSecret, ...errorResponses(400, 401, 403) },
    },
  }, async (request, reply) => reply.code(201).send(await hooks().endpoints.create(request.body)))

  app.get('/api/webhooks', {
    config: { policy },
    schema: {
      tags, summary: 'The webhooks, newest first',
      querystring: Type.Object(paging, { additionalProperties: false }), response: { 200: page(Webhook), ...errorResponses(400, 401, 403) },
    },
  }, async (request) => hooks().endpoints.list(request.query))

  app.get('/api/webhooks/:id', {
    config: { policy },
    schema: { tags, summary: 'One webhook', params: WebhookId, querystring: noQuery, response: { 200: Webhook, ...errorResponses(400, 401, 403, 404) } },
  }, async (request) => hooks().endpoints.get(request.params.id))

  app.put('/api/webhooks/:id', {
    config: { policy },
    schema: {
      tags, summary: 'Changes a webhook', description: 'Replaces the URL (checked again) and the event types; a description or active left out keeps its value. Setting active on a disabled webhook clears why it was disabled.',
      params: WebhookId, querystring: noQuery, body: WebhookBody, response: { 200: Webhook, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => hooks().endpoints.update(request.params.id, request.body))

  app.delete('/api/webhooks/:id', {
    config: { policy },
    schema: { tags, summary: 'Deletes a webhook and its delivery log', params: WebhookId, querystring: noQuery, response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(400, 401, 403, 404) } },
  }, async (request, reply) => {
    await hooks().endpoints.remove(request.params.id)
    return reply.code(204).send(null)
  })

  app.post('/api/webhooks/:id/rotate-secret', {
    config: { policy },
    preValidation: emptyBody,
    schema: {
      operationId: 'rotateWebhookSecret', tags, summary: 'Gives a webhook a new secret, shown once',
      description: 'The replaced secret keeps signing beside the new one for 24 hours (two signatures in webhook-signature), so the receiver can switch without losing a message.',
      params: WebhookId, querystring: noQuery, body: Type.Object({}, { additionalProperties: false }), response: { 200: WithSecret, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => hooks().endpoints.rotateSecret(request.params.id))

  app.get('/api/webhooks/:id/deliveries', {
    config: { policy },
    schema: {
      tags, summary: "A webhook's delivery log, newest first",
      params: WebhookId,
      querystring: Type.Object({ ...paging, status: Type.Optional(Type.Union(deliveryStatuses.map((s) => Type.Literal(s)))) }, { additionalProperties: false }),
      response: { 200: page(Delivery), ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => {
    const { status, limit, offset } = request.query
    return hooks().deliveries.list(request.params.id, { ...(status ? { status } : {}), limit, offset })
  })

  app.post('/api/webhooks/:id/deliveries/:deliveryId/redeliver', {
    config: { policy },
    preValidation: emptyBody,
    schema: {
      tags, summary: 'Sends a delivery again, with the same webhook-id',
      description: 'Queues the send and answers the delivery as it now is (pending). A finished delivery gets one more attempt, without retries; a pending one is tried now, its retries kept.',
      params: DeliveryParams, querystring: noQuery, body: Type.Object({}, { additionalProperties: false }), response: { 202: Delivery, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request, reply) => reply.code(202).send(await hooks().deliveries.redeliver(request.params.id, request.params.deliveryId)))
}
