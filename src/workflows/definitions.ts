import type { Actor } from '../actor.js'
import { checkDefinition, type WorkflowStage } from '../domain/workflows/index.js'
import { RecordNotFound, ValidationFailed, WorkflowConflict, hasStatus } from '../errors.js'
import type { RecordService } from '../records/service.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'
import { WorkflowConflictError } from './errors.js'
import { registry, type WorkflowDomainKey } from './registry.js'
import type { DefinitionInput, StoredDefinition, StoredInstance } from './types.js'

const advisor = (policy: WorkflowStage['policy'] = 'all'): WorkflowStage =>
  ({ key: 'advisor', name: 'Advisor approval', approver_role: 'advisor', policy, due_in_days: 14 })
const admin: WorkflowStage = { key: 'department', name: 'Department approval', approver_role: 'department_admin', policy: 'any', due_in_days: 7 }
const committee = (name: string, policy: WorkflowStage['policy'], quorum?: number): WorkflowStage =>
  ({ key: 'committee', name, approver_role: 'committee_member', policy, ...(quorum !== undefined ? { quorum } : {}), due_in_days: 21 })

/**
 * The definitions seeded when a domain has none (docs/workflows.md, "The domains"). Advisor stages ask every advisor
 * (`all`, as the thesis row says); the department stage any one admin. The fellowship and award
 * committees name no group: their members are those of the Group named in the registry row.
 */
export const seededStages: Readonly<Record<WorkflowDomainKey, readonly WorkflowStage[]>> = {
  honors_thesis: [advisor(), admin],
  independent_research: [{ ...advisor(), name: 'Supervisor approval' }, admin],
  fellowships: [advisor(), committee('Fellowship committee review', 'quorum', 2), admin],
  award_nominations: [committee('Awards committee review', 'quorum', 2), admin],
  major_plans: [advisor(), admin],
  graduate_milestones: [advisor(), committee('Committee approval', 'all'), admin],
}

/** The definition's record id: one per domain and version, so two writers of the next version meet on it. */
export function definitionIdOf(domain: WorkflowDomainKey, version: number): string {
  return `Workflow/${domain}-v${version}`
}

/** Versioned definitions: a definition is never changed; a new version is a new record. */
export class Definitions {
  private readonly cls: ClassDef<'Workflow'>

  constructor(private readonly records: RecordService, schema: CompiledSchema) {
    this.cls = schema.class('Workflow')!
  }

  async byId(id: string): Promise<StoredDefinition | null> {
    return this.records.get(id, 'Workflow')
  }

  /** The version the instance runs on; a 409 if it was deleted under it. */
  async of(instance: StoredInstance): Promise<StoredDefinition> {
    const definition = await this.byId(instance.workflow)
    if (!definition) throw new WorkflowConflictError(`the instance's workflow ${instance.workflow} no longer exists`, instance)
    return definition
  }

  async all(): Promise<StoredDefinition[]> {
    return this.records.find(this.cls, {}, { sort: [['domain', 1], ['version', 1]] })
  }

  /** The domain's newest version, which new instances start on. */
  async current(domain: WorkflowDomainKey): Promise<StoredDefinition> {
    const [newest] = await this.records.find(this.cls, { domain }, { sort: [['version', -1]], limit: 1 })
    if (!newest) throw new WorkflowConflict(`no workflow is defined for ${domain}`)
    return newest
  }

  /** Adds the next version of the domain's workflow. */
  async add(input: DefinitionInput, actor: Actor): Promise<StoredDefinition> {
    if (!registry.has(input.domain)) throw new ValidationFailed(`domain: no workflow domain ${String(input.domain)}`)
    const [newest] = await this.records.find(this.cls, { domain: input.domain }, { sort: [['version', -1]], limit: 1 })
    const version = (newest?.version ?? 0) + 1
    const fields = {
      domain: input.domain, name: input.name, version, stages: input.stages,
      ...(input.description !== undefined ? { description: input.description } : {}),
    }
    const refusal = checkDefinition({ _id: definitionIdOf(input.domain, version), ...fields })
    if (refusal) throw new ValidationFailed(refusal.field ? `${refusal.field}: ${refusal.reason}` : refusal.reason)
    return this.records.create('Workflow', fields, { actor, key: `${input.domain}-v${version}` })
  }

  /** A new version of the definition `id`'s domain; `id` must be a definition, and the domain may not change. */
  async addVersion(id: string, input: DefinitionInput, actor: Actor): Promise<StoredDefinition> {
    const existing = await this.byId(id)
    if (!existing) throw new RecordNotFound(`${id} not found`)
    if (input.domain !== undefined && input.domain !== existing.domain) {
      throw new ValidationFailed(`domain: ${id} is a workflow of ${existing.domain}; a new version keeps its domain`)
    }
    return this.add({ ...input, domain: existing.domain }, actor)
  }

  /** Seeds version 1 of every domain that has no definition; running it again changes nothing. */
  async seed(actor: Actor): Promise<void> {
    for (const spec of registry.values()) {
      if (await this.records.get(definitionIdOf(spec.domain, 1))) continue
      if ((await this.records.find(this.cls, { domain: spec.domain }, { limit: 1 })).length) continue
      try {
        await this.records.create('Workflow', { domain: spec.domain, name: spec.workflowName, version: 1, stages: seededStages[spec.domain] }, { actor, key: `${spec.domain}-v1` })
      } catch (error) {
        // Another process seeded it first.
        if (!hasStatus(error, 409)) throw error
      }
    }
  }
}
