import type { QueueName } from '../jobs/port.js'

/**
 * The publication sync is two recurring jobs managed as one (`/api/schedulers/publication-sync`): the
 * import of every faculty member's works, and the refresh of citation counts. Each is a scheduler with
 * this id in its own queue; the handlers of those queues answer to these job names.
 */
export const publicationSync = {
  import: { queue: 'publication-import', id: 'publication-sync', name: 'import-all' },
  citations: { queue: 'citation-refresh', id: 'publication-sync', name: 'refresh-all' },
} as const satisfies Record<string, { queue: QueueName; id: string; name: string }>
