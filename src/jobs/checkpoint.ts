/** Stops between pages when the job is asked to stop; the job runs again later and finds the writes done. */
export function checkpoint(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason instanceof Error ? signal.reason : new Error('the run was stopped')
}
