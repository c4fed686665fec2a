import type { Principal } from '../auth/principal.js'
import type { ApiRecord, RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'
import { linkedPersons } from './person-link.js'

/** Admin rights over student records come from the admin role used in person, never from a key or a group. */
export function isAdmin(principal: Principal): boolean {
  return principal.kind === 'user' && principal.role === 'admin'
}

export type Relation = 'admin' | 'self' | 'advisor' | 'none'

/**
 * Finds the Person record a caller is (docs/auth.md, "Registering the service with your identity provider"):
 * the one whose campus_id is the caller's campus id, else the one with the caller's email compared without
 * regard to case, unless that record belongs to another campus id (person-link.ts). Looked up afresh on each
 * request, so a Person created, given an email or made an advisor counts on the caller's very next request.
 */
export class People {
  /**
   * Cache rule. Holds: the Person lookup of one request's principal. Invalidated by: the end of the
   * request, since the auth plugin gives every request a Principal object of its own (auth/plugin.ts
   * `forThisRequest`) and this map holds its keys weakly; no write is needed to clear it, and none can
   * be missed. Test: test/privacy/access-follows-data.test.ts (a Person created, then made advisor,
   * between two requests of the same token) and test/privacy/people-memo.test.ts.
   */
  private readonly memo = new WeakMap<Principal, Promise<ApiRecord | null>>()

  constructor(private readonly records: RecordService, private readonly schema: CompiledSchema) {}

  /** An API key is no one's Person: it acts for its owner on the catalog, never on their relations (docs/privacy.md). */
  personOf(principal: Principal): Promise<ApiRecord | null> {
    return principal.kind === 'api-key' ? Promise.resolve(null) : this.linkedPerson(principal)
  }

  /**
   * The Person a caller writes catalog records as: the user's, or for an API key its owner's (a key acts
   * for its owner on the catalog, so it may change what its owner authored; docs/privacy.md, "Publications:
   * who may change them").
   */
  linkedPerson(principal: Principal): Promise<ApiRecord | null> {
    let found = this.memo.get(principal)
    if (!found) {
      found = this.lookup(principal)
      this.memo.set(principal, found)
    }
    return found
  }

  private async lookup(principal: Principal): Promise<ApiRecord | null> {
    const [found] = await linkedPersons(this.records, this.schema, [{ campusId: principal.campusId, email: principal.email }])
    return found ?? null
  }

  /** How the caller stands to a student: the student, one of their advisors, an admin, or none of these. */
  async relationTo(principal: Principal, student: ApiRecord): Promise<Relation> {
    if (isAdmin(principal)) return 'admin'
    const me = await this.personOf(principal)
    if (!me) return 'none'
    if (me._id === student._id) return 'self'
    const advisors = Array.isArray(student.advisors) ? student.advisors : []
    return advisors.includes(me._id) ? 'advisor' : 'none'
  }
}
