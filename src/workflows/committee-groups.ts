import { PermissionDenied } from '../errors.js'
import { isAdmin } from '../privacy/relations.js'
import type { WriteGuard } from '../records/extensions.js'
import type { RecordService } from '../records/service.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'
import { registry } from './registry.js'
import type { Principal } from '../auth/principal.js'

type Fields = Readonly<Record<string, unknown>>

/**
 * Committee groups belong to admins (docs/workflows.md). A group a workflow names is a committee: the group a
 * stage of any definition names (every version, since instances keep running on old ones), or the group
 * a domain names as its committee (the fellowship and award committees, by name). Its members decide,
 * so only an admin creates, renames, deletes it or changes its members; a manage_groups holder who is
 * not an admin would otherwise make themselves an approver.
 */
export class CommitteeGroups implements WriteGuard<Principal> {
  private readonly names: ReadonlyMap<string, string>
  private readonly workflow: ClassDef

  constructor(private readonly records: RecordService, schema: CompiledSchema) {
    const names = new Map<string, string>()
    for (const spec of registry.values()) if (spec.committeeGroup) names.set(spec.committeeGroup.toLowerCase(), spec.workflowName)
    this.names = names
    this.workflow = schema.class('Workflow')!
  }

  /** The workflow whose committee a group of this name is, by the domains' committee names. */
  private byName(group: Fields): string | undefined {
    return typeof group.name === 'string' ? this.names.get(group.name.trim().toLowerCase()) : undefined
  }

  /** The workflow a stage of which names this stored group, in any version. */
  private async byStage(group: Fields): Promise<string | undefined> {
    const [definition] = await this.records.find(this.workflow, { 'stages.group': String(group._id) }, { limit: 1 })
    return definition ? `${String(definition.name)} (version ${String(definition.version)})` : undefined
  }

  async check(principal: Principal, before: Fields | undefined, after: Fields | undefined): Promise<void> {
    if (isAdmin(principal)) return
    const refuse = (group: Fields, workflow: string) => new PermissionDenied(
      `Permission denied: '${String(group.name)}' is the committee of the ${workflow} workflow; only admins create or change a committee group`)
    // Before and after, so that renaming a group into a committee is refused as well as out of one.
    for (const group of [before, after]) {
      const workflow = group && this.byName(group)
      if (workflow) throw refuse(group, workflow)
    }
    // A group being created has no id a definition could name yet; an update keeps its id.
    const workflow = before && await this.byStage(before)
    if (workflow) throw refuse(before, workflow)
  }
}
