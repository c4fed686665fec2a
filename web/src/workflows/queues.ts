import { api, ApiError } from '../api/client'
import { domains } from '../lib/domains'
import type { QueueResult } from './inbox'

/** The six pending-approval queues, fetched side by side; each answers or fails on its own. */
export function fetchQueues(limit: number): Promise<QueueResult[]> {
  return Promise.all(domains.map(async (domain): Promise<QueueResult> => {
    try {
      const page = await api('get', domain.pending, { query: { limit } })
      return { domain: domain.key, items: page.items, total: page.total }
    } catch (error) {
      return { domain: domain.key, error: error instanceof ApiError ? error.message : String(error) }
    }
  }))
}
