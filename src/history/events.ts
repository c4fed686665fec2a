/**
 * An event of records' history (docs/notifications.md; docs/history.md), as history states it; who hears of
 * it (the department admins) is for whoever records it to say.
 */
export interface HistoryEvent {
  /** Unique per outcome: the revision or run that is the event. */
  readonly key: string
  readonly type: 'record.restored' | 'sync.reverted'
  readonly source: string
  readonly subject: string
  readonly title: string
  readonly link: string
  readonly data: Record<string, unknown>
}

/**
 * A restore's event (docs/notifications.md): thin, as every payload is, with the record's id, type and the
 * versions involved, never its fields. Keyed by the version the restore wrote, so it is written once.
 */
export function restoredEvent(record: { readonly _id: string; readonly type: string; readonly _version: number }, from: number): HistoryEvent {
  return {
    key: `${record._id}@${record._version}`, type: 'record.restored', source: '/api/records', subject: record._id,
    title: `${record._id} restored to version ${from}`, link: '/admin/trash',
    data: { record: record._id, type: record.type, version: record._version, restored_from: from },
  }
}

/** A run's revert finished (or, in a dry run, reported): the run reverted, and what became of its records. */
export function revertedEvent(revert: { readonly runId: string; readonly reverts: string; readonly reverted: number; readonly conflicts: number }): HistoryEvent {
  return {
    key: revert.runId, type: 'sync.reverted', source: '/api/campus-sync', subject: revert.reverts,
    title: `${revert.reverts} reverted: ${revert.reverted} records back, ${revert.conflicts} left as others changed them`, link: '/admin/sync',
    data: { run: revert.runId, reverts: revert.reverts, reverted: revert.reverted, conflicts: revert.conflicts },
  }
}
