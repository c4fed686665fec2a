import type { EventRecord } from '../collections.js'
import { absoluteLink } from '../links.js'

/** Where links and sources point: the service's public address and the web app's. */
export interface PayloadUrls {
  readonly publicUrl: string
  readonly frontendUrl: string
}

/**
 * The CloudEvents 1.0 JSON event a webhook receives (docs/notifications.md). Thin, as FERPA asks: the event's
 * ids and facts, the entity's title and a link into the web app; never its recipients, the actor or
 * anything written in the request (comments), which a receiver reads, if entitled, through the API.
 */
export function cloudEvent(event: EventRecord, urls: PayloadUrls): string {
  return JSON.stringify({
    specversion: '1.0',
    id: event._id,
    source: `${urls.publicUrl.replace(/\/+$/, '')}${event.source}`,
    type: event.type,
    subject: event.subject,
    time: event.time,
    datacontenttype: 'application/json',
    data: { ...event.data, title: event.title, link: absoluteLink(urls.frontendUrl, event.link) },
  })
}
