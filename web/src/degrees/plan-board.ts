import type { components } from '../api/schema.js'
// The server's own order of terms, imported rather than copied: src/domain/ is pure (the architecture
// test holds it to importing nothing outside itself), so the web bundle takes no server code with it.
import { compareTerms } from '../../../src/domain/terms.js'

export { compareTerms }

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
