import { mapTerms, type SyncTerm } from '../domain/campus-sync/terms.js'
import { isAppError, SyncSourceUnreadable, ValidationFailed } from '../errors.js'
import type { CampusSyncConfig } from './config.js'
import { openSource } from './source.js'

/**
 * A source that cannot be read answers 502: the fault is the feed's, not the caller's. What the feed
 * said goes to the log (as the error's cause), never to the caller: it is another system's text.
 */
function unreadable(cause: unknown) {
  return new SyncSourceUnreadable('The campus sync source could not be read', { cause })
}

/** How long a request waits on the feed's academicSessions. */
const sessionsTimeoutMs = 15_000

/** The terms of the source's academicSessions (of type term or semester). */
export async function sourceTerms(config: CampusSyncConfig): Promise<SyncTerm[]> {
  try {
    const source = await openSource(config.source, { timeoutMs: sessionsTimeoutMs })
    const read = await source.read('academicSessions', { signal: AbortSignal.timeout(sessionsTimeoutMs) })
    if (read.failure) throw unreadable(new Error(read.failure))
    return mapTerms(read.rows).terms
  } catch (error) {
    if (isAppError(error)) throw error
    throw unreadable(error)
  }
}

/** A run narrowed to a term needs a term the source or the configuration knows; else a 400 naming it. */
export function checkTerm(term: string, known: readonly SyncTerm[], config: CampusSyncConfig): void {
  if (known.some((t) => t.code === term) || config.terms.includes(term)) return
  const codes = [...new Set([...known.map((t) => t.code), ...config.terms])].sort()
  throw new ValidationFailed(`Unknown term ${JSON.stringify(term)}: the source knows ${codes.length ? codes.join(', ') : 'no terms'}`)
}
