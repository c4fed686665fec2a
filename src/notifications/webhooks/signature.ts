import { createHmac, randomBytes } from 'node:crypto'

/**
 * Standard Webhooks 1.0 signing (https://www.standardwebhooks.com): a secret is `whsec_` and the base64
 * of its key bytes; a signature is `v1,` and the base64 HMAC-SHA256, under those bytes, of
 * `<webhook-id>.<webhook-timestamp>.<body>`. Several signatures (a rotated secret and the one it
 * replaced) travel in one header, separated by spaces; a receiver accepts the message if any verifies.
 */
export const secretPrefix = 'whsec_'

/** A new secret of 32 random bytes. */
export function newSecret(): string {
  return `${secretPrefix}${randomBytes(32).toString('base64')}`
}

function keyOf(secret: string): Buffer {
  if (!secret.startsWith(secretPrefix)) throw new TypeError('a webhook secret starts with whsec_')
  return Buffer.from(secret.slice(secretPrefix.length), 'base64')
}

/** The `webhook-signature` header for one message under each of the secrets, in the order given. */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: Buffer): string {
  return secrets.map((secret) => {
    const mac = createHmac('sha256', keyOf(secret)).update(`${id}.${timestamp}.`).update(body).digest('base64')
    return `v1,${mac}`
  }).join(' ')
}
