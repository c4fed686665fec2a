import { createHash, randomBytes } from 'node:crypto'
import type { ClassDef } from './model.js'

const maxKeyLength = 160

/** Turns a value into id-safe text: accents dropped, anything outside [A-Za-z0-9.~-] becomes '-'. */
export function slug(value: string): string {
  return value.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^A-Za-z0-9.~]+/g, '-').replace(/^-+|-+$/g, '')
}

function text(value: unknown): string {
  if (typeof value === 'string') return value.includes('/') ? value.slice(value.indexOf('/') + 1) : value
  return String(value)
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 32)
}

function stable(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stable((value as Record<string, unknown>)[k])}`).join(',')}}`
  }
  return JSON.stringify(value)
}

/**
 * The identifier part of a new record's id, per the class's @key: Lexical joins the key fields' slugs
 * with '_' (a reference contributes its own identifier), Hash and ValueHash hash the fields or the whole
 * record, Random is 16 random URL-safe characters.
 */
export function makeKey(cls: ClassDef, record: Readonly<Record<string, unknown>>): string {
  switch (cls.key.type) {
    case 'Random':
      return randomBytes(12).toString('base64url')
    case 'ValueHash':
      return hash(stable(Object.fromEntries(cls.properties.map((p) => [p.name, record[p.name]]))))
    case 'Hash':
      return hash(stable(cls.key.fields.map((f) => record[f])))
    case 'Lexical': {
      const key = cls.key.fields.map((f) => slug(text(record[f]))).join('_')
      if (!key) return hash(stable(cls.key.fields.map((f) => record[f])))
      return key.length <= maxKeyLength ? key : `${key.slice(0, maxKeyLength - 33)}-${hash(key)}`
    }
  }
}

export function keyFields(cls: ClassDef): readonly string[] {
  return cls.key.type === 'Lexical' || cls.key.type === 'Hash' ? cls.key.fields : []
}
