import { LRUCache } from 'lru-cache'

/** Queries remembered per collection; a list route asks a handful of shapes, with few distinct values. */
const entries = 256

/** The longest list of ids remembered: a page, not a job's read of a whole collection. */
const longest = 1000

/**
 * What recent exact queries of one collection answered: the ids a page `view` matched, or a count. A
 * list request asks for its page and its total, and the next request for that list asks the same until
 * something writes to the collection. `find` is left out: a job walking a collection in batches asks
 * each batch once, and would only push the pages requests ask for out.
 *
 * Cache rule. Holds: per SQL text and parameters, the ids it selected (up to 1,000) or the count it
 * gave, as of the collection's last write. Invalidated by: every write to the collection, which clears
 * them all before it returns (collection.ts `write`); only this process writes the file (lock.ts).
 * Test: the store contract's "a read after a write shows it, sorted or not" and "count follows the
 * writes", and test/store/embedded.test.ts ("a remembered page and count follow every kind of write").
 */
export class QueryAnswers {
  private readonly answers = new LRUCache<string, string[] | number>({ max: entries })

  remember<R extends string[] | number>(sql: string, params: readonly unknown[], query: () => R): R {
    const key = params.length ? `${sql}\u0000${JSON.stringify(params)}` : sql
    const known = this.answers.get(key) as R | undefined
    if (known !== undefined) return known
    const answer = query()
    if (typeof answer === 'number' || answer.length <= longest) this.answers.set(key, answer)
    return answer
  }

  clear(): void {
    if (this.answers.size) this.answers.clear()
  }
}
