import type { ChannelModule, NotificationDeps } from '../deps.js'

/** Email (DESIGN 6.7): immediate sends, digests and per-user preferences. */
export interface EmailModule extends ChannelModule {}

export function createEmail(_deps: NotificationDeps): EmailModule {
  return { channel: { name: 'email', fanOut: async () => [] }, handlers: {}, schedules: [], maintenance: {} }
}
