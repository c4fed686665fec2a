import { hash, randomBytes, timingSafeEqual } from 'node:crypto'
import { crc32 } from 'node:zlib'

const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
export const keyPrefix = 'adks_'
const secretLength = 30
const checksumLength = 6
/** Also the pattern a secret scanner can use: prefix, 178 bits of base62, a 32-bit checksum. */
export const keyShape = /^adks_[0-9A-Za-z]{36}$/
export const displayedLength = 12

function base62(value: number, width: number): string {
  let text = ''
  for (let n = value; n > 0; n = Math.floor(n / 62)) text = alphabet[n % 62] + text
  return text.padStart(width, '0')
}

function checksum(secret: string): string {
  return base62(crc32(secret), checksumLength)
}

function randomBase62(length: number): string {
  let text = ''
  while (text.length < length) {
    for (const byte of randomBytes(length * 2)) {
      // 248 = 4 × 62: rejecting the bytes above it keeps every character equally likely.
      if (byte < 248 && text.length < length) text += alphabet[byte % 62]
    }
  }
  return text
}

export function generateKey(): string {
  const secret = randomBase62(secretLength)
  return `${keyPrefix}${secret}${checksum(secret)}`
}

/** A key of the right shape whose checksum matches; anything else is refused without a store lookup. */
export function wellFormed(key: string): boolean {
  if (!keyShape.test(key)) return false
  const secret = key.slice(keyPrefix.length, keyPrefix.length + secretLength)
  return checksum(secret) === key.slice(keyPrefix.length + secretLength)
}

/** Keys are long and random, so a fast digest is enough, and it lets a key be found by an index. */
export function digest(key: string): string {
  return hash('sha256', key, 'hex')
}

export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex')
  const right = Buffer.from(b, 'hex')
  return left.length === right.length && timingSafeEqual(left, right)
}

export function displayPrefix(key: string): string {
  return key.slice(0, displayedLength)
}
