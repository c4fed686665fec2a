import type { ChannelModule, NotificationDeps } from '../deps.js'

/** Webhooks (DESIGN 6.7): admins' endpoints, signed deliveries, retries and the delivery log. */
export interface WebhookModule extends ChannelModule {}

export function createWebhooks(_deps: NotificationDeps): WebhookModule {
  return { channel: { name: 'webhooks', fanOut: async () => [] }, handlers: {}, schedules: [], maintenance: {} }
}
