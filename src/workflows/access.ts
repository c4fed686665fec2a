import { PermissionDenied, RecordNotFound } from '../errors.js'
import type { ApiRecord, RecordService } from '../records/service.js'
import { where, type Filter } from '../store/port.js'
import type { Caller } from './identity.js'
import type { Instances } from './persistence.js'
import type { DomainSpec, EntityFields } from './registry.js'
import type { EntityView, StoredInstance } from './types.js'

/**
 * Who may create, edit and submit a domain's entity (docs/workflows.md): for the `student` rule the student,
 * one of their advisors or an admin; for `self` the applicant or an admin; for `nominator` faculty,
 * staff or admins, as the nominator. Refused with the reason.
 */
export async function checkMayWrite(spec: DomainSpec, caller: Caller, entity: EntityFields, records: RecordService): Promise<void> {
  const owner = entity[spec.ownerField]
  switch (spec.submitterRule) {
    case 'student': {
      if (caller.admin || (typeof owner === 'string' && caller.ids.has(owner))) return
      const student = typeof owner === 'string' ? await records.get(owner, 'Student') : null
      if (caller.personId && student?.advisors.includes(caller.personId)) return
      throw new PermissionDenied(`only the student, their advisors or an admin may do this for ${spec.entityClass}`)
    }
    case 'self':
      if (caller.admin || (typeof owner === 'string' && caller.ids.has(owner))) return
      throw new PermissionDenied(`a ${spec.entityClass} is made by the applicant for themselves`)
    case 'nominator':
      if (!['faculty', 'staff', 'admin'].includes(caller.role)) throw new PermissionDenied('only faculty, staff and admins nominate')
      if (caller.admin || (typeof owner === 'string' && caller.ids.has(owner))) return
      throw new PermissionDenied('a nomination is made by its nominator')
  }
}

/**
 * Whether the caller may see the entity: admins all; the person it belongs to (student, applicant,
 * nominator); for student entities that student's advisors; anyone who submitted it or is or was
 * asked to decide on it.
 */
export async function canSee(spec: DomainSpec, caller: Caller, entity: ApiRecord, instance: StoredInstance | null, records: RecordService): Promise<boolean> {
  if (caller.admin) return true
  const owner = entity[spec.ownerField]
  if (typeof owner === 'string' && caller.ids.has(owner)) return true
  if (instance?.participants.some((id) => caller.ids.has(id))) return true
  if (spec.submitterRule !== 'student' || !caller.personId || typeof owner !== 'string') return false
  return (await records.get(owner, 'Student'))?.advisors.includes(caller.personId) ?? false
}

/**
 * The list filter of what the caller may see (the same rule as canSee): their own, their advisees'
 * (student entities), and those whose instance they take part in.
 */
export async function visibleFilter(spec: DomainSpec, caller: Caller, participantEntities: readonly string[], advisees: () => Promise<string[]>): Promise<Filter> {
  const ids = [...caller.ids]
  const clauses: Filter[] = [where(spec.ownerField, { $in: ids }), { _id: { $in: participantEntities } }]
  if (spec.submitterRule === 'student' && caller.personId) clauses.push(where(spec.ownerField, { $in: await advisees() }))
  return { $or: clauses }
}

/**
 * The entity of the domain with its instance, each read once, entity first (the order repair.ts
 * relies on); 404 when missing or not the caller's to see.
 */
export async function visibleEntity(
  spec: DomainSpec, caller: Caller, id: string, records: RecordService, instances: Instances,
): Promise<{ entity: EntityView; instance: StoredInstance | null }> {
  const entity = await records.get(id, spec.entityClass)
  const instance = entity ? await instances.ofEntity(id) : null
  if (!entity || !(await canSee(spec, caller, entity, instance, records))) throw new RecordNotFound(`${id} not found`)
  return { entity, instance }
}
