/**
 * What the run children (sync-run-child.ts, import-run-child.ts) share: the run's events carried in its
 * record's insert as the service carries them, and then, in place of publishing them, the record's id
 * printed (`landed <id>`) and a wait for the SIGKILL the test sends on that line.
 */
import type { CarriedEvents } from '../../src/records/carried.js'

export function heldAfterLanding(carried: CarriedEvents): CarriedEvents {
  return {
    fields: carried.fields,
    async publish(recordId: string) {
      console.log(`landed ${recordId}`)
      await new Promise(() => {})
    },
  }
}

/** A run's job context with nothing to report to. */
export const quietContext = { signal: new AbortController().signal, progress: async () => {}, log: { info: () => {}, warn: () => {}, error: () => {} } }
