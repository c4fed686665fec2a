import type { FastifyBaseLogger } from 'fastify'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { SearchIndex, type SearchEntry } from '../domain/search/search-index.js'
import { unheardMaxAgeMs, type Notice, type WriteNotices } from '../cluster/write-notices.js'
import type { Change, RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'
import { documentOf, searchKinds, type SearchKind, type SearchKindName } from './documents.js'

/** Records indexed between two turns of the event loop during a rebuild. */
const buildSlice = 200

export interface SearchQuery {
  readonly q: string
  readonly limit: number
  /** The kinds the caller may read and asked for. */
  readonly kinds: ReadonlySet<SearchKindName>
  /** Record types to keep (a role filter), all when absent. */
  readonly types?: ReadonlySet<string>
  /** Student records are answered to admins only. */
  readonly includeStudents: boolean
}

export interface SearchResultItem {
  readonly kind: SearchKindName
  readonly _id: string
  readonly label: string
  readonly detail: string
  readonly score: number
}

export interface SearchAnswer {
  readonly total: number
  readonly results: SearchResultItem[]
}

/**
 * The search index of one process. Built from the store at start-up, then kept current by the record
 * service's change notices: each change re-reads that record, and a search waits for re-reads still
 * under way, so a search after a write on this instance sees the write. Other instances sharing a
 * MongoDB store announce their writes (cluster/redis-notices.ts): a notice naming records re-reads them,
 * one naming only a collection, or a gap in the notices, rebuilds the index. While notices may go unheard
 * (Redis down, or none configured) the index is rebuilt every two seconds. `refreshMs` (0: never) adds a
 * periodic rebuild for writes made outside the service.
 *
 * Cache rule. Holds: a search document (label, searchable text, type) per person, course and lab record,
 * students included. Invalidated by: every record write on this instance (its change notice re-reads the
 * record before the next search answers); across instances, each write notice (re-read or rebuild) and,
 * while notices may go unheard, a rebuild every `unheardMaxAgeMs`. Who may see a student hit is decided
 * per request from the caller (admins only), never stored in the index. Tests: test/search/access.test.ts
 * (a search after a write on this instance sees the write), test/search/rebuild.test.ts (another
 * instance's writes, after a rebuild), test/cluster/two-instances.test.ts (notices between two processes,
 * and rebuilds without Redis).
 */
export class SearchService {
  private index = new SearchIndex()
  readonly kinds: readonly SearchKind[]
  private readonly kindOfCollection: Map<string, SearchKind>
  private readonly studentTypes: ReadonlySet<string>
  private readonly pending = new Set<Promise<void>>()
  /** The latest re-read asked for each record; an older one finishing later is dropped. */
  private readonly latest = new Map<string, number>()
  private sequence = 0
  /** Records changed while a rebuild reads the store, re-read once the rebuilt index is in place. */
  private changedDuringRebuild: Map<string, SearchKind> | null = null
  private rebuilding: Promise<void> | null = null
  private timer: NodeJS.Timeout | undefined
  private unheardTimer: NodeJS.Timeout | undefined
  /** When the index in use started being read from the store. */
  private readFrom = 0
  private closed = false

  constructor(
    private readonly records: RecordService,
    private readonly schema: CompiledSchema,
    private readonly log: FastifyBaseLogger,
    private readonly refreshMs: number,
    private readonly notices: WriteNotices | null = null,
  ) {
    this.kinds = searchKinds(schema)
    this.kindOfCollection = new Map(this.kinds.map((k) => [k.collection, k]))
    this.studentTypes = new Set([...schema.model.classes.values()].filter((c) => c.metadata.student && !c.abstract).map((c) => c.name))
  }

  async start(): Promise<void> {
    this.records.onChange((change) => this.changed(change))
    this.notices?.onNotice((notice) => this.heard(notice))
    this.notices?.onMissed(() => this.rebuildAfterWrite())
    await this.rebuild()
    if (this.notices) {
      const notices = this.notices
      this.unheardTimer = setInterval(() => {
        if (!notices.heardOf() && Date.now() - this.readFrom >= unheardMaxAgeMs) this.rebuildAfterWrite()
      }, unheardMaxAgeMs / 4)
      this.unheardTimer.unref()
    }
    if (this.refreshMs > 0) {
      this.timer = setInterval(() => {
        this.rebuild().catch((error: unknown) => this.failed('search index rebuild failed; the previous index stays in use', error))
      }, this.refreshMs)
      this.timer.unref()
    }
  }

  /** Stops the rebuilds; work still under way finishes quietly, as the store is closing too. */
  close(): void {
    this.closed = true
    clearInterval(this.timer)
    clearInterval(this.unheardTimer)
  }

  private failed(message: string, error: unknown, id?: string): void {
    if (!this.closed) this.log.error({ err: error, ...(id ? { id } : {}) }, message)
  }

  /** Reads every searchable record and swaps the new index in; concurrent calls share one rebuild. */
  rebuild(): Promise<void> {
    this.rebuilding ??= this.readAll().finally(() => { this.rebuilding = null })
    return this.rebuilding
  }

  /** A rebuild that reads the store after now: one already under way may have read before a write. */
  private rebuildAfterWrite(): void {
    const underWay = this.rebuilding?.catch(() => {}) ?? Promise.resolve()
    underWay.then(() => this.rebuild())
      .catch((error: unknown) => this.failed('search index rebuild failed; the previous index stays in use', error))
  }

  private async readAll(): Promise<void> {
    const readFrom = Date.now()
    const changed = new Map<string, SearchKind>()
    this.changedDuringRebuild = changed
    try {
      const builder = SearchIndex.builder()
      for (const kind of this.kinds) {
        const found = await this.records.find(kind.root, {})
        for (let i = 0; i < found.length; i++) {
          builder.add(documentOf(this.schema, kind.name, found[i]!))
          // Requests keep being served while a large index is rebuilt.
          if (i % buildSlice === buildSlice - 1) await nextTurn()
        }
      }
      this.index = builder.build()
      this.readFrom = readFrom
    } finally {
      this.changedDuringRebuild = null
    }
    for (const [id, kind] of changed) this.refresh(id, kind)
  }

  private changed(change: Change): void {
    const kind = this.kindOfCollection.get(change.collection)
    if (!kind) return
    this.changedDuringRebuild?.set(change.id, kind)
    this.refresh(change.id, kind)
  }

  /** Another instance wrote: re-read the records it names, or everything when it names none. */
  private heard(notice: Notice): void {
    const kind = this.kindOfCollection.get(notice.collection)
    if (!kind) return
    if (!notice.ids) return this.rebuildAfterWrite()
    for (const id of notice.ids) {
      this.changedDuringRebuild?.set(id, kind)
      this.refresh(id, kind)
    }
  }

  private refresh(id: string, kind: SearchKind): void {
    const mine = ++this.sequence
    this.latest.set(id, mine)
    const done: Promise<void> = this.records.get(id)
      .then((record) => {
        if (this.latest.get(id) !== mine) return
        this.latest.delete(id)
        if (record) this.index.put(documentOf(this.schema, kind.name, record))
        else this.index.remove(id)
      })
      .catch((error: unknown) => this.failed('search index could not re-read a changed record; the next rebuild will', error, id))
      .finally(() => this.pending.delete(done))
    this.pending.add(done)
  }

  /** Waits for changes already notified, so the answer reflects every write acknowledged before it. */
  async search(query: SearchQuery): Promise<SearchAnswer> {
    if (this.pending.size) await Promise.all(this.pending)
    const accept = (entry: SearchEntry) =>
      query.kinds.has(entry.kind as SearchKindName) &&
      (!query.types || query.types.has(entry.type)) &&
      (query.includeStudents || !this.studentTypes.has(entry.type))
    const { total, hits } = this.index.search(query.q, { limit: query.limit, accept })
    return {
      total,
      results: hits.map(({ entry, score }) => ({ kind: entry.kind as SearchKindName, _id: entry.id, label: entry.label, detail: entry.detail, score })),
    }
  }

  /** Documents and distinct words held, for operations and benchmarks. */
  stats(): { documents: number; words: number } {
    return { documents: this.index.size, words: this.index.vocabularySize }
  }
}
