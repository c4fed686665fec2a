import type { DomainKey } from '../lib/domains.js'

/** The fields of a pending item the inbox shows (the API's WorkflowPendingItem). */
export interface PendingItem {
  readonly id: string
  readonly title: string
  readonly stage: string
  readonly due_at?: string
  readonly overdue: boolean
  readonly submitted_at: string
  /** The submitter's Person id, or their User id when they are linked to no Person. */
  readonly submitter: string
  /** Their name, when they are a Person. */
  readonly submitter_name: string | null
}

export interface InboxRow extends PendingItem {
  readonly domain: DomainKey
}

/** One queue's answer: its items and how many there are in all, or why it could not be read. */
export type QueueResult =
  | { readonly domain: DomainKey; readonly items: readonly PendingItem[]; readonly total: number }
  | { readonly domain: DomainKey; readonly error: string }

export interface Inbox {
  readonly rows: readonly InboxRow[]
  /** Items the queues hold beyond the page each returned. */
  readonly more: number
  readonly failures: readonly { readonly domain: DomainKey; readonly error: string }[]
}

/**
 * The six queues as one list: overdue first, then by due date (none last), then oldest submission first;
 * a queue that failed is reported, not dropped silently, and the others are still shown.
 */
export function mergeInbox(results: readonly QueueResult[]): Inbox {
  const rows: InboxRow[] = []
  const failures: { domain: DomainKey; error: string }[] = []
  let more = 0
  for (const result of results) {
    if ('error' in result) {
      failures.push({ domain: result.domain, error: result.error })
      continue
    }
    for (const item of result.items) rows.push({ ...item, domain: result.domain })
    more += Math.max(0, result.total - result.items.length)
  }
  const due = (row: InboxRow) => (row.due_at ? Date.parse(row.due_at) : Number.POSITIVE_INFINITY)
  rows.sort((a, b) => Number(b.overdue) - Number(a.overdue) || due(a) - due(b) || Date.parse(a.submitted_at) - Date.parse(b.submitted_at) || a.id.localeCompare(b.id))
  return { rows, more, failures }
}
