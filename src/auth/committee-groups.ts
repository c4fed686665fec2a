import { ForbiddenError } from '../errors.js'
import { isAdmin } from '../privacy/relations.js'
import type { RecordService } from '../records/service.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'
import type { WriteGuard } from '../routes/records/extensions.js'
import { registry } from '../workflows/registry.js'
import type { Principal } from './plugin.js'

type Fields = Readonly<Record<string, unknown>>

/**
 * Committee groups belong to admins (DESIGN 5.1). A group a workflow names is a committee: the group a
 * stage of any definition names (every version, since instances keep running on old ones), or the group
 * a domain names as its committee (the fellowship and award committees, by name). Its members decide,
 * so only an admin creates, renames, deletes it or changes its members; a manage_groups holder who is
 * not an admin would otherwise make themselves an approver.
 */
export class CommitteeGroups implements WriteGuard {
  private readonly names: ReadonlyMap<string, string>
  private readonly workflow: ClassDef

  constructor(private readonly records: RecordService, schema: CompiledSchema) {
    const names = new Map<string, string>()
    for (const spec of registry.values()) if (spec.committeeGroup) names.set(spec.committeeGroup.toLowerCase(), spec.workflowName)
    this.names = names
    this.workflow = schema.class('Workflow')!
  }

  /** Which workflow names the group as its committee, or null for an ordinary group. */
  async namedBy(group: Fields): Promise<string | null> {
    const name = typeof group.name === 'string' ? this.names.get(group.name.trim().toLowerCase()) : undefined
    if (name) return name
    if (typeof group._id !== 'string') return null
    const [definition] = await this.records.find(this.workflow, { 'stages.group': group._id }, { limit: 1 })
    return definition ? `${String(definition.name)} (version ${String(definition.version)})` : null
  }

  async check(principal: Principal, before: Fields | undefined, after: Fields | undefined): Promise<void> {
    if (isAdmin(principal)) return
    for (const group of [before, after]) {
      const workflow = group && await this.namedBy(group)
      if (workflow) {
        throw new ForbiddenError(`Permission denied: '${String(group.name)}' is the committee of the ${workflow} workflow; only admins create or change a committee group`)
      }
    }
  }
}
