import type { components } from '../api/schema.js'

type Status = components['schemas']['PlannedCourseStatus']
type Warning = components['schemas']['PlanWarning']

/** A planned course on the board; `key` keeps a card (and its focus) through moves between terms. */
export interface Entry {
  readonly key: number
  readonly course: string
  readonly term: string
  readonly status: Status
}

/** The pattern the class schema gives a planned course's term (schema/planning.json): "26S". */
export const termPattern = /^[0-9]{2}[FSUW]$/

/** Winter (January) term, spring, summer, fall: the server's order within a year (docs/degree-audit.md). */
const seasons = 'WSUF'

function termKey(term: string): number | undefined {
  const match = /^(\d{2})([FSUW])$/.exec(term)
  return match ? Number(match[1]) * 4 + seasons.indexOf(match[2]!) : undefined
}

/**
 * Terms in time order, as the server orders them for its warnings: codes that do not parse go last,
 * among themselves by text, so the board's columns always have one order.
 */
export function compareTerms(a: string, b: string): number {
  const ka = termKey(a)
  const kb = termKey(b)
  if (ka !== undefined && kb !== undefined) return ka - kb
  if (ka !== undefined) return -1
  if (kb !== undefined) return 1
  return a < b ? -1 : a > b ? 1 : 0
}

/** The board's columns: every term a course is planned for, and those the person added, in time order. */
export function boardTerms(entries: readonly Entry[], added: readonly string[]): string[] {
  return [...new Set([...entries.map((e) => e.term), ...added])].sort(compareTerms)
}

/** The entries with `key` moved to the end of `term` (a card dropped on a column lands last in it). */
export function moveEntry(entries: readonly Entry[], key: number, term: string): Entry[] {
  const moved = entries.find((e) => e.key === key)
  if (!moved || moved.term === term) return [...entries]
  return [...entries.filter((e) => e.key !== key), { ...moved, term }]
}

/** Where a card's "Move to" starts: the next term after its own, else the one before. */
export function defaultTarget(terms: readonly string[], term: string): string | undefined {
  const others = terms.filter((t) => t !== term)
  return others.find((t) => compareTerms(t, term) > 0) ?? others.at(-1)
}

/** The warnings the API gave about this course in this term: shown on its card. */
export function warningsOn(warnings: readonly Warning[], entry: Pick<Entry, 'course' | 'term'>): Warning[] {
  return warnings.filter((w) => w.course === entry.course && w.term === entry.term)
}

/** The warnings about a term as a whole (a credit load): shown at the head of its column. */
export function termWarnings(warnings: readonly Warning[], term: string): Warning[] {
  return warnings.filter((w) => !w.course && w.term === term)
}
