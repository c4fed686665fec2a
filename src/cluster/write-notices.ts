import type { WriteCounts } from '../store/port.js'

/**
 * How long an in-process copy of shared data may be served while other instances' writes may go unheard
 * (Redis down, or not configured on a MongoDB store). Short enough that no access decision or answer is
 * more than a few seconds behind the store.
 */
export const unheardMaxAgeMs = 2000

/** Another instance wrote to `collection`: to the documents `ids` when given, else to any of them. */
export interface Notice {
  readonly collection: string
  readonly ids?: readonly string[]
}

/**
 * What this process knows of the writes to a store shared with other instances: its own, counted as they
 * land, and other instances' notices as they arrive (cluster/redis-notices.ts). It is the store's
 * `writeCounts`, so every cache that keys its entries on write counts (principals, the in-process response
 * cache) drops an entry once a write to its sources is heard of, whoever made it.
 *
 * While notices may be missed (Redis down, or none configured) `maxAgeMs` is short, so those caches keep
 * nothing longer than a few seconds; once notices are heard again every count moves (`missed`), because
 * whatever was written meanwhile went unannounced.
 */
export class WriteNotices implements WriteCounts {
  private readonly counts = new Map<string, number>()
  /** Times notices may have been missed: added to every count, so one gap drops every copy. */
  private gaps = 0
  private readonly noticeListeners: Array<(notice: Notice) => void> = []
  private readonly gapListeners: Array<() => void> = []

  /** `hearing`: whether every other instance's write is being heard of now. */
  constructor(private readonly hearing: () => boolean) {}

  of(collection: string): number {
    return (this.counts.get(collection) ?? 0) + this.gaps
  }

  maxAgeMs(): number {
    return this.hearing() ? Number.POSITIVE_INFINITY : unheardMaxAgeMs
  }

  /** Whether other instances' writes are heard of now (else copies are kept a few seconds at most). */
  heardOf(): boolean {
    return this.hearing()
  }

  /** This process wrote to `collection`, and the write is visible to reads. */
  wrote(collection: string): void {
    this.counts.set(collection, (this.counts.get(collection) ?? 0) + 1)
  }

  /** Another instance wrote. */
  heard(notice: Notice): void {
    this.wrote(notice.collection)
    for (const listener of this.noticeListeners) listener(notice)
  }

  /** Notices may have been lost (the subscription was down): every copy made before is suspect. */
  missed(): void {
    this.gaps++
    for (const listener of this.gapListeners) listener()
  }

  onNotice(listener: (notice: Notice) => void): void {
    this.noticeListeners.push(listener)
  }

  onMissed(listener: () => void): void {
    this.gapListeners.push(listener)
  }
}
