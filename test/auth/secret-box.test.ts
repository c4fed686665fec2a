import { randomBytes } from 'node:crypto'
import t from 'tap'
import { SecretBox } from '../../src/auth/secret-box.js'
import { ConfigError } from '../../src/config.js'

const context = 'campus-sync client secret (SyncConfig/campus)'

t.test('a sealed secret opens with its key and context only, and any change to it is detected', async (t) => {
  const box = new SecretBox(randomBytes(32))
  const sealed = box.seal('s3cret ünïcode', context)
  t.ok(SecretBox.isSealed(sealed))
  t.notOk(SecretBox.isSealed('s3cret'), 'a plain secret is told apart')
  t.equal(box.open(sealed, context), 's3cret ünïcode')
  t.not(box.seal('s3cret ünïcode', context), sealed, 'a fresh IV each time: equal secrets do not look equal')

  const [prefix, version, rest] = sealed.split(':') as [string, string, string]
  const [iv, tag, body] = rest.split('.') as [string, string, string]
  const flipped = Buffer.from(body, 'base64url')
  flipped[0]! ^= 1
  const refusals: [string, () => string][] = [
    ['another key', () => new SecretBox(randomBytes(32)).open(sealed, context)],
    ['another context', () => box.open(sealed, 'some other secret')],
    ['a changed ciphertext', () => box.open(`${prefix}:${version}:${iv}.${tag}.${flipped.toString('base64url')}`, context)],
    ['a changed tag', () => box.open(`${prefix}:${version}:${iv}.${'A'.repeat(22)}.${body}`, context)],
    ['not a sealed value', () => box.open('s3cret', context)],
  ]
  for (const [what, open] of refusals) {
    const error = (() => { try { open() } catch (e) { return e } })()
    t.type(error, ConfigError, what)
    t.equal((error as ConfigError).variable, 'SECRETS_KEY', `${what}: the error names SECRETS_KEY`)
  }
})
