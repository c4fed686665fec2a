import { generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto'

/** A key pair with a self-signed X.509 certificate, made with node:crypto and a minimal DER encoder. */
export interface KeyAndCert {
  readonly privateKey: string
  readonly certificate: string
  /** The certificate's base64 body, as IdP metadata and KeyInfo carry it. */
  readonly certificateBody: string
}

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n])
  const bytes: number[] = []
  for (let rest = n; rest > 0; rest >>= 8) bytes.unshift(rest & 0xff)
  return Buffer.from([0x80 | bytes.length, ...bytes])
}

const tlv = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content)
  return Buffer.concat([Buffer.from([tag]), length(body.length), body])
}
const sequence = (...items: Buffer[]) => tlv(0x30, ...items)
const set = (...items: Buffer[]) => tlv(0x31, ...items)
const integer = (bytes: Buffer) => tlv(0x02, bytes[0]! & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes)
const nullValue = () => Buffer.from([0x05, 0x00])
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'))
const bitString = (bytes: Buffer) => tlv(0x03, Buffer.from([0]), bytes)

function oid(dotted: string): Buffer {
  const [a, b, ...rest] = dotted.split('.').map(Number) as [number, number, ...number[]]
  const bytes = [a * 40 + b]
  for (const part of rest) {
    const chunk = [part & 0x7f]
    for (let v = part >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80)
    bytes.push(...chunk)
  }
  return tlv(0x06, Buffer.from(bytes))
}

function time(date: Date): Buffer {
  const iso = date.toISOString()
  return tlv(0x17, Buffer.from(`${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`))
}

const sha256WithRsa = () => sequence(oid('1.2.840.113549.1.1.11'), nullValue())
const name = (commonName: string) => sequence(set(sequence(oid('2.5.4.3'), utf8(commonName))))

/** An RSA-2048 key and a certificate valid from `notBefore` to `notAfter` (a year from now by default). */
export function makeKeyAndCert(commonName: string, validity: { notBefore?: Date; notAfter?: Date } = {}): KeyAndCert {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const notBefore = validity.notBefore ?? new Date(Date.now() - 86_400_000)
  const notAfter = validity.notAfter ?? new Date(Date.now() + 365 * 86_400_000)
  const tbs = sequence(
    tlv(0xa0, integer(Buffer.from([2]))),
    integer(Buffer.concat([Buffer.from([0x01]), randomBytes(8)])),
    sha256WithRsa(),
    name(commonName),
    sequence(time(notBefore), time(notAfter)),
    name(commonName),
    publicKey.export({ type: 'spki', format: 'der' }),
  )
  const der = sequence(tbs, sha256WithRsa(), bitString(sign('sha256', tbs, privateKey)))
  const certificateBody = der.toString('base64')
  const certificate = `-----BEGIN CERTIFICATE-----\n${certificateBody.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`
  new X509Certificate(certificate)
  return { privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, certificate, certificateBody }
}
