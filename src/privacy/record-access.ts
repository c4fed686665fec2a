import type { Principal } from '../auth/principal.js'
import { isPermission } from '../auth/permissions.js'
import { PermissionDenied } from '../errors.js'
import type { ApiRecord } from '../records/service.js'
import type { CompiledSchema, Resource } from '../schema/index.js'
import type { Filter } from '../store/port.js'
import { isAdmin, type People } from './relations.js'

const ignoredOnUpdate = new Set(['_version', '_created_at', '_updated_at'])

/**
 * The record-level rules of a generic resource, read from the schema's metadata: who may read one record
 * (`visible_to`), which records lists leave out (`student`), and what a caller without the write
 * permission may change on their own record (`self_editable`, never `identity_fields`).
 */
export class RecordAccess {
  private readonly hiddenTypes: string[]
  readonly selfEditable: boolean

  constructor(private readonly schema: CompiledSchema, private readonly resource: Resource, private readonly people: People) {
    this.hiddenTypes = resource.classes.filter((name) => schema.class(name)!.metadata.student)
    this.selfEditable = resource.classes.some((name) => schema.class(name)!.metadata.self_editable.length > 0)
  }

  /** Extra filter for lists: student records are left out for everyone but admins. */
  listFilter(principal: Principal): Filter | undefined {
    return this.hiddenTypes.length && !isAdmin(principal) ? { type: { $nin: this.hiddenTypes } } : undefined
  }

  async canRead(principal: Principal, record: ApiRecord): Promise<boolean> {
    const visibleTo = this.schema.class(record.type)?.metadata.visible_to
    if (!visibleTo || isAdmin(principal)) return true
    if (visibleTo === 'admins') return false
    const relation = await this.people.relationTo(principal, record)
    return relation === 'self' || relation === 'advisor'
  }

  /**
   * A record that grants permissions (a group) may be written only by a caller holding every permission
   * it grants before and after the write; otherwise holding manage_groups would be a way to any right.
   */
  assertCanGrant(principal: Principal, ...records: readonly (Readonly<Record<string, unknown>> | undefined)[]): void {
    const field = this.resource.root.metadata.grants
    if (!field || isAdmin(principal)) return
    for (const record of records) {
      const granted = record?.[field]
      const missing = Array.isArray(granted) ? granted.find((p) => typeof p !== 'string' || !this.holds(principal, p)) : undefined
      if (missing !== undefined) throw new PermissionDenied(`Permission denied: you do not hold ${String(missing)}, so you cannot write a record granting it`)
    }
  }

  /** The caller's own record: an undergraduate may edit their profile though rule 1 keeps it from GET. */
  async isOwn(principal: Principal, record: ApiRecord): Promise<boolean> {
    return (await this.people.personOf(principal))?._id === record._id
  }

  private holds(principal: Principal, name: string): boolean {
    return isPermission(name) && principal.permissions.has(name)
  }

  /**
   * A caller with the resource's write permission may change anything the schema allows. Otherwise only
   * self-editable fields, on their own record (or anyone's, with manage_profiles); an identity field or
   * any other field is refused with a 403 naming it.
   */
  async authorizeUpdate(principal: Principal, record: ApiRecord, patch: Readonly<Record<string, unknown>>): Promise<void> {
    if (this.holds(principal, this.resource.permissions.write)) return
    const cls = this.schema.class(record.type)!
    if (!cls.metadata.self_editable.length) throw new PermissionDenied(`Permission denied: needs ${this.resource.permissions.write}`)
    const anyone = principal.kind === 'user' && principal.permissions.has('manage_profiles')
    if (!anyone && !(await this.isOwn(principal, record))) {
      throw new PermissionDenied(`Permission denied: needs ${this.resource.permissions.write}, or the record must be your own profile`)
    }
    const identity = new Set(['_id', 'type', ...cls.metadata.identity_fields])
    for (const field of Object.keys(patch)) {
      if (ignoredOnUpdate.has(field)) continue
      if (identity.has(field)) throw new PermissionDenied(`Permission denied: '${field}' identifies the person and cannot be changed here`)
      if (!cls.metadata.self_editable.includes(field)) throw new PermissionDenied(`Permission denied: '${field}' is not editable on a profile`)
    }
  }
}
