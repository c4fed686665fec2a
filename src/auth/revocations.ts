import { hour, type MaintenanceJobs } from '../jobs/maintenance.js'
import type { Store } from '../store/port.js'

export const revokedTokensCollection = 'revoked_tokens'
const sweepEveryMs = 60 * 60 * 1000

interface Revoked {
  _id: string
  expires_at: string
  [field: string]: unknown
}

/**
 * The deny-list of signed-out ID tokens, keyed by issuer and token id and kept until the token would
 * have expired anyway. It lives in the store, so a sign-out holds on every instance at once.
 */
export class Revocations {
  private readonly sweeper = setInterval(() => void this.sweep().catch(() => {}), sweepEveryMs).unref()

  constructor(private readonly store: Store) {}

  private get collection() {
    return this.store.collection<Revoked>(revokedTokensCollection)
  }

  private static id(issuer: string, tokenId: string): string {
    return `${issuer}#${tokenId}`
  }

  async revoke(issuer: string, tokenId: string, expiresAt: Date): Promise<void> {
    await this.collection.upsertOne({ _id: Revocations.id(issuer, tokenId) }, { _id: Revocations.id(issuer, tokenId), expires_at: expiresAt.toISOString() })
  }

  async isRevoked(issuer: string, tokenId: string): Promise<boolean> {
    return (await this.collection.findById(Revocations.id(issuer, tokenId))) !== null
  }

  async sweep(now = new Date()): Promise<number> {
    return this.collection.deleteMany({ expires_at: { $lt: now.toISOString() } })
  }

  close(): void {
    clearInterval(this.sweeper)
  }
}

/** Signed-out tokens are kept only until they would have expired anyway. */
export function revocationMaintenance(revocations: Revocations): MaintenanceJobs {
  return { 'sweep-revoked-tokens': { every: hour, run: async (now) => ({ deleted: await revocations.sweep(now) }) } }
}
