import type { ApiRecord, RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'
import type { CurrentRecord, Source, SourceRef, SyncKind } from '../domain/campus-sync/types.js'

const classOfKind: Record<SyncKind, string> = { course: 'Course', section: 'Section', person: 'Person', enrollment: 'Enrollment' }
const systemFields = new Set(['_id', 'type', '_version', '_created_at', '_updated_at', 'source', 'active'])

export interface KindRecords {
  readonly records: ApiRecord[]
  /** store id → sourcedId, for records this system synced. */
  readonly sourcedOf: Map<string, string>
  /** sourcedId → store id. */
  readonly idOf: Map<string, string>
}

function sourceOf(record: ApiRecord): Source | undefined {
  const source = record.source as Source | undefined
  return source && typeof source.system === 'string' && typeof source.sourced_id === 'string' ? source : undefined
}

/** Every stored record of a kind, with its synced ones indexed both ways. */
export async function loadKind(records: RecordService, schema: CompiledSchema, kind: SyncKind, system: string): Promise<KindRecords> {
  const all = await records.find(schema.class(classOfKind[kind])!, {})
  const sourcedOf = new Map<string, string>()
  const idOf = new Map<string, string>()
  for (const record of all) {
    const source = sourceOf(record)
    if (source?.system !== system) continue
    sourcedOf.set(record._id, source.sourced_id)
    idOf.set(source.sourced_id, record._id)
  }
  return { records: all, sourcedOf, idOf }
}

/**
 * A stored record as the planner reads it: plain fields as values (`@type` for people), references
 * given back as sourcedIds. A reference to a record no sync owns has no sourcedId and is left out, so
 * the planner never sees it as a difference.
 */
export function currentRecord(kind: SyncKind, record: ApiRecord, sourced: Readonly<Record<string, KindRecords>>): CurrentRecord {
  const values: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(record)) if (!systemFields.has(field)) values[field] = value
  if (kind === 'person') values['@type'] = record.type
  const ref = (target: SyncKind, id: unknown): SourceRef | undefined => {
    const sourcedId = typeof id === 'string' ? sourced[target]?.sourcedOf.get(id) : undefined
    return sourcedId === undefined ? undefined : { kind: target, sourced_id: sourcedId }
  }
  const refs: Record<string, SourceRef | SourceRef[]> = {}
  const put = (field: string, target: SyncKind) => {
    const found = ref(target, record[field])
    if (found) refs[field] = found
  }
  if (kind === 'section') {
    put('course', 'course')
    refs.instructors = (Array.isArray(record.instructors) ? record.instructors : []).map((id) => ref('person', id)).filter((r): r is SourceRef => r !== undefined)
  }
  if (kind === 'enrollment') {
    put('student', 'person')
    put('course', 'course')
    put('section', 'section')
  }
  return { _id: record._id, source: sourceOf(record), active: record.active === false ? false : undefined, values, refs }
}
