import type { ApiRecord, RecordService } from '../records/service.js'
import type { RequirementRule } from '../schema/generated/records.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'

export interface RequirementGroupWithRules {
  readonly _id: string
  readonly name: string
  readonly order?: number
  readonly description?: string
  /** The group's rule records, in the group's list order. */
  readonly rules: readonly RequirementRule[]
}

/** Groups without an order come after the ordered ones; ties go by name, then id, so the order is total. */
function byOrder(a: ApiRecord, b: ApiRecord): number {
  const oa = typeof a.order === 'number' ? a.order : Infinity
  const ob = typeof b.order === 'number' ? b.order : Infinity
  return (oa === ob ? 0 : oa < ob ? -1 : 1) || String(a.name).localeCompare(String(b.name)) || a._id.localeCompare(b._id)
}

/** A degree's requirements as the audit and the degree detail read them: groups in order, rules expanded. */
export class DegreeRequirements {
  private readonly group: ClassDef<'RequirementGroup'>
  private readonly rule: ClassDef<'RequirementRule'>

  constructor(private readonly records: RecordService, schema: CompiledSchema) {
    this.group = schema.class('RequirementGroup')!
    this.rule = schema.class('RequirementRule')!
  }

  /** The collections these answers are read from. */
  get collections(): string[] {
    return [this.group.metadata.collection!, this.rule.metadata.collection!]
  }

  async groupsOf(degreeId: string): Promise<RequirementGroupWithRules[]> {
    const groups = (await this.records.find(this.group, { degree: degreeId })).sort(byOrder)
    const ids = [...new Set(groups.flatMap((g) => (Array.isArray(g.rules) ? g.rules.map(String) : [])))]
    const rules = new Map((await this.records.find(this.rule, { _id: { $in: ids } })).map((r) => [r._id, r]))
    return groups.map((g) => ({
      _id: g._id,
      name: String(g.name),
      ...(typeof g.order === 'number' ? { order: g.order } : {}),
      ...(typeof g.description === 'string' ? { description: g.description } : {}),
      // A rule cannot be deleted while a group lists it, so every id is found; the filter is for the types.
      rules: (Array.isArray(g.rules) ? g.rules.map(String) : []).map((id) => rules.get(id)).filter((r): r is RequirementRule => r !== undefined),
    }))
  }
}
