import type { Actor } from '../actor.js'
import { RecordNotFound, WriteContended, hasStatus } from '../errors.js'
import type { RecordService } from '../records/service.js'
import type { Group, User } from '../schema/generated/records.js'
import { where, type Filter, type Store } from '../store/port.js'
import { isPermission, roleDefaults, type Permission, type Role } from './permissions.js'
import type { SamlIdentity } from './saml/attributes.js'
import { roleAfterSignIn, roleFromAffiliation } from './saml/roles.js'
import type { IdTokenClaims } from './tokens.js'

/** A user as stored: the User class's type, generated from schema/identity.json. */
export type UserRecord = User
export type GroupRecord = Group

export interface Access {
  readonly permissions: ReadonlySet<Permission>
  readonly groups: readonly GroupRecord[]
}

/** Identifier of the user a NetID signs in as, fixed so that concurrent first sign-ins meet on one record. */
export function userKeyForNetid(netid: string): string {
  return `netid-${netid}`
}

const signInAttempts = 3

/** What an administrator's user list asks for (docs/auth.md, "User administration"). */
export interface UserQuery {
  readonly role?: Role
  /** Words each beginning the email, first, last or display name (case-insensitive). */
  readonly search?: string
  readonly limit: number
  readonly offset: number
}

const searchedFields = ['email', 'first_name', 'last_name', 'display_name'] as const
const maxSearchWords = 8

function userFilter({ role, search }: UserQuery): Filter {
  const clauses: Filter[] = role ? [{ role }] : []
  for (const word of (search ?? '').trim().split(/\s+/).filter(Boolean).slice(0, maxSearchWords)) {
    clauses.push({ $or: searchedFields.map((field) => where(field, { $iprefix: word })) })
  }
  return clauses.length === 0 ? {} : clauses.length === 1 ? clauses[0]! : { $and: clauses }
}

export class UserService {
  constructor(private readonly store: Store, private readonly records: RecordService) {}

  private get users() {
    return this.store.collection<UserRecord>('users')
  }

  byId(id: string): Promise<UserRecord | null> {
    return this.users.findById(id)
  }

  /**
   * The user an ID token names. A token minted by `npm run token` may name a user who does not exist yet
   * (the script cannot write to a store the server owns): that user is created from the token's claims.
   */
  async fromToken(claims: IdTokenClaims, actor: Actor): Promise<UserRecord | null> {
    let user = await this.byId(claims.sub)
    if (!user && claims.role_grant && claims.sub.startsWith('User/email-')) {
      try {
        user = await this.records.create('User', {
          email: claims.email, role: claims.role_grant, role_set_at: new Date(claims.iat * 1000).toISOString(),
        }, { actor, key: claims.sub.slice('User/'.length) })
      } catch (error) {
        if (!hasStatus(error, 409)) throw error
        user = await this.byId(claims.sub)
      }
    }
    if (user && claims.role_grant && claims.role_grant !== user.role) {
      const changedAt = user.role_set_at ? Date.parse(user.role_set_at) : 0
      if (claims.iat * 1000 > changedAt) user = await this.setRole(user, claims.role_grant, actor, new Date(claims.iat * 1000))
    }
    return user
  }

  byCampusId(campusId: string): Promise<UserRecord | null> {
    return this.users.findOne({ campus_id: campusId })
  }

  /**
   * Creates or refreshes the user a single sign-on identity names. The user is found by NetID
   * (campus_id), never by email, so an IdP that hands one person another's address takes over
   * nothing. The role follows the affiliation, except that an admin stays admin; SSO never makes one.
   * Fails with ValidationFailed (ADKS_VALIDATION_FAILED) when the IdP's values do not fit the User schema.
   */
  async upsertFromSaml(identity: SamlIdentity, actor: Actor, at = new Date()): Promise<UserRecord> {
    const stamp = at.toISOString()
    const mapped = roleFromAffiliation(identity.affiliation)
    const fields = {
      email: identity.email,
      ...(identity.firstName ? { first_name: identity.firstName } : {}),
      ...(identity.lastName ? { last_name: identity.lastName } : {}),
      ...(identity.displayName ? { display_name: identity.displayName } : {}),
      ...(identity.department ? { department: identity.department } : {}),
      affiliation: [...identity.affiliation],
      saml_authenticated: true,
      last_login_at: stamp,
    }
    for (let attempt = 0; attempt < signInAttempts; attempt++) {
      const existing = await this.byCampusId(identity.netid)
      if (existing) {
        const role = roleAfterSignIn(existing.role, mapped)
        return await this.records.update(existing._id, {
          ...fields, ...(role !== existing.role ? { role, role_set_at: stamp } : {}),
        }, { actor, className: 'User' })
      }
      try {
        return await this.records.create('User', { ...fields, campus_id: identity.netid, role: mapped, role_set_at: stamp },
          { actor, key: userKeyForNetid(identity.netid) })
      } catch (error) {
        // Another sign-in of the same person created the record first: update that one instead.
        if (!hasStatus(error, 409)) throw error
      }
    }
    throw new WriteContended(`the user for NetID ${identity.netid} could not be created`)
  }

  async setRole(user: UserRecord, role: Role, actor: Actor, at = new Date()): Promise<UserRecord> {
    return await this.records.update(user._id, { role, role_set_at: at.toISOString() }, { actor, className: 'User' })
  }

  /** A page of users by email, for administration. */
  async list(query: UserQuery): Promise<{ items: UserRecord[]; total: number }> {
    const filter = userFilter(query)
    const [items, total] = await Promise.all([
      this.users.find(filter, { sort: [['email', 1], ['_id', 1]], skip: query.offset, limit: query.limit }),
      this.users.count(filter),
    ])
    return { items, total }
  }

  /**
   * An administrator's role change, whoever the user signed in through. It is a write to the users
   * collection, so every remembered principal is dropped and the user has the new role at their next
   * request; a later single sign-on keeps an admin admin (roles.ts).
   */
  async changeRole(id: string, role: Role, actor: Actor): Promise<UserRecord> {
    const user = await this.byId(id)
    if (!user) throw new RecordNotFound(`${id} not found`)
    return user.role === role ? user : this.setRole(user, role, actor)
  }

  /** The role's permissions plus every group's the user is in, read fresh on each request. */
  async access(user: UserRecord): Promise<Access> {
    const groups = await this.store.collection<GroupRecord>('groups').find({ members: user._id }, { omit: ['_search'] })
    const granted = new Set(roleDefaults[user.role])
    for (const group of groups) for (const name of group.permissions) if (isPermission(name)) granted.add(name)
    return { permissions: granted, groups }
  }
}
