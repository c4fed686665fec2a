/** For one word: the documents holding it, each with the weight of the field it was found in. */
export type Postings = Map<string, number>

/** First position in `sorted` whose word is not before `word`. */
function lowerBound(sorted: readonly string[], word: string): number {
  let low = 0
  let high = sorted.length
  while (low < high) {
    const mid = (low + high) >>> 1
    if (sorted[mid]! < word) low = mid + 1
    else high = mid
  }
  return low
}

/**
 * The distinct words of the indexed documents, each with its postings, and the same words in sorted
 * order so that every word starting with a prefix is one binary search and a short walk away.
 */
export class Vocabulary {
  private readonly postings = new Map<string, Postings>()
  private sorted: string[] = []

  /** For building in bulk: the words are sorted once, by `sortAll`, instead of one by one. */
  addUnsorted(id: string, terms: ReadonlyMap<string, number>): void {
    for (const [word, weight] of terms) this.post(word).set(id, weight)
  }

  sortAll(): void {
    this.sorted = [...this.postings.keys()].sort()
  }

  add(id: string, terms: ReadonlyMap<string, number>): void {
    for (const [word, weight] of terms) {
      if (!this.postings.has(word)) this.sorted.splice(lowerBound(this.sorted, word), 0, word)
      this.post(word).set(id, weight)
    }
  }

  remove(id: string, words: Iterable<string>): void {
    for (const word of words) {
      const postings = this.postings.get(word)
      if (!postings) continue
      postings.delete(id)
      if (postings.size) continue
      this.postings.delete(word)
      this.sorted.splice(lowerBound(this.sorted, word), 1)
    }
  }

  private post(word: string): Postings {
    let postings = this.postings.get(word)
    if (!postings) {
      postings = new Map()
      this.postings.set(word, postings)
    }
    return postings
  }

  get(word: string): Postings | undefined {
    return this.postings.get(word)
  }

  /** Every word beginning with `prefix` (the prefix itself included), in sorted order. */
  *startingWith(prefix: string): Generator<[string, Postings]> {
    for (let i = lowerBound(this.sorted, prefix); i < this.sorted.length; i++) {
      const word = this.sorted[i]!
      if (!word.startsWith(prefix)) return
      yield [word, this.postings.get(word)!]
    }
  }

  /** All words, sorted. */
  words(): readonly string[] {
    return this.sorted
  }

  get size(): number {
    return this.sorted.length
  }
}
