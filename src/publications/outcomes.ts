import type { CarriedEvents } from '../records/carried.js'

/**
 * A finished import's outcome event (docs/notifications.md): to each department member with new works to review.
 * Its title and data carry counts and ids only.
 */
export interface ImportEvent {
  /** The run's id: a run writes its event once. */
  readonly key: string
  readonly type: 'publications.imported'
  readonly source: string
  readonly subject: string
  readonly title: string
  readonly link: string
  readonly data: Record<string, unknown>
  readonly recipients: readonly string[]
}

/**
 * Where imports write their outcome events (notifications' event log): each carried by its
 * PublicationImportRun record in the record's own insert and published after it, so a process killed
 * between the two loses none (docs/notifications.md).
 */
export interface ImportEvents {
  carry(event: ImportEvent): CarriedEvents
}

export interface ImportOutcome {
  readonly runId: string
  /** The one person the run imported for; none for the import of every faculty member. */
  readonly personId?: string
  readonly status: 'completed' | 'stopped'
  readonly people: number
  readonly created: number
  readonly updated: number
  readonly unchanged: number
  /** Who has new works to review: the department authors of the works the run created or newly linked them to. */
  readonly newWorks: ReadonlySet<string>
}

export function importEvent(run: ImportOutcome): ImportEvent {
  const { runId, status, people, created, updated, unchanged } = run
  const stopped = status === 'stopped' ? ' (stopped for the day: the OpenAlex budget is spent)' : ''
  return {
    key: runId, type: 'publications.imported', source: '/api/publications', subject: runId,
    title: `Publication import: ${created} new ${created === 1 ? 'work' : 'works'}, ${updated} updated${stopped}`,
    link: '/publications',
    data: { run: runId, ...(run.personId ? { person: run.personId } : {}), status, people, created, updated, unchanged },
    recipients: [...run.newWorks].sort(),
  }
}
