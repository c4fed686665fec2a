import type { Actor } from '../../src/actor.js'
import type { ApiRecord, RecordService } from '../../src/records/service.js'
import type { SampleDepartment, SampleRecord } from './index.js'

/** Who the sample data is by: every record the seed writes has its first revision by `seed` (docs/history.md). */
export const seedActor: Actor = { id: 'seed', name: 'Sample data', via: 'seed' }

export class SeedError extends Error {
  constructor(readonly record: SampleRecord, detail: string, options?: ErrorOptions) {
    super(`${record.id}: ${detail}`, options)
    this.name = 'SeedError'
  }
}

export interface WriteOptions {
  /** Records written at once within a stage. */
  readonly concurrency?: number
}

async function write(records: RecordService, record: SampleRecord): Promise<ApiRecord> {
  let created: ApiRecord
  try {
    created = await records.create(record.className, record.body, record.key === undefined ? { actor: seedActor } : { actor: seedActor, key: record.key })
  } catch (error) {
    throw new SeedError(record, error instanceof Error ? error.message : String(error), { cause: error })
  }
  // Other records already refer to the predicted id; a different one would leave them dangling.
  if (created._id !== record.id) throw new SeedError(record, `was stored as ${created._id}`)
  return created
}

/**
 * Writes the department through the record service, so every record passes the same validation and
 * reference checks as an API write. Stages go one after another; records within a stage are independent
 * and are written `concurrency` at a time. Returns the number of records written per class.
 */
export async function seedDepartment(records: RecordService, department: SampleDepartment, options: WriteOptions = {}): Promise<Record<string, number>> {
  const concurrency = options.concurrency ?? 32
  const counts: Record<string, number> = {}
  for (const stage of department.stages) {
    let next = 0
    const worker = async () => {
      while (next < stage.length) {
        const record = stage[next++]!
        await write(records, record)
        counts[record.className] = (counts[record.className] ?? 0) + 1
      }
    }
    await Promise.all(Array.from({ length: Math.min(concurrency, stage.length) }, worker))
  }
  return counts
}
