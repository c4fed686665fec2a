import type { RecordService } from '../../src/records/service.js'
import type { SampleDepartment, SampleRecord } from './index.js'
import { SeedError, seedActor } from './seed-store.js'

export interface BulkOptions {
  /** Records per createMany. */
  readonly batch?: number
}

/**
 * Writes the department through the record service's createMany, a batch of one class at a time: every
 * record passes the checks a single create makes, but a batch's references and ids are read together and
 * its documents written in one store write, where one create per record takes minutes at scale 100. A
 * stage's records refer only to earlier stages', as createMany requires. Every record is by the seed
 * (seedActor). Returns the records written per class; the first refused record stops the seed.
 */
export async function seedDepartmentInBulk(records: RecordService, department: SampleDepartment, options: BulkOptions = {}): Promise<Record<string, number>> {
  const batch = options.batch ?? 2000
  const counts: Record<string, number> = {}
  for (const stage of department.stages) {
    const byClass = new Map<string, SampleRecord[]>()
    for (const record of stage) {
      let list = byClass.get(record.className)
      if (!list) byClass.set(record.className, (list = []))
      list.push(record)
    }
    for (const [className, list] of byClass) {
      for (let at = 0; at < list.length; at += batch) {
        const chunk = list.slice(at, at + batch)
        const outcomes = await records.createMany(className, chunk.map((r) => (r.key === undefined ? { input: r.body } : { input: r.body, key: r.key })), { actor: seedActor })
        outcomes.forEach((outcome, i) => {
          const record = chunk[i]!
          if (outcome.error) throw new SeedError(record, outcome.error.message, { cause: outcome.error })
          // Other records already refer to the predicted id; a different one would leave them dangling.
          if (outcome.record._id !== record.id) throw new SeedError(record, `was stored as ${outcome.record._id}`)
        })
        counts[className] = (counts[className] ?? 0) + chunk.length
      }
    }
  }
  return counts
}
