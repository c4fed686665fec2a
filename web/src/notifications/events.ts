import type { components } from '../api/schema.js'
import { safeReturnTo } from '../lib/return-to.js'

export type NotificationType = components['schemas']['Notification']['type']

/**
 * What happened, in words, per event type (docs/notifications.md). A Record, so a type the API adds breaks the
 * web type check until it has its words.
 */
export const happened: Readonly<Record<NotificationType, string>> = {
  'workflow.submitted': 'Submitted on your behalf',
  'workflow.stage_activated': 'Awaits your decision',
  'workflow.decided': 'Approved at one stage, now with the next',
  'workflow.revision_requested': 'Revision requested',
  'workflow.approved': 'Approved',
  'workflow.rejected': 'Rejected',
  'workflow.withdrawn': 'Withdrawn',
  'workflow.delegated': 'Delegated to you',
  'workflow.due_soon': 'A decision is due soon',
  'workflow.overdue': 'A decision is overdue',
  'job.failed': 'A job failed',
  'sync.refused': 'A campus sync was refused',
  'sync.completed': 'A campus sync completed',
  'publications.imported': 'New publications to review',
  'record.restored': 'A record was restored',
  'sync.reverted': 'A run was reverted',
  'backup.completed': 'A backup was made',
  'backup.failed': 'A backup failed',
}

/**
 * The item's link when it is a path of this app (the server sends one); anything else (another
 * host, a script URL) is not linked, by the rule sign-in applies to `returnTo`.
 */
export function appPath(link: string): string | null {
  return safeReturnTo(link) === link ? link : null
}
