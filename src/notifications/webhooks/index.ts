import { hour } from '../../jobs/maintenance.js'
import type { ChannelModule, NotificationDeps } from '../deps.js'
import type { Resolver } from './address.js'
import { defaultTimeoutMs, sendJobName, WebhookDeliveries } from './deliveries.js'
import { WebhookEndpoints } from './endpoints.js'

/** Webhooks (docs/notifications.md): admins' endpoints, signed deliveries, retries and the delivery log. */
export interface WebhookModule extends ChannelModule {
  readonly endpoints: WebhookEndpoints
  readonly deliveries: WebhookDeliveries
}

export interface WebhookOptions {
  /** How long an attempt may take; 10 s (docs/notifications.md) unless a test needs it shorter. */
  readonly timeoutMs?: number
  /** DNS as the checks see it; the system resolver unless a test needs another. */
  readonly resolve?: Resolver
}

export function createWebhooks(deps: NotificationDeps, options: WebhookOptions = {}): WebhookModule {
  const now = deps.now ?? (() => new Date())
  const { webhookAllowPrivate: allowPrivate, webhookRetryDelaysMs: retryDelaysMs, retentionDays } = deps.config.notifications
  const resolve = options.resolve ? { resolve: options.resolve } : {}
  const endpoints = new WebhookEndpoints(deps.store, deps.secrets, { allowPrivate, now, ...resolve })
  const deliveries = new WebhookDeliveries(deps.store, endpoints, deps.jobs, deps.log, {
    retryDelaysMs, allowPrivate, now, timeoutMs: options.timeoutMs ?? defaultTimeoutMs, ...resolve,
    urls: { publicUrl: deps.config.publicUrl, frontendUrl: deps.config.frontendUrl },
  })
  return {
    endpoints,
    deliveries,
    channel: deliveries,
    handlers: { [sendJobName]: (context) => deliveries.handle(context) },
    schedules: [],
    maintenance: {
      'prune-webhook-deliveries': {
        every: 24 * hour,
        run: async (at) => ({
          deleted: await deliveries.prune(new Date(at.getTime() - retentionDays * 24 * hour)),
          secrets_forgotten: await endpoints.forgetExpiredSecrets(at),
        }),
      },
    },
  }
}
