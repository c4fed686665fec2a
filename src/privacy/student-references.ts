import type { Principal } from '../auth/principal.js'
import type { ApiRecord, RecordService } from '../records/service.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'
import { isAdmin, type People } from './relations.js'

type Visibility = NonNullable<ClassDef['metadata']['visible_to']>

/** A field that may hold a reference to a student: a reference to it directly, or inside a subdocument. */
type StudentField =
  | { readonly name: string; readonly kind: 'reference'; readonly many: boolean }
  | { readonly name: string; readonly kind: 'subdocument'; readonly many: boolean; readonly cls: string }

/**
 * References to students inside public records (a lab's `members`, a publication's `dept_authors`, a
 * resource's `contact`) are left out of the answer for a caller who may not see that student, so no public
 * read reveals a student's identifier (docs/privacy.md, "Students named in public records"). Which fields may
 * hold one is read from the schema (every reference whose target class has a concrete class with
 * `visible_to`); which ids are students is read from the id itself (ids carry their class), so no answer
 * costs a look-up per item. A caller who is not an admin sees only the graduate students they are, or advise;
 * working that out costs two reads at most, once per request, and only when an answer names a graduate
 * student.
 */
export class StudentReferences {
  private readonly visibility = new Map<string, Visibility>()
  private readonly fields = new Map<string, readonly StudentField[]>()
  /** Classes whose records a non-admin may see only by relation (graduate students), with the classes that may advise them. */
  private readonly byRelation: { readonly cls: ClassDef; readonly advisors: readonly string[] }[] = []
  /**
   * Cache rule. Holds: the students one request's caller may see by relation. Invalidated by: the end of
   * the request, as for People's memo (privacy/relations.ts): each request has a Principal of its own,
   * held weakly here. Test: test/privacy/student-references.test.ts (an advisor sees their student, then
   * another faculty member does not).
   */
  private readonly memo = new WeakMap<Principal, Promise<ReadonlySet<string>>>()

  constructor(private readonly schema: CompiledSchema, private readonly records: RecordService, private readonly people: People) {
    for (const cls of schema.model.classes.values()) {
      const visibleTo = cls.metadata.visible_to
      if (!visibleTo || cls.abstract) continue
      this.visibility.set(cls.name, visibleTo)
      const advisors = cls.properties.find((p) => p.name === 'advisors')?.target
      if (visibleTo === 'admins-self-advisors') this.byRelation.push({ cls, advisors: advisors?.kind === 'reference' ? schema.class(advisors.name)!.concrete : [] })
    }
    for (const cls of schema.model.classes.values()) {
      if (!cls.metadata.student && !cls.metadata.visible_to) this.fields.set(cls.name, this.studentFields(cls, new Set()))
    }
  }

  private studentFields(cls: ClassDef, seen: Set<string>): StudentField[] {
    const found: StudentField[] = []
    seen.add(cls.name)
    for (const prop of cls.properties) {
      const many = prop.kind !== 'required' && prop.kind !== 'optional'
      if (prop.target.kind === 'reference' && this.schema.class(prop.target.name)!.concrete.some((name) => this.visibility.has(name))) {
        found.push({ name: prop.name, kind: 'reference', many })
      }
      if (prop.target.kind === 'subdocument' && !seen.has(prop.target.name) && this.studentFields(this.schema.class(prop.target.name)!, seen).length) {
        found.push({ name: prop.name, kind: 'subdocument', many, cls: prop.target.name })
      }
    }
    seen.delete(cls.name)
    return found
  }

  /** Whether records of any of these classes may name a student. */
  mayName(classNames: readonly string[]): boolean {
    return classNames.some((name) => (this.fields.get(name)?.length ?? 0) > 0)
  }

  /** The fields of a class that hold references which may name a student (not those inside subdocuments). */
  referenceFields(className: string): string[] {
    return (this.fields.get(className) ?? []).filter((f) => f.kind === 'reference').map((f) => f.name)
  }

  /** Whether the caller may see the record the id names, as far as its being a student goes. */
  async maySee(principal: Principal, id: string): Promise<boolean> {
    const cls = this.schema.classOfId(id)
    const visibleTo = cls && this.visibility.get(cls.name)
    if (!visibleTo || isAdmin(principal)) return true
    return visibleTo === 'admins-self-advisors' && (await this.visibleByRelation(principal)).has(id)
  }

  /** Whether the id names a student whom only some callers may see. */
  isStudent(id: string): boolean {
    const cls = this.schema.classOfId(id)
    return cls !== undefined && this.visibility.has(cls.name)
  }

  /**
   * The students a caller who is not an admin may see: themselves and those they advise, where the
   * class allows it. Never any for an API key (docs/privacy.md: no key widens who sees a student).
   */
  visibleByRelation(principal: Principal): Promise<ReadonlySet<string>> {
    let found = this.memo.get(principal)
    if (!found) {
      found = this.lookup(principal)
      this.memo.set(principal, found)
    }
    return found
  }

  private async lookup(principal: Principal): Promise<ReadonlySet<string>> {
    const visible = new Set<string>()
    if (!this.byRelation.length || principal.kind === 'api-key') return visible
    const me = await this.people.personOf(principal)
    if (!me) return visible
    for (const { cls, advisors } of this.byRelation) {
      if (me.type === cls.name) visible.add(me._id)
      if (!advisors.includes(me.type)) continue
      for (const advisee of await this.records.find(cls, { type: cls.name, advisors: me._id })) visible.add(advisee._id)
    }
    return visible
  }

  /**
   * The records as this caller may see them: references to students they may not see left out. A
   * record with nothing to leave out is returned as it is (not copied); one that changes is a copy.
   */
  async redact<R extends Readonly<Record<string, unknown>> & { readonly type: string }>(principal: Principal, records: readonly R[]): Promise<R[]> {
    if (isAdmin(principal) || !records.some((r) => this.fields.get(r.type)?.length)) return [...records]
    const named = new Set<string>()
    for (const record of records) this.collect(record.type, record, named)
    const graduate = [...named].some((id) => this.visibility.get(this.schema.classOfId(id)!.name) === 'admins-self-advisors')
    const visible = graduate ? await this.visibleByRelation(principal) : new Set<string>()
    const sees = (id: string) => !named.has(id) || visible.has(id)
    return records.map((record) => this.without(record.type, record, sees) as R)
  }

  /** One record as this caller may see it (see redact). */
  async redactOne<R extends Readonly<Record<string, unknown>> & { readonly type: string }>(principal: Principal, record: R): Promise<R> {
    return (await this.redact(principal, [record]))[0]!
  }

  /**
   * An update as meant by a caller who could not see every student the record names: the students left
   * out of their answer are kept in each list they send back, so a record read, edited and sent back whole
   * does not lose them. A single reference they set or remove is theirs to change.
   */
  async keepHidden(principal: Principal, current: ApiRecord, patch: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>> {
    const fields = this.fields.get(current.type)?.filter((f) => f.kind === 'reference' && f.many && Array.isArray(patch[f.name]) && Array.isArray(current[f.name]))
    if (isAdmin(principal) || !fields?.length) return { ...patch }
    const [seen] = await this.redact(principal, [current])
    const kept: Record<string, unknown> = { ...patch }
    for (const { name } of fields) {
      const shown = seen![name] as unknown[]
      const sent = patch[name] as unknown[]
      const hidden = (current[name] as unknown[]).filter((id) => !shown.includes(id) && !sent.includes(id))
      if (!hidden.length) continue
      // Sent back as shown: the list as stored, in its order, so an unchanged list counts as unchanged.
      kept[name] = sent.length === shown.length && sent.every((id, i) => id === shown[i]) ? current[name] : [...sent, ...hidden]
    }
    return kept
  }

  /** Student ids the record names, in the fields that may hold them. */
  private collect(type: string, record: Readonly<Record<string, unknown>>, into: Set<string>): void {
    for (const field of this.fields.get(type) ?? []) {
      for (const value of valuesOf(record[field.name])) {
        if (field.kind === 'subdocument') {
          if (value && typeof value === 'object') this.collect(field.cls, value as Record<string, unknown>, into)
        } else if (typeof value === 'string' && this.isStudent(value)) into.add(value)
      }
    }
  }

  private without(type: string, record: Readonly<Record<string, unknown>>, sees: (id: string) => boolean): Readonly<Record<string, unknown>> {
    let copy: Record<string, unknown> | undefined
    for (const field of this.fields.get(type) ?? []) {
      const value = record[field.name]
      if (value === undefined || value === null) continue
      let next: unknown = value
      if (field.kind === 'reference') {
        if (!field.many) next = typeof value === 'string' && !sees(value) ? undefined : value
        else if (Array.isArray(value) && value.some((id) => typeof id === 'string' && !sees(id))) next = value.filter((id) => typeof id !== 'string' || sees(id))
      } else if (field.many && Array.isArray(value)) {
        const items = value.map((item) => (item && typeof item === 'object' ? this.without(field.cls, item as Record<string, unknown>, sees) : item))
        if (items.some((item, i) => item !== value[i])) next = items
      } else if (typeof value === 'object') {
        next = this.without(field.cls, value as Record<string, unknown>, sees)
      }
      if (next === value) continue
      copy ??= { ...record }
      if (next === undefined) delete copy[field.name]
      else copy[field.name] = next
    }
    return copy ?? record
  }
}

function valuesOf(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]
}
