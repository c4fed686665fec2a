import type { OneRosterAcademicSession } from '../../connectors/oneroster/model.js'
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

/** academicSessions of type term (or semester) as term codes; other types are not terms and are left out. */
export function mapTerms(sessions: readonly OneRosterAcademicSession[]): { terms: SyncTerm[]; errors: RowError[] } {
  const terms: SyncTerm[] = []
  const errors: RowError[] = []
  for (const session of sessions) {
    if (!termTypes.has(session.type)) continue
    const code = termCode(session)
    if (code === undefined) errors.push({ row: session.row, sourced_id: session.sourcedId, message: `term "${session.title}" has no title like 25F and no start and end dates to name it by` })
    else terms.push({ sourced_id: session.sourcedId, code, title: session.title, start: session.startDate, end: session.endDate })
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
