import type { Actor } from '../actor.js'
import type { Principal } from '../auth/principal.js'
import { approversOf, barred, exclude } from '../domain/workflows/index.js'
import { PermissionDenied, RecordNotFound } from '../errors.js'
import type { People } from '../privacy/relations.js'
import type { RecordService } from '../records/service.js'
import { where, type Filter } from '../store/port.js'
import type { Approvers } from './approvers.js'
import type { Definitions } from './definitions.js'
import { callerOf, type Caller } from './identity.js'
import type { Instances } from './persistence.js'
import { conflictsOf, domainSpec, type WorkflowDomainKey } from './registry.js'
import type {
  DefinitionInput, InstanceDetail, InstanceQuery, Page, StageInstanceView, StoredDefinition, StoredInstance,
} from './types.js'

export interface WorkflowCatalogDeps {
  readonly records: RecordService
  readonly people: People
  readonly definitions: Definitions
  readonly instances: Instances
  readonly approvers: Approvers
}

/**
 * /api/workflows (docs/workflows.md): the definitions, which admins version, and the instances across domains,
 * each seen by its participants and admins only. Acting on an instance goes through its domain's
 * entity (service.ts), never through here.
 */
export class WorkflowCatalog {
  constructor(private readonly deps: WorkflowCatalogDeps) {}

  private caller(principal: Principal): Promise<Caller> {
    return callerOf(principal, this.deps.people)
  }

  private async adminOnly(principal: Principal): Promise<Caller> {
    const caller = await this.caller(principal)
    if (!caller.admin) throw new PermissionDenied('only admins change workflow definitions')
    return caller
  }

  // ---- definitions -----------------------------------------------------------------------------

  async definitions(principal: Principal): Promise<{ items: StoredDefinition[] }> {
    await this.caller(principal)
    return { items: await this.deps.definitions.all() }
  }

  async definition(principal: Principal, id: string): Promise<StoredDefinition> {
    await this.caller(principal)
    const found = await this.deps.definitions.byId(id)
    if (!found) throw new RecordNotFound(`${id} not found`)
    return found
  }

  async createDefinition(principal: Principal, actor: Actor, body: DefinitionInput): Promise<StoredDefinition> {
    await this.adminOnly(principal)
    return this.deps.definitions.add(body, actor)
  }

  async updateDefinition(principal: Principal, actor: Actor, id: string, body: DefinitionInput): Promise<StoredDefinition> {
    await this.adminOnly(principal)
    return this.deps.definitions.addVersion(id, body, actor)
  }

  // ---- instances -------------------------------------------------------------------------------

  async instances(principal: Principal, query: InstanceQuery): Promise<Page<StoredInstance>> {
    const caller = await this.caller(principal)
    const clauses: Filter[] = []
    if (!caller.admin) clauses.push({ participants: { $in: [...caller.ids] } })
    for (const field of ['domain', 'status', 'entity', 'submitter'] as const) {
      const value = query[field]
      if (value !== undefined) clauses.push(where(field, value))
    }
    const filter: Filter = clauses.length ? { $and: clauses } : {}
    const collection = this.deps.instances.collection
    const [items, total] = await Promise.all([
      collection.find(filter, { sort: [['submitted_at', 1], ['_id', 1]], skip: query.offset, limit: query.limit }),
      collection.count(filter),
    ])
    return { items, total, limit: query.limit, offset: query.offset }
  }

  private async visibleInstance(caller: Caller, id: string): Promise<StoredInstance> {
    const instance = id.startsWith('WorkflowInstance/') ? await this.deps.instances.byId(id) : null
    if (!instance || !(caller.admin || instance.participants.some((p) => caller.ids.has(p)))) throw new RecordNotFound(`${id} not found`)
    return instance
  }

  async instance(principal: Principal, id: string): Promise<InstanceDetail> {
    const caller = await this.caller(principal)
    const instance = await this.visibleInstance(caller, id)
    const definition = await this.deps.definitions.of(instance)
    const spec = domainSpec(instance.domain as WorkflowDomainKey)
    const entity = await this.deps.records.get(instance.entity)
    const to = instance.status === 'in_review' ? instance.stages.filter((s) => s.status === 'waiting') : []
    const directory = to.length && entity ? await this.deps.approvers.directory(spec, entity, definition) : { roles: {} }
    const barredPeople = barred(exclude(instance, entity ? conflictsOf(spec, entity) : []))
    const preview = to.map((stage) => {
      const def = definition.stages.find((d) => d.key === stage.key)!
      return { key: def.key, name: def.name, approver_role: def.approver_role, policy: def.policy, status: stage.status, approvers: approversOf(def, directory, barredPeople) }
    })
    return { ...instance, preview }
  }

  async stages(principal: Principal, id: string): Promise<{ items: StageInstanceView[] }> {
    const caller = await this.caller(principal)
    const instance = await this.visibleInstance(caller, id)
    const definition = await this.deps.definitions.of(instance)
    return {
      items: instance.stages.map((stage, i) => {
        const def = definition.stages[i]!
        return { ...stage, name: def.name, approver_role: def.approver_role, policy: def.policy, ...(def.quorum !== undefined ? { quorum: def.quorum } : {}) }
      }),
    }
  }
}
