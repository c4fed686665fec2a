import type { Redis, RedisOptions } from 'ioredis'

/**
 * A Redis client for the request path (rate limits, cache, sign-in state). It fails fast: a short
 * connect timeout, one retry per command and no offline queue, so a Redis outage makes a command fail
 * within about half a second instead of holding the request. Reconnection goes on in the background.
 * BullMQ workers need the opposite (retry forever) and build their own connections.
 */
export async function connectRequestPathRedis(url: string, name: string, overrides: RedisOptions = {}, waitMs = 2000): Promise<Redis> {
  // Loaded only when Redis is configured: importing ioredis costs a sixth of a second of start-up.
  const { Redis } = await import('ioredis')
  const client = new Redis(url, {
    connectionName: `adks-${name}`,
    connectTimeout: 500,
    commandTimeout: 1000,
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: false,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    ...overrides,
  })
  // Without a listener ioredis reports every failed reconnect as an unhandled 'error' event.
  client.on('error', () => {})
  await redisReady(client, waitMs)
  return client
}

/**
 * Gives a new connection a moment to come up, so writes made as the service starts are not taken for an
 * outage. Waits until the client is connected, at most `timeoutMs`; false when Redis did not answer in time.
 * Start-up goes on either way: requests that need Redis then fail fast with a 503 until it is back.
 */
export async function redisReady(client: Redis, timeoutMs = 2000): Promise<boolean> {
  if (client.status === 'ready') return true
  return new Promise((resolve) => {
    const done = (ready: boolean) => {
      clearTimeout(timer)
      client.off('ready', onReady)
      resolve(ready)
    }
    const onReady = () => done(true)
    const timer = setTimeout(() => done(false), timeoutMs)
    client.once('ready', onReady)
  })
}
