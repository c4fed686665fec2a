import fc from 'fast-check'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { isAppError } from '../../src/errors.js'
import { checkedBody, recordPart } from '../helpers/records.js'
import { testActor } from '../helpers/actor.js'

/** The parts of a served JSON Schema the factory reads. */
export interface JsonSchema {
  type?: string
  const?: unknown
  enum?: unknown[]
  pattern?: string
  format?: string
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  maxLength?: number
  items?: JsonSchema
  uniqueItems?: boolean
  properties?: Record<string, JsonSchema>
  required?: string[]
  oneOf?: JsonSchema[]
  anyOf?: JsonSchema[]
  title?: string
  description?: string
  'x-reference'?: string
  [keyword: string]: unknown
}

export type Body = Record<string, unknown>

/** The answer to a write, whether it went over HTTP or, for classes without a route, to the record service. */
export interface Outcome {
  readonly status: number
  readonly body: Record<string, unknown>
}

/** Which properties a body gets: only the required ones, or every property the class has. */
export type Fill = 'required' | 'full'

/**
 * Builds valid create bodies from the JSON Schemas the service serves, and creates records through the
 * API (or through the record service for stored classes that have no route). A reference is filled with
 * the id of a record created first, one per class; strings, numbers and formats are made to satisfy the
 * schema's constraints, and differ from body to body so unique fields do not collide.
 */
export class RecordFactory {
  private counter = 0
  private readonly schemas = new Map<string, JsonSchema>()
  private readonly existing = new Map<string, Promise<string>>()

  constructor(private readonly app: FastifyInstance, private readonly request: (options: InjectOptions) => Promise<LightMyRequestResponse>) {}

  async schema(name: string, variant: 'record' | 'create' | 'update'): Promise<JsonSchema> {
    const key = `${name}:${variant}`
    let schema = this.schemas.get(key)
    if (!schema) {
      const response = await this.request({ method: 'GET', url: `/api/schemas/${name}?variant=${variant}` })
      if (response.statusCode !== 200) throw new Error(`GET /api/schemas/${name}?variant=${variant}: ${response.statusCode} ${response.body}`)
      schema = response.json() as JsonSchema
      this.schemas.set(key, schema)
    }
    return schema
  }

  /** A valid create body for a stored class. */
  async body(className: string, fill: Fill): Promise<Body> {
    const body = await this.value(await this.schema(className, 'create'), fill, 'record') as Body
    return checkedBody(className, body, (name) => this.ensure(name))
  }

  /** The id of a record of the class (or, for an abstract class, of its first concrete class), created once. */
  ensure(className: string): Promise<string> {
    let id = this.existing.get(className)
    if (!id) {
      id = this.body(className, 'required').then(async (body) => {
        const outcome = await this.create(className, body)
        if (outcome.status !== 201) throw new Error(`creating a ${className} for a reference failed: ${outcome.status} ${JSON.stringify(outcome.body)}`)
        return idOf(outcome)
      })
      this.existing.set(className, id)
    }
    return id
  }

  async create(className: string, body: Body): Promise<Outcome> {
    const resource = this.app.schema.resourceOf(className)
    if (resource) return answer(await this.request({ method: 'POST', url: resource.path, payload: body }))
    return attempt(async () => this.app.records.create(className, body, { actor: testActor }), 201)
  }

  async read(className: string, id: string): Promise<Outcome> {
    const resource = this.app.schema.resourceOf(className)
    if (resource) {
      const read = answer(await this.request({ method: 'GET', url: `${resource.path}/${encodeURIComponent(id)}` }))
      return read.status === 200 ? { ...read, body: recordPart(className, read.body) } : read
    }
    return attempt(async () => {
      const found = await this.app.records.get(id)
      if (!found) throw new Error(`${id} not found`)
      return found
    }, 200)
  }

  async update(className: string, id: string, body: Body): Promise<Outcome> {
    const resource = this.app.schema.resourceOf(className)
    if (resource) return answer(await this.request({ method: 'PUT', url: `${resource.path}/${encodeURIComponent(id)}`, payload: body }))
    return attempt(async () => this.app.records.update(id, body, { actor: testActor }), 200)
  }

  private next(): number {
    return ++this.counter
  }

  private async value(schema: JsonSchema, fill: Fill, name: string): Promise<unknown> {
    if (schema.const !== undefined) return schema.const
    if (schema.enum) return schema.enum[this.next() % schema.enum.length]
    if (schema['x-reference']) return this.ensure(concreteOf(schema))
    switch (schema.type) {
      case 'object': {
        const body: Body = {}
        for (const [prop, sub] of Object.entries(schema.properties ?? {})) {
          if (fill === 'full' || schema.required?.includes(prop)) body[prop] = await this.value(sub, fill, prop)
        }
        return body
      }
      case 'array': return [await this.value(schema.items!, fill, name)]
      case 'string': return this.text(schema, name)
      case 'integer':
      case 'number': return number(schema)
      case 'boolean': return true
      default: throw new Error(`the factory cannot fill ${name}: ${JSON.stringify(schema)}`)
    }
  }

  private text(schema: JsonSchema, name: string): string {
    const n = this.next()
    switch (schema.format) {
      case 'email': return `person${n}@dept.example.edu`
      case 'uri': return `https://dept.example.edu/${name}/${n}`
      case 'date-time': return new Date(Date.UTC(2025, 0, 1) + n * 60_000).toISOString()
      case 'date': return `2025-01-${String(1 + (n % 28)).padStart(2, '0')}`
    }
    if (schema.pattern) {
      const [sample] = fc.sample(fc.stringMatching(new RegExp(schema.pattern, 'u')), { numRuns: 1, seed: n })
      return sample!
    }
    return `${name} ${n}`.slice(0, schema.maxLength ?? 1000)
  }
}

function number(schema: JsonSchema): number {
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1)
  const high = schema.maximum ?? low + 100
  const middle = (low + high) / 2
  return schema.type === 'integer' ? Math.ceil(middle) : middle
}

/** The concrete class a reference picker would offer first: the first alternative of the id pattern. */
export function concreteOf(schema: JsonSchema): string {
  const match = /^\^\(([A-Za-z0-9]+)/.exec(schema.pattern ?? '')
  if (!match) throw new Error(`reference without an id pattern: ${JSON.stringify(schema)}`)
  return match[1]!
}

export function idOf(outcome: Outcome): string {
  return String(outcome.body._id ?? outcome.body.id)
}

function answer(response: LightMyRequestResponse): Outcome {
  return { status: response.statusCode, body: response.json() as Record<string, unknown> }
}

/** Maps the record service's errors to the status the HTTP layer would answer with. */
async function attempt(action: () => Promise<unknown>, status: number): Promise<Outcome> {
  try {
    return { status, body: await action() as Record<string, unknown> }
  } catch (error) {
    if (!isAppError(error)) throw error
    return { status: error.statusCode, body: { success: false, error: error.message, statusCode: error.statusCode, code: error.code } }
  }
}
