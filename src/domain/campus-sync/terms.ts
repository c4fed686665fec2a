import type { OneRosterAcademicSession } from './model.js'
import type { RowError } from './types.js'

export interface SyncTerm {
  readonly sourced_id: string
  /** This service's term code: two-digit year and season letter, e.g. "25F". */
  readonly code: string
  readonly title: string
  readonly start?: string
  readonly end?: string
}

// A session's season is read from the middle of its dates: a fall term runs Aug-Dec (middle Sep-Dec),
// spring Jan-May (middle Feb-May), summer Jun-Aug, and a January term lies wholly in January.
const seasonByMonth = ['W', 'S', 'S', 'S', 'S', 'U', 'U', 'U', 'F', 'F', 'F', 'F'] as const
// Sessions of these types are terms; `semester` is what many US systems export for the same thing.
const termTypes = new Set(['term', 'semester'])

/**
 * The live terms of academicSessions: sessions of type term (or semester) that are neither `inactive` nor
 * `tobedeleted` and hold no other live term (a school year is not a term, whatever its type says).
 * Each gets a code from its title when that is one (25F), else from its dates; a session whose code an
 * earlier one already has is reported rather than offered, so distinct sessions never share a code.
 */
export function mapTerms(sessions: readonly OneRosterAcademicSession[]): { terms: SyncTerm[]; errors: RowError[] } {
  const terms: SyncTerm[] = []
  const errors: RowError[] = []
  const live = sessions.filter((session) => session.status === 'active')
  // A session with terms under it holds them (a school year exported as a term); grading periods under a term do not make it one.
  const parents = new Set(live.filter((session) => termTypes.has(session.type)).map((session) => session.parentSourcedId).filter((id): id is string => id !== undefined))
  const byCode = new Map<string, OneRosterAcademicSession>()
  for (const session of live) {
    if (!termTypes.has(session.type) || parents.has(session.sourcedId)) continue
    const code = termCode(session)
    const first = code === undefined ? undefined : byCode.get(code)
    if (code === undefined) errors.push({ row: session.row, sourced_id: session.sourcedId, message: `term "${session.title}" has no title like 25F and no start and end dates to name it by` })
    else if (first) errors.push({ row: session.row, sourced_id: session.sourcedId, message: `term "${session.title}" comes out as ${code}, the code of "${first.title}" (row ${first.row}); not offered` })
    else {
      byCode.set(code, session)
      terms.push({ sourced_id: session.sourcedId, code, title: session.title, start: session.startDate, end: session.endDate })
    }
  }
  return { terms, errors }
}

function termCode(session: OneRosterAcademicSession): string | undefined {
  if (/^[0-9]{2}[FSUW]$/.test(session.title)) return session.title
  const start = Date.parse(session.startDate ?? '')
  const end = Date.parse(session.endDate ?? '')
  if (Number.isNaN(start) || Number.isNaN(end) || end < start) return undefined
  const middle = new Date((start + end) / 2)
  return `${String(middle.getUTCFullYear() % 100).padStart(2, '0')}${seasonByMonth[middle.getUTCMonth()]}`
}
