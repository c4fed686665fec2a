import type { Principal } from '../auth/principal.js'
import type { UserRecord } from '../auth/users.js'
import { ApiKeyNotAllowed } from '../errors.js'
import { linkedPersons } from '../privacy/person-link.js'
import type { People } from '../privacy/relations.js'
import type { RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'

/**
 * The one id space of the workflows (docs/workflows.md): a person is named by their Person id when
 * they have one (advisors, committees, applicants), else by their User id (an admin or group member
 * with no Person record). A caller may act as either of their ids.
 */
export interface Caller {
  /** The id the caller acts and submits as: their Person id, else their User id. */
  readonly id: string
  /** Every id the caller answers to. */
  readonly ids: ReadonlySet<string>
  readonly personId?: string
  readonly admin: boolean
  readonly role: Principal['role']
}

/** Workflows are people's business: an API key never reaches them (docs/workflows.md). */
export async function callerOf(principal: Principal, people: People): Promise<Caller> {
  if (principal.kind !== 'user') throw new ApiKeyNotAllowed('API keys cannot use approval workflows')
  const person = await people.personOf(principal)
  const ids = new Set([principal.userId, ...(person ? [person._id] : [])])
  return {
    id: person?._id ?? principal.userId, ids, admin: principal.role === 'admin', role: principal.role,
    ...(person ? { personId: person._id } : {}),
  }
}

/**
 * The workflow ids of users: each user's linked Person (by campus id, else by email ignoring case when
 * that Person carries no other campus id, as People.personOf links a caller), else the User id.
 */
export async function workflowIdsOfUsers(users: readonly UserRecord[], records: RecordService, schema: CompiledSchema): Promise<string[]> {
  if (!users.length) return []
  const persons = await linkedPersons(records, schema, users.map((u) => ({ campusId: u.campus_id, email: u.email })))
  return users.map((user, i) => persons[i]?._id ?? user._id)
}
