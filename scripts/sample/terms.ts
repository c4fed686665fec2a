/**
 * Term codes are a two-digit year and a season letter. The sample department runs fall and spring terms;
 * sections exist for the last four, the newest of which is in progress.
 */
export const sectionTerms = ['24F', '25S', '25F', '26S'] as const
export const currentTerm = '26S'

const seasonOrder: Record<string, number> = { W: 0, S: 1, U: 2, F: 3 }

export function termYear(term: string): number {
  return 2000 + Number(term.slice(0, 2))
}

export function termSeason(term: string): string {
  return term.slice(2)
}

/** Negative when a comes before b. */
export function compareTerms(a: string, b: string): number {
  return termYear(a) - termYear(b) || seasonOrder[termSeason(a)]! - seasonOrder[termSeason(b)]!
}

/** The fall and spring terms from `first` to `last`, inclusive. */
export function termsBetween(first: string, last: string): string[] {
  const terms: string[] = []
  let year = termYear(first)
  let season = termSeason(first)
  while (compareTerms(code(year, season), last) <= 0) {
    terms.push(code(year, season))
    if (season === 'F') { year++; season = 'S' } else season = 'F'
  }
  return terms
}

/** The fall term a cohort starting in that academic year begins with: 2025 gives "25F". */
export function fallOf(year: number): string {
  return code(year, 'F')
}

function code(year: number, season: string): string {
  return `${String(year % 100).padStart(2, '0')}${season}`
}
