import type { Redis } from 'ioredis'

/** How long the request path leaves a failed Redis alone before one command tries it again. */
const openForMs = 5000

/** Refused without asking Redis: it failed moments ago. Callers treat it like any other Redis failure. */
export class RedisSkippedError extends Error {
  constructor() {
    super('Redis skipped for a few seconds after a failure')
    this.name = 'RedisSkippedError'
  }
}

/** Redis answered, only not as hoped (a script or type error): the connection is fine. */
function answered(error: unknown): boolean {
  return (error as Error | undefined)?.name === 'ReplyError'
}

/**
 * A circuit breaker for one Redis client on the request path. A black-holed Redis (stopped process, open
 * connection) makes every command wait out its timeout; after the first such failure the breaker opens
 * and, for a few seconds, every command is refused at once, so requests go on without Redis instead of
 * each waiting. Then the next command is let through as the one probe (others are still refused while it
 * runs): if it succeeds the breaker closes, if it fails it opens again.
 */
export class Breaker {
  /** 0 while closed; else when the next probe may go. */
  private openUntil = 0
  private probing = false

  constructor(private readonly openMs = openForMs, private readonly now: () => number = Date.now) {}

  async run<T>(command: () => Promise<T>): Promise<T> {
    const probe = this.admit()
    try {
      const result = await command()
      if (probe && this.probing) this.close()
      return result
    } catch (error) {
      if (!answered(error)) this.trip()
      else if (probe && this.probing) this.close()
      throw error
    }
  }

  /** Throws while open; true when this command is the probe. */
  private admit(): boolean {
    if (this.openUntil === 0) return false
    if (this.probing || this.now() < this.openUntil) throw new RedisSkippedError()
    this.probing = true
    return true
  }

  private trip(): void {
    this.openUntil = this.now() + this.openMs
    this.probing = false
  }

  private close(): void {
    this.openUntil = 0
    this.probing = false
  }
}

const breakers = new WeakMap<Redis, Breaker>()

/** The breaker of a client: every user of one client (rate limits, the cache, sign-in state, one-time claims) shares it. */
export function breakerOf(client: Redis): Breaker {
  let breaker = breakers.get(client)
  if (!breaker) {
    breaker = new Breaker()
    breakers.set(client, breaker)
  }
  return breaker
}
