/**
 * A run's outcome events ready to ride in its run record's insert (the outbox, docs/notifications.md):
 * the record lands carrying them, and they are published after it, so a process killed between the two
 * loses none. Campus syncs and publication imports state their events in these terms without knowing
 * the event log.
 */
export interface CarriedEvents {
  /** Internal fields for the record's insert (`carry` of RecordService.create). */
  readonly fields: { readonly _events: readonly unknown[] }
  /** Once the record has landed: the events published, the record's field cleared. */
  publish(recordId: string): Promise<void>
}
