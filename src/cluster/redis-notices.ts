import { randomUUID } from 'node:crypto'
import type { FastifyBaseLogger } from 'fastify'
import type { Redis } from 'ioredis'
import { breakerOf } from '../redis/breaker.js'
import { connectRequestPathRedis } from '../redis/client.js'
import { WriteNotices, type Notice } from './write-notices.js'

/** The listener pings Redis this often; a reply proves every notice published before it was received. */
const beatMs = 500
/** Without a reply for this long, notices may be going unheard. */
const silenceMs = 1500
/** A notice that could not be published is sent again this often until it lands. */
const retryMs = 1000
/** More ids than this in one write are announced as a write to the whole collection. */
const maxIds = 100
const warnIntervalMs = 30_000

interface Message extends Notice {
  readonly from: string
}

function parse(text: string): Message | undefined {
  try {
    const message = JSON.parse(text) as Partial<Message>
    if (typeof message.from !== 'string' || typeof message.collection !== 'string') return undefined
    const ids = Array.isArray(message.ids) && message.ids.every((id) => typeof id === 'string') ? message.ids : undefined
    return { from: message.from, collection: message.collection, ...(ids ? { ids } : {}) }
  } catch {
    return undefined
  }
}

/**
 * Write notices between API instances over Redis pub/sub (FerretDB has no change streams). Each write
 * this process makes to the shared store is published, before the write is acknowledged to its caller,
 * as `{collection, ids?}`; every other instance's listener, on its own connection (a subscribed
 * connection can send nothing else), hands it to `WriteNotices`.
 *
 * Hearing is proved, not assumed: the listener pings every half second, and Redis answers a ping only
 * after every message published before it. Without a reply for 1.5 s (Redis stopped, the connection
 * gone) `notices.heardOf()` turns false and caches fall back to short expiries; the first reply after
 * that counts as a gap (`missed`), which drops every copy made before it. A notice whose publication
 * failed is retried each second, as a write to its whole collection, until it lands.
 */
export class RedisNotices {
  readonly notices: WriteNotices
  private readonly self = randomUUID()
  private readonly channel: string
  private subscribed = false
  private hearing = false
  private lastReply = Number.NEGATIVE_INFINITY
  private readonly unsent = new Set<string>()
  private lastWarning = Number.NEGATIVE_INFINITY
  private readonly beat: NodeJS.Timeout
  private retry: NodeJS.Timeout | undefined

  private constructor(private readonly publisher: Redis, private readonly listener: Redis, prefix: string, private readonly log: FastifyBaseLogger) {
    this.channel = `${prefix}notices`
    this.notices = new WriteNotices(() => this.heardOf())
    listener.on('messageBuffer', (channel: Buffer, payload: Buffer) => this.received(channel.toString(), payload.toString()))
    listener.on('ready', () => void this.subscribe())
    listener.on('close', () => {
      this.subscribed = false
      this.hearing = false
    })
    this.beat = setInterval(() => this.ping(), beatMs).unref()
  }

  /** Connects both clients; a Redis that is down now is joined once it answers (until then nothing is heard). */
  static async open(url: string, prefix: string, log: FastifyBaseLogger): Promise<RedisNotices> {
    const [publisher, listener] = await Promise.all([
      connectRequestPathRedis(url, 'notices', { commandTimeout: 500 }),
      // autoResubscribe off: `subscribe` on each 'ready' is the one path, so a join is always seen.
      connectRequestPathRedis(url, 'notices-listener', { commandTimeout: silenceMs, autoResubscribe: false }),
    ])
    const bus = new RedisNotices(publisher, listener, prefix, log)
    await bus.subscribe()
    return bus
  }

  private async subscribe(): Promise<void> {
    if (this.subscribed || this.listener.status !== 'ready') return
    try {
      await this.listener.subscribe(this.channel)
      this.subscribed = true
      this.ping()
    } catch (error) {
      this.failed('subscribe', error)
    }
  }

  /** Subscribed, and Redis answered a ping lately: every notice published meanwhile has arrived. */
  private heardOf(): boolean {
    return this.hearing && Date.now() - this.lastReply <= silenceMs
  }

  private ping(): void {
    if (!this.subscribed) return
    const sent = Date.now()
    this.listener.ping().then(() => {
      if (!this.subscribed) return
      const gap = !this.heardOf()
      this.lastReply = Math.max(this.lastReply, sent)
      if (!gap) return
      this.hearing = true
      this.notices.missed()
    }, () => {})
  }

  private received(channel: string, payload: string): void {
    if (channel !== this.channel) return
    const message = parse(payload)
    if (!message || message.from === this.self) return
    const { from: _from, ...notice } = message
    this.notices.heard(notice)
  }

  /** Announces a write this process made; resolves once published or queued for retry, never rejects. */
  async publish(notice: Notice): Promise<void> {
    this.notices.wrote(notice.collection)
    const ids = notice.ids && notice.ids.length <= maxIds ? notice.ids : undefined
    try {
      await this.send({ collection: notice.collection, ...(ids ? { ids } : {}) })
    } catch (error) {
      this.unsent.add(notice.collection)
      this.failed('publish', error)
      this.retry ??= setInterval(() => void this.resend(), retryMs).unref()
    }
  }

  private async send(notice: Notice): Promise<void> {
    const message: Message = { from: this.self, ...notice }
    await breakerOf(this.publisher).run(() => this.publisher.publish(this.channel, JSON.stringify(message)))
  }

  private async resend(): Promise<void> {
    for (const collection of [...this.unsent]) {
      try {
        await this.send({ collection })
        this.unsent.delete(collection)
      } catch {
        return
      }
    }
    clearInterval(this.retry)
    this.retry = undefined
  }

  private failed(operation: string, error: unknown): void {
    const now = Date.now()
    if (now - this.lastWarning < warnIntervalMs) return
    this.lastWarning = now
    this.log.warn({ operation, err: (error as Error).message }, 'write notices unavailable; other instances keep copies a few seconds at most')
  }

  async close(): Promise<void> {
    clearInterval(this.beat)
    clearInterval(this.retry)
    await this.resend()
    this.subscribed = false
    this.hearing = false
    await Promise.all([this.publisher, this.listener].map((client) => client.quit().catch(() => client.disconnect())))
  }
}
