import { EventEmitter, once } from 'node:events'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { historyCollections } from '../../src/history/maintenance.js'
import { redo } from '../../src/history/patch.js'
import type { Revision } from '../../src/history/revision.js'
import { pendingField } from '../../src/history/writes.js'
import { internalFields } from '../../src/records/derived.js'
import { referenceFields } from '../../src/schema/collections.js'
import type { CompiledSchema } from '../../src/schema/index.js'
import type { Doc } from '../../src/store/port.js'
import type { Contents } from './tools.js'

type Caller = (options: InjectOptions) => Promise<LightMyRequestResponse>

/** One acknowledged write: the record's version it made (null: it deleted the record) and the record as answered. */
export interface Ack {
  readonly id: string
  readonly version: number | null
  readonly record?: Doc
  /** When the request was sent (ms): a backup's moment before it cannot hold what it made. */
  readonly sentAt: number
}

/**
 * Writes through the routes as an admin, one at a time, each acknowledged before the next: people
 * updated, courses created each with the one before as prerequisite, sections of the newest course
 * taught by one of the people, labs led by one created and deleted. Those references are what a backup
 * taken meanwhile must keep whole.
 */
export class Writer extends EventEmitter {
  readonly acks: Ack[] = []
  done = false

  constructor(private readonly admin: Caller, private readonly people: readonly string[], private course: string) {
    super()
  }

  /** Writes `count` times, then on until `also` has settled, if given (up to the course codes there are). */
  async run(count: number, also?: Promise<unknown>): Promise<void> {
    let settled = also === undefined
    void also?.finally(() => { settled = true })
    try {
      for (let i = 0; (i < count || !settled) && i < 9000; i++) await this.write(i)
    } finally {
      this.done = true
      this.emit('ack')
    }
  }

  /** Resolves once `count` more writes have been acknowledged, or the writer has stopped. */
  async more(count: number): Promise<void> {
    const target = this.acks.length + count
    while (!this.done && this.acks.length < target) await once(this, 'ack')
  }

  private async write(i: number): Promise<void> {
    const person = this.people[i % this.people.length]!
    const sentAt = Date.now()
    switch (i % 5) {
      case 0:
      case 1:
        this.acked(await this.admin({ method: 'PUT', url: `/api/people/${encodeURIComponent(person)}`, payload: { phone: `555-${i}` } }), 200, sentAt)
        return
      case 2: {
        const answer = await this.admin({ method: 'POST', url: '/api/courses', payload: { course_code: `ZZ ${1000 + i}`, title: `Course ${i}`, credits: 3, prerequisites: [this.course] } })
        this.course = this.acked(answer, 201, sentAt)._id
        return
      }
      case 3:
        this.acked(await this.admin({ method: 'POST', url: '/api/sections', payload: { course: this.course, term: '25F', section_number: `S${i}`, instructors: [person] } }), 201, sentAt)
        return
      default: {
        const lab = `Lab/Lab-${i - 5}`
        if (i % 10 === 9) {
          const answer = await this.admin({ method: 'DELETE', url: `/api/labs/${encodeURIComponent(lab)}` })
          if (answer.statusCode !== 200) throw new Error(`DELETE ${lab}: ${answer.statusCode} ${answer.body}`)
          this.push({ id: lab, version: null, sentAt })
          return
        }
        this.acked(await this.admin({ method: 'POST', url: '/api/labs', payload: { name: `Lab ${i}`, pi: person, members: [person] } }), 201, sentAt)
        return
      }
    }
  }

  private acked(answer: LightMyRequestResponse, status: number, sentAt: number): Doc & { _version: number } {
    if (answer.statusCode !== status) throw new Error(`write answered ${answer.statusCode}: ${answer.body}`)
    const record = answer.json() as Doc & { _version: number }
    this.push({ id: record._id, version: record._version, record, sentAt })
    return record
  }

  private push(ack: Ack): void {
    this.acks.push(ack)
    this.emit('ack')
  }
}

const internal = new Set<string>(internalFields)

/** The record without what is stored beside it for lookups and the outbox. */
export function fieldsOf(doc: Doc): Doc {
  return Object.fromEntries(Object.entries(doc).filter(([key]) => !internal.has(key))) as Doc
}

/**
 * What a backup holds of the writes: each acknowledged before it began is there (at its version or a
 * later one, a deletion absent), and each record written is there as one acknowledged answer gave it.
 * With `moment`, no record is there from a write sent after it. Problems, one line each.
 */
export function writesIn(contents: Contents, acks: readonly Ack[], before: number, moment?: number): string[] {
  const byId = new Map<string, Doc>()
  for (const docs of Object.values(contents)) for (const doc of docs) byId.set(doc._id, doc)
  const problems: string[] = []
  const latest = new Map<string, Ack>()
  acks.slice(0, before).forEach((ack) => latest.set(ack.id, ack))
  for (const [id, ack] of latest) {
    const held = byId.get(id)
    if (ack.version === null ? held : !held || (held._version as number) < ack.version) {
      problems.push(`${id}: acknowledged at ${ack.version ?? 'deleted'} before the backup began, in it at ${held?._version ?? 'none'}`)
    }
  }
  const answers = new Map<string, Ack>(acks.filter((a) => a.record).map((a) => [`${a.id}@${a.version}`, a]))
  for (const ack of acks) {
    const held = byId.get(ack.id)
    const answered = held && answers.get(`${ack.id}@${held._version as number}`)
    if (!answered) continue
    if (JSON.stringify(sorted(fieldsOf(held))) !== JSON.stringify(sorted(answered.record!))) problems.push(`${ack.id}@${held._version}: not as its write answered`)
    if (moment !== undefined && answered.sentAt > moment) problems.push(`${ack.id}@${held._version}: written by a request sent after the backup's moment`)
  }
  return [...new Set(problems)]
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted)
  if (value && typeof value === 'object') return Object.fromEntries(Object.keys(value).sort().map((k) => [k, sorted((value as Record<string, unknown>)[k])]))
  return value
}

/** Every reference a record in the backup makes names a record in the backup. */
export function danglingReferences(contents: Contents, schema: CompiledSchema): string[] {
  const ids = new Set(Object.values(contents).flatMap((docs) => docs.map((doc) => doc._id)))
  const problems: string[] = []
  for (const ref of referenceFields(schema.model)) {
    for (const doc of contents[ref.collection] ?? []) {
      if (doc.type !== ref.owner) continue
      for (const value of valuesAt(doc, ref.field.split('.'))) {
        if (typeof value === 'string' && !ids.has(value)) problems.push(`${doc._id}: ${ref.field} names ${value}, not in the backup`)
      }
    }
  }
  return problems
}

function valuesAt(value: unknown, path: readonly string[]): unknown[] {
  if (Array.isArray(value)) return value.flatMap((item) => valuesAt(item, path))
  if (!path.length) return value === undefined || value === null ? [] : [value]
  if (!value || typeof value !== 'object') return []
  return valuesAt((value as Record<string, unknown>)[path[0]!], path.slice(1))
}

/**
 * Each record of a class with history is what its revisions in the backup make, applied in order from
 * nothing (the one it may carry in its outbox included), and is at its last one's version; a revision's
 * record missing from the backup was deleted last.
 */
export function revisionsAgree(contents: Contents, schema: CompiledSchema): string[] {
  const byRecord = new Map<string, Revision[]>()
  for (const revision of (contents.revisions ?? []) as Revision[]) byRecord.set(revision.record, [...byRecord.get(revision.record) ?? [], revision])
  const problems: string[] = []
  const present = new Set<string>()
  for (const name of historyCollections(schema)) {
    for (const doc of contents[name] ?? []) {
      present.add(doc._id)
      const revisions = [...byRecord.get(doc._id) ?? []]
      const pending = doc[pendingField] as Revision | undefined
      if (pending && !revisions.some((r) => r.version === pending.version)) revisions.push(pending)
      revisions.sort((a, b) => a.version - b.version)
      let state: Record<string, unknown> = {}
      for (const revision of revisions) state = redo(state, revision.patch)
      if (revisions.at(-1)?.version !== doc._version) problems.push(`${doc._id}: at version ${doc._version as number}, its last revision ${revisions.at(-1)?.version ?? 'none'}`)
      else if (JSON.stringify(sorted(fieldsOf(doc))) !== JSON.stringify(sorted(state))) problems.push(`${doc._id}: not what its revisions make`)
    }
  }
  for (const [record, revisions] of byRecord) {
    const last = revisions.reduce((a, b) => (b.version > a.version ? b : a))
    if (!present.has(record) && last.op !== 'delete') problems.push(`${record}: revisions up to ${last.version} (${last.op}) but not in the backup`)
  }
  return problems
}
