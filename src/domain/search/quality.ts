import { withinOneEdit } from './distance.js'

/**
 * How well one query word matches one record word, from 1 (the same word) down. The tiers never
 * overlap: any exact match beats any prefix match, which beats any match with a typo. Within the prefix
 * tier, the more of the record word the query covers, the better ("algorithm" ranks "algorithms" above
 * "algorithmic"). Multiplied by the weight of the field the word was found in.
 */
export const quality = {
  exact: 1,
  prefixFloor: 0.6,
  prefixSpan: 0.3,
  typo: 0.45,
  typoInPrefix: 0.4,
} as const

/** Field weights: what names a record (names, codes, titles) counts above what describes it. */
export const weights = { primary: 1, secondary: 0.5 } as const

/**
 * Typos are tolerated in words of five letters or more. Digits do not count: a number or a course code
 * one digit off ("cs201" for "cs101") names something else, not a misspelling.
 */
export const minimumTypoLetters = 5

export function toleratesTypo(word: string): boolean {
  return word.length >= minimumTypoLetters && (word.match(/\p{L}/gu)?.length ?? 0) >= minimumTypoLetters
}

/** For a record word that begins with the query word. */
export function prefixQuality(query: string, word: string): number {
  return word.length === query.length ? quality.exact : quality.prefixFloor + (quality.prefixSpan * query.length) / word.length
}

/**
 * For a query word one edit away from the record word, or from a prefix of it of about the query's
 * length (so a typo in a word still being typed is forgiven too); 0 when there is no such match.
 */
export function typoQuality(query: string, word: string): number {
  if (Math.abs(word.length - query.length) <= 1 && withinOneEdit(query, word)) return quality.typo
  for (let length = query.length - 1; length <= query.length + 1 && length < word.length; length++) {
    if (withinOneEdit(query, word, length)) return quality.typoInPrefix
  }
  return 0
}
