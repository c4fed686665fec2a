import type { FastifyBaseLogger } from 'fastify'
import { SecretBox } from '../auth/secret-box.js'
import { hasStatus } from '../errors.js'
import type { Actor } from '../actor.js'
import type { RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'
import { clientSecretContext, configId } from './config.js'

/**
 * Run at start-up, before anything serves: a sealed secret in the store must open with this SECRETS_KEY
 * (else start-up stops, naming it, rather than every later sync failing), and a plain one stored by an
 * earlier version is sealed in place.
 */
export async function checkStoredClientSecret(records: RecordService, schema: CompiledSchema, secrets: SecretBox, actor: Actor, log: FastifyBaseLogger): Promise<void> {
  if (!schema.class('SyncConfig')) return
  const stored = await records.get(configId)
  const secret = stored?.client_secret
  if (!stored || typeof secret !== 'string') return
  if (SecretBox.isSealed(secret)) {
    secrets.open(secret, clientSecretContext)
    return
  }
  try {
    await records.update(configId, { client_secret: secrets.seal(secret, clientSecretContext) }, { actor, expectVersion: stored._version })
    log.info('the campus-sync client secret stored in clear is now encrypted at rest')
  } catch (error) {
    // Another instance starting at the same time sealed it, or an administrator stored a new one.
    if (!hasStatus(error, 409)) throw error
  }
}
