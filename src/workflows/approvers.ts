import type { GroupRecord, UserRecord } from '../auth/users.js'
import type { ApproverDirectory, WorkflowDefinition } from '../domain/workflows/index.js'
import type { RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'
import type { Store } from '../store/port.js'
import { workflowIdsOfUsers } from './identity.js'
import type { DomainSpec, EntityFields } from './registry.js'

/**
 * Who holds each approver role for one entity, read from the current records each time a stage may
 * activate (docs/workflows.md): advisors named on the entity (a thesis's advisor, a research supervisor), else
 * the student's `advisors`; committee members of the Group a stage names, else of the Group the domain
 * names by name (fellowship and award committees), else a graduate student's `committee`; department admins, the users with role admin. Users are named by their workflow id
 * (identity.ts). Nothing is remembered between calls, so a changed advisor or group counts at once.
 */
export class Approvers {
  constructor(private readonly store: Store, private readonly records: RecordService, private readonly schema: CompiledSchema) {}

  async directory(spec: DomainSpec, entity: EntityFields, definition: Pick<WorkflowDefinition, 'stages'>): Promise<ApproverDirectory> {
    const studentId = spec.student(entity)
    const student = studentId ? await this.records.get(studentId, 'Student') : null
    const named = spec.advisors(entity)
    const groupIds = [...new Set(definition.stages.flatMap((s) => (s.group !== undefined ? [s.group] : [])))]
    const [admins, groups, committee] = await Promise.all([
      this.admins(), this.groupMembers(groupIds),
      spec.committeeGroup !== undefined ? this.namedGroupMembers(spec.committeeGroup) : student?.type === 'GraduateStudent' ? student.committee : [],
    ])
    return {
      roles: {
        advisor: named.length ? named : student?.advisors ?? [],
        committee_member: committee,
        department_admin: admins,
      },
      groups,
    }
  }

  /** The department admins, by workflow id. */
  async admins(): Promise<string[]> {
    const users = await this.store.collection<UserRecord>('users').find({ role: 'admin' })
    return workflowIdsOfUsers(users, this.records, this.schema)
  }

  private async namedGroupMembers(name: string): Promise<string[]> {
    const group = await this.store.collection<GroupRecord>('groups').findOne({ name })
    return group ? this.membersOf(group) : []
  }

  private async membersOf(group: GroupRecord): Promise<string[]> {
    const members = await this.store.collection<UserRecord>('users').find({ _id: { $in: group.members } })
    return workflowIdsOfUsers(members, this.records, this.schema)
  }

  private async groupMembers(groupIds: readonly string[]): Promise<Record<string, string[]>> {
    const groups: Record<string, string[]> = {}
    for (const id of groupIds) {
      const group = await this.store.collection<GroupRecord>('groups').findById(id)
      groups[id] = group ? await this.membersOf(group) : []
    }
    return groups
  }
}
