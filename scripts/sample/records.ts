import { slug } from '../../src/schema/keys.js'
import { Random } from './random.js'

/** One record to write: its class, the id it will have, and the create body. */
export interface SampleRecord {
  readonly className: string
  readonly id: string
  /** The identifier to pass to RecordService.create for Random-key classes; Lexical-key classes derive their own. */
  readonly key?: string
  readonly body: Record<string, unknown>
}

/** A record of a Random-key class, given a fixed identifier so the data set is the same on every run. */
export function keyed(className: string, key: string, body: Record<string, unknown>): SampleRecord {
  return { className, id: `${className}/${key}`, key, body }
}

/**
 * A record of a Lexical-key class. The id is predicted the way the schema's key derivation makes it
 * (each part's slug, joined with '_'; a reference contributes the part after its slash), so other records
 * can refer to it before it is written; the seeder checks the prediction.
 */
export function lexical(className: string, parts: readonly string[], body: Record<string, unknown>): SampleRecord {
  const key = parts.map((part) => slug(part.includes('/') ? part.slice(part.indexOf('/') + 1) : part)).join('_')
  return { className, id: `${className}/${key}`, body }
}

/**
 * One copy of the department. Scale N makes N units; unit 0 is the department itself and later units are
 * parallel tracks whose subjects and names carry a letter tag, so every id and unique field stays distinct.
 */
export class Unit {
  readonly tag: string
  readonly random: Random

  constructor(readonly index: number) {
    this.tag = unitTag(index)
    this.random = new Random(`catalog:${index}`)
  }

  /** "CS" in unit 0, "CSB" in unit 1, ... "CSAA" in unit 26. */
  subject(subject: string): string {
    return `${subject}${this.tag}`
  }

  /** A template course code ("CS 101") as this unit's course code. */
  code(templateCode: string): string {
    const [subject, number] = templateCode.split(' ')
    return `${this.subject(subject!)} ${number}`
  }

  courseId(templateCode: string): string {
    return `Course/${slug(this.code(templateCode))}`
  }

  /** A unique name (lab, center, degree) in this unit. */
  name(base: string): string {
    return this.tag ? `${base} (Track ${this.tag})` : base
  }
}

export const maxScale = 500

function unitTag(index: number): string {
  if (index === 0) return ''
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
  if (index < 26) return letters[index]!
  const n = index - 26
  return `${letters[Math.floor(n / 26) % 26]}${letters[n % 26]}`
}
