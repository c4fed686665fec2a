import { createHash } from 'node:crypto'
import { Type, type Static } from '@sinclair/typebox'

/**
 * The spec's resource types, plus `audit-log` for reads of the audit log itself, `user` for role changes
 * and `person` for one's own record (GET|PUT /api/auth/me/person, docs/privacy.md).
 */
export const auditResourceTypes = ['enrollment', 'grade', 'transcript', 'degree-progress', 'student-plan', 'audit-log', 'user', 'person'] as const
export type AuditResourceType = (typeof auditResourceTypes)[number]

export const auditActions = ['view', 'create', 'update', 'delete'] as const
export type AuditAction = (typeof auditActions)[number]

const Text = (description: string) => Type.Union([Type.String(), Type.Null()], { description })

/**
 * What one request to a protected route leaves in the audit log: the spec's fields (userId,
 * resourceType, resourceId, action, ipAddress, success, timestamp) and who/where detail. Never a grade,
 * a token or a key.
 */
export const AuditFactsSchema = Type.Object({
  userId: Text('The signed-in user, or the owner of the API key; null when the caller was not identified'),
  resourceType: Type.Unsafe<AuditResourceType>({ type: 'string', enum: [...auditResourceTypes] }),
  resourceId: Text('The record named in the request path (the created record for a create)'),
  action: Type.Unsafe<AuditAction>({ type: 'string', enum: [...auditActions] }),
  ipAddress: Type.String(),
  success: Type.Boolean({ description: 'True when the answer\'s status was below 400' }),
  statusCode: Type.Integer(),
  reason: Text('The error message of a failed request'),
  authMethod: Type.String({ enum: ['bearer', 'api-key', 'none'] }),
  apiKeyId: Text('The API key used, if any'),
  apiKeyPrefix: Text('Its displayed prefix'),
  role: Text('The caller\'s role at the time'),
  basis: Text('Why access was granted or refused: self, advisor, instructor, admin or none'),
  method: Type.String(),
  route: Type.String({ description: 'The route pattern, e.g. /api/students/:id/transcript' }),
  requestId: Type.String(),
  userAgent: Text('The caller\'s User-Agent, control characters removed, at most 200 characters'),
})
export type AuditFacts = Static<typeof AuditFactsSchema>

export const AuditEntrySchema = Type.Composite([
  Type.Object({
    seq: Type.Integer({ minimum: 1, description: 'Position in the log, from 1 without gaps' }),
    timestamp: Type.String({ format: 'date-time', description: 'When the access was recorded (UTC)' }),
  }),
  AuditFactsSchema,
  Type.Object({
    prevHash: Type.String({ description: 'hash of the entry before (64 zeros for the first)' }),
    hash: Type.String({ description: 'SHA-256 of this entry\'s canonical form, which includes prevHash' }),
  }),
], { title: 'AuditEntry' })
export type AuditEntry = Static<typeof AuditEntrySchema>

export const genesisHash = '0'.repeat(64)

/** The store id of the entry at a position: zero-padded, so the ids sort in chain order. */
export function auditId(seq: number): string {
  return String(seq).padStart(12, '0')
}

/**
 * The text an entry's hash is taken over: its fields but the hash (and the store's `_id`) as JSON with
 * the keys sorted. A field added, removed or changed in any way changes this text. Its own definition
 * rather than a shared helper, because every stored hash depends on this exact form.
 */
export function canonical(entry: Readonly<Record<string, unknown>>): string {
  const keys = Object.keys(entry).filter((key) => key !== 'hash' && key !== '_id').sort()
  return JSON.stringify(Object.fromEntries(keys.map((key) => [key, entry[key]])))
}

export function hashOf(entry: Readonly<Record<string, unknown>>): string {
  return createHash('sha256').update(canonical(entry)).digest('hex')
}

export interface ChainReport {
  readonly intact: boolean
  /** Entries examined before the walk ended (at the end of the log, or at the first break). */
  readonly checked: number
  readonly firstBrokenAt?: number
  readonly reason?: string
  /**
   * The last entry that checked out. Noted somewhere outside the store, it also reveals entries cut off
   * the end of the log, which leave no break behind.
   */
  readonly head: { readonly seq: number; readonly hash: string } | null
}

/**
 * Walks stored entries in id order and stops at the first that does not belong where it is: a missing
 * position (deleted), an entry whose number is not its position (moved), an entry whose content no longer
 * matches its hash (modified), or one that does not chain to the entry before it (replaced or forged).
 */
export class ChainVerifier {
  private expected = 1
  private prevHash = genesisHash
  private checked = 0
  private broken?: { at: number; reason: string }

  /** Takes the next stored entry; false once the chain is broken. */
  feed(doc: Readonly<Record<string, unknown>>): boolean {
    if (this.broken) return false
    const position = Number(doc._id)
    if (!Number.isInteger(position) || auditId(position) !== doc._id) return this.fail(this.expected, `an entry with the foreign id ${String(doc._id)} follows entry ${this.expected - 1}`)
    if (position !== this.expected) {
      const missing = position - 1 === this.expected ? `entry ${this.expected} is` : `entries ${this.expected} to ${position - 1} are`
      return this.fail(this.expected, `${missing} missing (deleted)`)
    }
    if (doc.seq !== position) return this.fail(position, `position ${position} holds entry ${String(doc.seq)} (entries were reordered)`)
    const hash = hashOf(doc)
    if (doc.hash !== hash) return this.fail(position, `entry ${position} no longer matches its hash (modified)`)
    if (doc.prevHash !== this.prevHash) return this.fail(position, `entry ${position} does not follow entry ${position - 1} (an entry was replaced)`)
    this.checked++
    this.expected++
    this.prevHash = hash
    return true
  }

  private fail(at: number, reason: string): false {
    this.broken = { at, reason }
    return false
  }

  report(): ChainReport {
    const head = this.expected > 1 ? { seq: this.expected - 1, hash: this.prevHash } : null
    return this.broken
      ? { intact: false, checked: this.checked, firstBrokenAt: this.broken.at, reason: this.broken.reason, head }
      : { intact: true, checked: this.checked, head }
  }
}
