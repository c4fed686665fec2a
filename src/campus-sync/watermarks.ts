import type { Actor } from '../actor.js'
import type { RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'

/** The delta watermarks of one source, by OneRoster collection. */
export async function readWatermarks(records: RecordService, schema: CompiledSchema, sourceKey: string): Promise<Map<string, string>> {
  const found = await records.find(schema.class('SyncWatermark')!, { source_key: sourceKey })
  return new Map(found.map((mark) => [String(mark.collection), String(mark.value)]))
}

/** Keeps the newest dateLastModified the source reported for a collection (never the local clock). */
export async function saveWatermark(records: RecordService, schema: CompiledSchema, actor: Actor, sourceKey: string, collection: string, value: string): Promise<void> {
  const [existing] = await records.find(schema.class('SyncWatermark')!, { source_key: sourceKey, collection })
  if (existing) await records.update(existing._id, { value }, { actor })
  else await records.create('SyncWatermark', { source_key: sourceKey, collection, value }, { actor })
}
