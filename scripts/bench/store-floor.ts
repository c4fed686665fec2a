import { internalFields } from '../../src/records/derived.js'
import { MongoStore } from '../../src/store/mongo/store.js'
import type { LoadOptions } from './load.js'
import { fmt } from './report.js'
import { summarize, type Latency } from './search.js'

export interface StoreFloor {
  readonly opsPerSecond: number
  readonly latency: Latency
}

/**
 * The server's own part of the person read (`personUrl`, GET /api/people/:id): the one command that read
 * sends (a find by `_id` leaving out the internal fields), sent straight through the driver with as many
 * in flight as the bench has connections, for one round's length after a second unmeasured. No HTTP, no
 * Redis, no service: its p99 is the floor under the service's p99 on the same server and machine.
 */
export async function storeFloor(url: string, db: string, personUrl: string, options: Pick<LoadOptions, 'connections' | 'durationSeconds'>): Promise<StoreFloor> {
  const id = decodeURIComponent(personUrl.slice(personUrl.lastIndexOf('/') + 1))
  const store = await MongoStore.open(url, db)
  try {
    const people = store.collection('people')
    const drive = async (seconds: number, latencies?: number[]) => {
      const until = performance.now() + seconds * 1000
      let errors = 0
      const worker = async () => {
        while (performance.now() < until) {
          const started = performance.now()
          const found = await people.findById(id, { omit: internalFields }).catch(() => null)
          if (!found) errors++
          latencies?.push(performance.now() - started)
        }
      }
      await Promise.all(Array.from({ length: options.connections }, worker))
      return errors
    }
    await drive(1)
    const latencies: number[] = []
    const errors = await drive(options.durationSeconds, latencies)
    return { opsPerSecond: latencies.length / options.durationSeconds, latency: summarize(latencies, errors) }
  } finally {
    await store.close()
  }
}

/** The report's sentence for it. */
export function floorLine(floor: StoreFloor, options: Pick<LoadOptions, 'connections' | 'durationSeconds'>): string {
  const { opsPerSecond, latency } = floor
  return `FerretDB alone, the person read's one command (a find by \`_id\`) sent by the driver with ${options.connections} in flight, ${options.durationSeconds} s: ` +
    `${fmt(opsPerSecond)} finds/s, p50 ${latency.p50} ms, p95 ${latency.p95} ms, p99 ${latency.p99} ms, ${latency.errors} errors.`
}
