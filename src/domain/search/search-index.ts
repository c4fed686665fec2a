import { fold, words } from '../text.js'
import { prefixQuality, toleratesTypo, typoQuality } from './quality.js'
import { Vocabulary } from './vocabulary.js'

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
    const queryWords = [...new Set(words(query))].sort((a, b) => b.length - a.length)
    if (!queryWords.length) return { total: 0, hits: [] }
    let candidates: Map<string, number> | undefined
    for (const word of queryWords) {
      const scores = this.match(word, candidates)
      if (candidates) for (const [id, score] of scores) scores.set(id, score + candidates.get(id)!)
      candidates = scores
      if (!candidates.size) return { total: 0, hits: [] }
    }
    let total = 0
    const top: Hit[] = []
    for (const [id, sum] of candidates!) {
      const entry = this.entries.get(id)!
      if (options.accept && !options.accept(entry)) continue
      total++
      insertTop(top, { entry, score: Math.round((sum / queryWords.length) * 1000) / 1000 }, options.limit)
    }
    return { total, hits: top }
  }

  /** The best score of one query word in each document it matches (only among `within`, when given). */
  private match(word: string, within: ReadonlyMap<string, number> | undefined): Map<string, number> {
    const best = new Map<string, number>()
    const offer = (postings: ReadonlyMap<string, number>, quality: number) => {
      for (const [id, weight] of postings) {
        if (within && !within.has(id)) continue
        const score = quality * weight
        if (score > (best.get(id) ?? 0)) best.set(id, score)
      }
    }
    for (const [found, postings] of this.vocabulary.startingWith(word)) offer(postings, prefixQuality(word, found))
    if (toleratesTypo(word)) {
      for (const found of this.vocabulary.words()) {
        if (found.length < word.length - 1 || found.startsWith(word)) continue
        const quality = typoQuality(word, found)
        if (quality) offer(this.vocabulary.get(found)!, quality)
      }
    }
    return best
  }
}
