import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import type { ApiRecord } from '../../src/records/service.js'
import type { ClassDef, PropertyDef, Resource } from '../../src/schema/index.js'
import { keyFields } from '../../src/schema/keys.js'
import { testActor } from './actor.js'

export type Inject = (options: InjectOptions) => Promise<LightMyRequestResponse>
export type Body = Record<string, unknown>

/**
 * Values for properties whose pattern a generic value would not meet. A property with a pattern and no
 * entry here makes `Fixtures` throw, so a new constrained property cannot slip past the suite unfilled.
 */
const samples: Record<string, (n: number) => string> = {
  course_code: (n) => `ZZ ${100 + n}`,
  term: (n) => `${20 + (n % 10)}F`,
  section_number: (n) => `S${n}`,
  campus_id: (n) => `netid${n}`,
  researcher_registry_id: (n) => `0000-0002-1825-${String(n % 10000).padStart(4, '0')}`,
  doi: (n) => `10.5555/fixture.${n}`,
  min_grade: (n) => ['C', 'B', 'A-'][n % 3]!,
  subject: (n) => ['CS', 'MATH', 'EE'][n % 3]!,
}

function numberIn(prop: PropertyDef, n: number, decimal: boolean): number {
  const c = prop.constraints
  const low = c.minimum ?? (c.exclusiveMinimum !== undefined ? c.exclusiveMinimum + 1 : 1)
  const high = c.maximum ?? low + 1000
  const value = low + (n % Math.max(1, Math.floor(high - low)))
  return decimal && value + 0.5 <= high ? value + 0.5 : value
}

/**
 * Fields a class's detail answer adds to the record from other collections (the generic routes'
 * DetailExtension): they are not part of the record, so its schemas do not list them.
 */
export const detailOnlyFields: Readonly<Record<string, readonly string[]>> = { Degree: ['requirement_groups'] }

/** The record in a detail answer, without the fields the detail adds. */
export function recordPart<T extends Record<string, unknown>>(className: string, answer: T): T {
  const record = { ...answer }
  for (const field of detailOnlyFields[className] ?? []) delete record[field]
  return record
}

/**
 * Records of some classes must also pass checks beyond their schema (RecordService.addCheck): a
 * requirement rule must be satisfiable against the catalog, and a group must hold a rule. Their bodies
 * list one existing course, with a count and credits any rule type accepts, and leave out the pattern an
 * all_of rule refuses. `reference` gives the id of an existing record of a class.
 */
export async function checkedBody(className: string, body: Body, reference: (className: string) => Promise<string>): Promise<Body> {
  if (className === 'RequirementRule') {
    const { course_pattern: _pattern, ...rest } = body
    return { ...rest, rule_type: 'all_of', courses: [await reference('Course')], count: 1, min_credits: 1 }
  }
  if (className === 'RequirementGroup') return { ...body, rules: [await reference('RequirementRule')] }
  return body
}

/** `/api/people/Faculty%2Fx` or `/api/people/Faculty/x`: the two ways a path may carry an id. */
export function recordUrl(resource: Resource, id: string, form: 'encoded' | 'segments' = 'encoded', suffix = ''): string {
  return `${resource.path}/${form === 'encoded' ? encodeURIComponent(id) : id}${suffix}`
}

/** The documents of every collection, to show that a refused request changed nothing. */
export async function snapshot(app: FastifyInstance): Promise<Record<string, unknown[]>> {
  const all: Record<string, unknown[]> = {}
  for (const { name } of app.schema.collections) all[name] = await app.store.collection(name).find({}, { sort: [['_id', 1]] })
  return all
}

/**
 * Builds valid records of any class from the class schema, through the API as an admin: bodies with
 * every required property (and, when asked, every optional one), referenced records created on demand.
 */
export class Fixtures {
  private counter = 0
  private readonly shared = new Map<string, string>()

  constructor(readonly app: FastifyInstance, readonly admin: Inject) {}

  next(): number {
    return ++this.counter
  }

  cls(name: string): ClassDef {
    const cls = this.app.schema.class(name)
    if (!cls) throw new Error(`no class ${name}`)
    return cls
  }

  resourceOf(className: string): Resource {
    const resource = this.app.schema.resourceOf(className)
    if (!resource) throw new Error(`${className} is not served by a generic resource`)
    return resource
  }

  /** One value of a property (an item, for Sets and Lists); `n` varies it. */
  async value(cls: ClassDef, prop: PropertyDef, n: number, slot = 0): Promise<unknown> {
    const { target } = prop
    switch (target.kind) {
      case 'enum': {
        const values = this.app.schema.model.enums.get(target.name)!.values
        return values[n % values.length]
      }
      case 'reference': return this.shareable(this.cls(target.name).concrete[0]!, slot)
      case 'subdocument': return this.body(target.name, { n })
      case 'scalar': break
    }
    const c = prop.constraints
    switch (target.scalar) {
      case 'xsd:integer': return numberIn(prop, n, false)
      case 'xsd:decimal': return numberIn(prop, n, true)
      case 'xsd:boolean': return n % 2 === 0
      case 'xsd:dateTime': return new Date(Date.UTC(2020, 0, 1 + n)).toISOString()
      case 'xsd:date': return new Date(Date.UTC(2020, 0, 1 + n)).toISOString().slice(0, 10)
      case 'xsd:string':
        if (c.format === 'email') return `${prop.name}${n}@dept.edu`
        if (c.format === 'uri') return `https://dept.edu/${prop.name}/${n}`
        if (c.pattern) {
          const sample = samples[prop.name]
          if (!sample) throw new Error(`add a sample value for ${cls.name}.${prop.name} (pattern ${c.pattern}) to test/helpers/records.ts`)
          return sample(n)
        }
        return `${cls.name} ${prop.name.replace(/_/g, ' ')} ${n}`
    }
  }

  /** A create body for a class; `full` fills optional properties and gives Sets and Lists one item. */
  async body(className: string, options: { full?: boolean; n?: number; slot?: number } = {}): Promise<Body> {
    const cls = this.cls(className)
    const n = options.n ?? this.next()
    const body: Body = {}
    if (!cls.subdocument && this.app.schema.resourceOf(cls.name)?.polymorphic) body.type = cls.name
    for (const prop of cls.properties) {
      if (prop.kind !== 'required' && !options.full) continue
      const value = await this.value(cls, prop, n, options.slot)
      body[prop.name] = prop.kind === 'required' || prop.kind === 'optional' ? value : [value]
    }
    return checkedBody(className, body, (name) => this.shareable(name, options.slot))
  }


  /** An update body changing every property that is not part of the id. */
  async changes(className: string): Promise<Body> {
    const cls = this.cls(className)
    const { type: _type, ...body } = await this.body(className, { full: true, slot: 1 })
    for (const field of keyFields(cls)) delete body[field]
    return body
  }

  /** Creates a record through the API and returns it as read back. */
  async create(className: string, body?: Body): Promise<ApiRecord> {
    const resource = this.resourceOf(className)
    const payload = body ?? await this.body(className)
    const created = await this.admin({ method: 'POST', url: resource.path, payload })
    if (created.statusCode !== 201) throw new Error(`creating ${className} failed: ${created.statusCode} ${created.body}`)
    const id = resource.polymorphic ? created.json().id as string : created.json()._id as string
    return await this.read(resource, id)
  }

  async read(resource: Resource, id: string): Promise<ApiRecord> {
    const read = await this.admin({ method: 'GET', url: recordUrl(resource, id) })
    if (read.statusCode !== 200) throw new Error(`reading ${id} failed: ${read.statusCode} ${read.body}`)
    return recordPart(read.json().type, read.json()) as ApiRecord
  }

  /** The id of a record of the class made once per slot and reused as a reference target. */
  async shareable(className: string, slot = 0): Promise<string> {
    const key = `${className}:${slot}`
    let id = this.shared.get(key)
    if (!id) {
      // Classes no generic route serves (User) are made through the record service, as sign-in does.
      id = this.app.schema.resourceOf(className)
        ? (await this.create(className))._id
        : (await this.app.records.create(className, await this.body(className), { actor: testActor }))._id
      this.shared.set(key, id)
    }
    return id
  }
}
