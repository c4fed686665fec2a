import { fold, words } from '../text.js'
import { prefixQuality, toleratesTypo, typoQuality } from './quality.js'
import { Vocabulary, type Postings } from './vocabulary.js'

/** A text of a record to search in, with the weight its matches carry. */
export interface SearchField {
  readonly text: string
  readonly weight: number
}

/** A record as search sees it: what it is, how it is shown, and the texts it is found by. */
export interface SearchDocument {
  readonly kind: string
  readonly id: string
  readonly type: string
  readonly label: string
  readonly detail: string
  readonly fields: readonly SearchField[]
}

/** What the index keeps of a document: its presentation, its sort key and its words (to remove it). */
export interface SearchEntry {
  readonly kind: string
  readonly id: string
  readonly type: string
  readonly label: string
  readonly detail: string
  readonly sortKey: string
  readonly words: readonly string[]
}

export interface Hit {
  readonly entry: SearchEntry
  readonly score: number
}

export interface SearchOptions {
  readonly limit: number
  /** Which entries the caller may see; the rest are neither returned nor counted. */
  readonly accept?: (entry: SearchEntry) => boolean
}

export interface SearchResult {
  readonly total: number
  readonly hits: readonly Hit[]
}

/** Each word of a document with the highest weight of the fields it appears in. */
function termsOf(document: SearchDocument): Map<string, number> {
  const terms = new Map<string, number>()
  for (const field of document.fields) {
    for (const word of words(field.text)) terms.set(word, Math.max(terms.get(word) ?? 0, field.weight))
  }
  return terms
}

function entryOf(document: SearchDocument, terms: ReadonlyMap<string, number>): SearchEntry {
  const { kind, id, type, label, detail } = document
  return { kind, id, type, label, detail, sortKey: fold(label), words: [...terms.keys()] }
}

/** About how many words a document holds: the cost of matching a query word among candidates. */
const candidateWordsEstimate = 16

/**
 * Whether `found` (or its beginning) can be one edit from the query word at all, which `typoQuality`
 * then decides: not a word the query begins (that is a prefix match), not shorter than the query by two
 * or more, and sharing a letter in its first two places. One edit leaves the first letter in place
 * unless it falls on one of the first two letters, and then the second letter of one is the first or
 * second of the other; so a word passing neither test is never one edit away, and most of a vocabulary
 * is skipped at the cost of two comparisons.
 */
function mayBeOneEditAway(query: string, found: string): boolean {
  if (found.length < query.length - 1 || found.startsWith(query)) return false
  const q0 = query.charCodeAt(0)
  const q1 = query.charCodeAt(1)
  const f0 = found.charCodeAt(0)
  const f1 = found.charCodeAt(1)
  return f0 === q0 || f0 === q1 || f1 === q0 || f1 === q1
}

/** Higher score first, then label, then id: the same query over the same records always ranks alike. */
function before(a: Hit, b: Hit): boolean {
  if (a.score !== b.score) return a.score > b.score
  if (a.entry.sortKey !== b.entry.sortKey) return a.entry.sortKey < b.entry.sortKey
  return a.entry.id < b.entry.id
}

/** Keeps the best `limit` hits seen, in order, without sorting everything that matched. */
function insertTop(top: Hit[], hit: Hit, limit: number): void {
  if (top.length === limit && !before(hit, top[limit - 1]!)) return
  let low = 0
  let high = top.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (before(top[mid]!, hit)) low = mid + 1
    else high = mid
  }
  top.splice(low, 0, hit)
  if (top.length > limit) top.pop()
}

/**
 * An in-memory word index over search documents. A query matches a document when every query word
 * matches one of its words: the same word, a word it begins, or (for query words of five or more
 * letters) a word or word beginning one typo away. The score is the mean over the query words of the
 * best match quality times the field weight, rounded to three places.
 */
export class SearchIndex {
  private readonly entries = new Map<string, SearchEntry>()
  private readonly vocabulary = new Vocabulary()

  static of(documents: Iterable<SearchDocument>): SearchIndex {
    const builder = SearchIndex.builder()
    for (const document of documents) builder.add(document)
    return builder.build()
  }

  /**
   * Builds a new index a document at a time, so that a caller reading many records can yield between
   * them; the index is complete, and may be searched, once `build` returns it. Ids must be distinct.
   */
  static builder(): { add(document: SearchDocument): void; build(): SearchIndex } {
    const index = new SearchIndex()
    return {
      add(document) {
        const terms = termsOf(document)
        index.entries.set(document.id, entryOf(document, terms))
        index.vocabulary.addUnsorted(document.id, terms)
      },
      build() {
        index.vocabulary.sortAll()
        return index
      },
    }
  }

  /** Adds the document, replacing any earlier version with the same id. */
  put(document: SearchDocument): void {
    this.remove(document.id)
    const terms = termsOf(document)
    this.entries.set(document.id, entryOf(document, terms))
    this.vocabulary.add(document.id, terms)
  }

  remove(id: string): void {
    const entry = this.entries.get(id)
    if (!entry) return
    this.vocabulary.remove(id, entry.words)
    this.entries.delete(id)
  }

  get(id: string): SearchEntry | undefined {
    return this.entries.get(id)
  }

  get size(): number {
    return this.entries.size
  }

  get vocabularySize(): number {
    return this.vocabulary.size
  }

  search(query: string, options: SearchOptions): SearchResult {
    // The order the scores are summed in, so that a query ranks alike however it is narrowed.
    const queryWords = [...new Set(words(query))].sort((a, b) => b.length - a.length)
    if (!queryWords.length) return { total: 0, hits: [] }
    // Narrowed by the word with the fewest postings first ("cs 3": the 2,300 under "3", not the 52,000
    // under "cs"), so that each later word is matched among few candidates.
    const prefixed = queryWords.map((word) => [...this.vocabulary.startingWith(word)])
    const cost = prefixed.map((range) => range.reduce((sum, [, postings]) => sum + postings.size, 0))
    const order = queryWords.map((_, i) => i).sort((a, b) => cost[a]! - cost[b]! || a - b)
    const perWord: Map<string, number>[] = []
    let candidates: Map<string, number> | undefined
    for (const i of order) {
      candidates = this.match(queryWords[i]!, prefixed[i]!, cost[i]!, candidates)
      if (!candidates.size) return { total: 0, hits: [] }
      perWord[i] = candidates
    }
    let total = 0
    const top: Hit[] = []
    for (const id of candidates!.keys()) {
      const entry = this.entries.get(id)!
      if (options.accept && !options.accept(entry)) continue
      total++
      let sum = 0
      for (const scores of perWord) sum += scores.get(id)!
      insertTop(top, { entry, score: Math.round((sum / queryWords.length) * 1000) / 1000 }, options.limit)
    }
    return { total, hits: top }
  }

  /**
   * The best score of one query word in each document it matches (only among `within`, when given).
   * Read from the vocabulary (`prefixed`: the words the query word begins, holding `prefixPostings`
   * postings; and, for a typo, the whole vocabulary), or, when the candidates are few beside that, from
   * each candidate's own words: the same (document, word) pairs either way.
   */
  private match(word: string, prefixed: readonly [string, Postings][], prefixPostings: number, within: ReadonlyMap<string, number> | undefined): Map<string, number> {
    const typos = toleratesTypo(word)
    const readFromVocabulary = prefixPostings + (typos ? this.vocabulary.size : 0)
    if (within && within.size * candidateWordsEstimate < readFromVocabulary) return this.matchAmong(word, within, typos)
    const best = new Map<string, number>()
    const offer = (postings: ReadonlyMap<string, number>, quality: number) => {
      for (const [id, weight] of postings) {
        if (within && !within.has(id)) continue
        const score = quality * weight
        if (score > (best.get(id) ?? 0)) best.set(id, score)
      }
    }
    for (const [found, postings] of prefixed) offer(postings, prefixQuality(word, found))
    if (typos) {
      for (const found of this.vocabulary.words()) {
        if (!mayBeOneEditAway(word, found)) continue
        const quality = typoQuality(word, found)
        if (quality) offer(this.vocabulary.get(found)!, quality)
      }
    }
    return best
  }

  private matchAmong(word: string, within: ReadonlyMap<string, number>, typos: boolean): Map<string, number> {
    const best = new Map<string, number>()
    for (const id of within.keys()) {
      let score = 0
      for (const found of this.entries.get(id)!.words) {
        const quality = found.startsWith(word) ? prefixQuality(word, found) : typos && mayBeOneEditAway(word, found) ? typoQuality(word, found) : 0
        if (quality) score = Math.max(score, quality * this.vocabulary.get(found)!.get(id)!)
      }
      if (score > 0) best.set(id, score)
    }
    return best
  }
}
