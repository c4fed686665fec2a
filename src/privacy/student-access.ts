import type { Principal } from '../auth/principal.js'
import type { ApiRecord, RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'
import { isAdmin, type People } from './relations.js'

/** Why a caller may see protected records, or `none`. */
export type Basis = 'self' | 'advisor' | 'instructor' | 'admin' | 'none'

export interface Found {
  /** Null when no such record exists. */
  readonly record: ApiRecord | null
  readonly basis: Basis
}

/**
 * Who may see protected student records (docs/privacy.md): a student's own, their advisors and admins; a
 * section's roster, its instructors and admins. Decided on every request from the current records, so a
 * changed advisor or instructor counts at once. No API key, permission or group widens it.
 */
export class ProtectedAccess {
  constructor(private readonly records: RecordService, private readonly people: People, private readonly schema: CompiledSchema) {}

  async student(principal: Principal, id: string): Promise<Found> {
    if (principal.kind === 'api-key') return { record: null, basis: 'none' }
    const found = await this.records.get(id)
    const student = found && this.schema.class(found.type)?.ancestors.includes('Student') ? found : null
    if (isAdmin(principal)) return { record: student, basis: 'admin' }
    if (!student) return { record: null, basis: 'none' }
    const relation = await this.people.relationTo(principal, student)
    return { record: student, basis: relation === 'self' || relation === 'advisor' ? relation : 'none' }
  }

  /** A section is catalog, so whether it exists is no secret: a missing one is reported to everyone. */
  async section(principal: Principal, id: string): Promise<Found> {
    const section = await this.records.get(id)
    if (!section || principal.kind === 'api-key') return { record: section, basis: 'none' }
    if (isAdmin(principal)) return { record: section, basis: 'admin' }
    const me = await this.people.personOf(principal)
    const instructors = Array.isArray(section.instructors) ? section.instructors : []
    return { record: section, basis: me && instructors.includes(me._id) ? 'instructor' : 'none' }
  }
}
