import { PermanentJobError, type Enqueued, type JobContext } from '../../jobs/port.js'
import type { ChannelModule, NotificationDeps } from '../deps.js'
import { EmailChannel, sendJob } from './channel.js'
import { Contacts } from './contacts.js'
import { deliveries } from './deliveries.js'
import { Digest, type DigestResult } from './digest.js'
import { Mailer } from './mailer.js'
import { isDigestFrequency, Preferences, type DigestFrequency } from './preferences.js'
import { Sender } from './sender.js'

export const digestJob = 'digest'
const dayMs = 24 * 60 * 60 * 1000

/** Email (docs/notifications.md): immediate sends, digests and per-user preferences. */
export interface EmailModule extends ChannelModule {
  readonly preferences: Preferences
  /** Runs a digest now, in this process (the job's handler; tests). */
  digest(frequency: DigestFrequency, signal?: AbortSignal): Promise<DigestResult>
  /** Queues a digest run; one already waiting or running for the frequency is answered instead. */
  enqueueDigest(frequency: DigestFrequency): Promise<Enqueued>
  /** Closes the SMTP connections; sends after it leave their deliveries pending. */
  close(): void
}

function deliveryIds(context: JobContext): string[] {
  const ids = context.data.deliveries
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) throw new PermanentJobError('send-email needs data.deliveries, a list of delivery ids')
  return ids
}

export function createEmail(deps: NotificationDeps): EmailModule {
  const { store, records, schema, config, jobs, log } = deps
  const settings = config.notifications
  const now = deps.now ?? (() => new Date())
  const mailer = settings.smtpUrl ? new Mailer(settings.smtpUrl, settings.mailFrom) : null
  const preferences = new Preferences(store, new Contacts(store, records, schema))
  const sender = new Sender(store, mailer, settings.mailFrom, log, now)
  const shared = { smtp: mailer !== null, frontendUrl: config.frontendUrl, now }
  const channel = new EmailChannel(store, preferences, sender, shared)
  const digest = new Digest(store, records, schema, preferences, sender, { ...shared, timeZone: settings.timeZone })
  const schedule = (frequency: DigestFrequency, days: string) => ({
    queue: 'notifications' as const,
    spec: { id: `digest-${frequency}`, name: digestJob, pattern: `0 ${settings.digestHour} * * ${days}`, tz: settings.timeZone, data: { frequency } },
  })

  return {
    channel,
    preferences,
    handlers: {
      // SMTP trouble is not the job's failure: the deliveries stay pending and the sweep sends them again.
      [sendJob]: async (context) => ({ ...await sender.sendAll(deliveryIds(context), context.signal) }),
      [digestJob]: async (context) => {
        const { frequency } = context.data
        if (!isDigestFrequency(frequency)) throw new PermanentJobError('digest needs data.frequency, daily or weekly')
        return digest.run(frequency, context.signal)
      },
    },
    schedules: [schedule('daily', '*'), schedule('weekly', '1')],
    maintenance: {
      'prune-email-deliveries': {
        every: dayMs,
        run: async (at) => {
          const before = new Date(at.getTime() - settings.retentionDays * dayMs).toISOString()
          // Held news and unsent mail are still owed to someone; everything else past retention goes.
          const removed = await deliveries(store).deleteMany({ created_at: { $lt: before }, status: { $nin: ['held', 'pending', 'sending'] } })
          return { removed }
        },
      },
    },
    digest: (frequency, signal) => digest.run(frequency, signal),
    enqueueDigest: (frequency) => jobs.enqueue('notifications', digestJob, { frequency }, { dedupKey: `${digestJob}-${frequency}`, attempts: 1 }),
    close: () => mailer?.close(),
  }
}
