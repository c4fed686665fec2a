import type { RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'
import { domainOfClass, type EntityFields } from './registry.js'

type Fields = EntityFields & { readonly _id: string }

/** Records by id; those not found are absent. */
export type ReadByIds = (ids: readonly string[]) => Promise<ReadonlyMap<string, Fields>>

/**
 * Reads records by id: a query per class for a list (a page of a queue, a digest), so a list costs a few
 * queries however long it is; without the schema, a read per id, for one entity's few.
 */
export function readerOf(records: RecordService, schema?: CompiledSchema): ReadByIds {
  return async (ids) => {
    const found = new Map<string, Fields>()
    if (!schema) {
      for (const record of await Promise.all([...new Set(ids)].map((id) => records.view(id)))) if (record) found.set(record._id, record)
      return found
    }
    const byClass = new Map<string, Set<string>>()
    for (const id of ids) {
      const cls = schema.classOfId(id)
      if (cls) byClass.set(cls.name, (byClass.get(cls.name) ?? new Set()).add(id))
    }
    await Promise.all([...byClass].map(async ([name, part]) => {
      for (const record of await records.collectionOf(schema.class(name)!).view({ _id: { $in: [...part] } })) found.set(record._id, record)
    }))
    return found
  }
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value ? value : undefined)

/**
 * What the pending queues, notifications and digests call each entity, by id. Most titles are the
 * entity's own field (registry.ts); a major plan is called by its plan's name and its student's,
 * "Major plan: Four years — Una Under", read for all the entities at once. A plan with no name keeps
 * the registry's title by its id, which the web app words itself (docs/workflows.md, "The domains").
 */
export async function entityTitles(entities: readonly Fields[], read: ReadByIds): Promise<Map<string, string>> {
  const plans = entities.filter((entity) => domainOfClass(String(entity.type))?.domain === 'major_plans')
  const named = await read(plans.flatMap((plan) => [text(plan.plan), text(plan.student)].filter((id): id is string => id !== undefined)))
  const titles = new Map<string, string>()
  for (const entity of entities) {
    const spec = domainOfClass(String(entity.type))
    if (!spec) continue
    const planName = spec.domain === 'major_plans' ? text(named.get(String(entity.plan))?.plan_name) : undefined
    const student = named.get(String(entity.student))
    const studentName = text(student?.first_name) ? ` — ${String(student!.first_name)} ${String(student!.last_name ?? '')}`.trimEnd() : ''
    titles.set(entity._id, planName ? `Major plan: ${planName}${studentName}` : spec.title(entity))
  }
  return titles
}
