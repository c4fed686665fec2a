import type { Permission, Role } from './permissions.js'
import type { GroupRecord } from './users.js'

/** Who is calling, established once per request before any handler runs. */
export interface Principal {
  readonly kind: 'user' | 'api-key'
  /** The signed-in user, or the owner of the API key. */
  readonly userId: string
  readonly email: string
  readonly role: Role
  readonly campusId?: string
  /** For a key: what it was granted and its owner still holds. */
  readonly permissions: ReadonlySet<Permission>
  readonly groups: readonly GroupRecord[]
  readonly token?: { readonly id: string; readonly expiresAt: Date }
  readonly apiKey?: { readonly id: string; readonly prefix: string }
}
