import { KindGuard, Type, type TObject, type TSchema, type TUnsafe } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { idPattern } from '../schema/typebox.js'

// Parameter, body and answer schemas every route folder shares.

export const maxLimit = 200
export const defaultLimit = 50

export function idParams(root: { name: string; concrete: readonly string[] }) {
  return Type.Object({
    id: Type.String({
      pattern: idPattern(root.concrete), 'x-reference': root.name,
      description: `${root.name} id, \`<Type>/<identifier>\`: URL-encoded (Faculty%2Fjsmith) or as two path segments`,
    }),
  })
}

export const paging = {
  limit: Type.Integer({ minimum: 1, maximum: maxLimit, default: defaultLimit, description: `Page size, 1 to ${maxLimit}` }),
  offset: Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0, description: 'Records to skip' }),
}

/**
 * A body schema built at run time from the class schema, typed as the record it admits. The builder
 * makes every create and update schema an object (`type: 'object'`, a oneOf of objects for several
 * classes), which is checked here once at start-up, so the static type cannot be wrong at run time.
 */
export function recordBody(schema: TSchema): TUnsafe<Record<string, unknown>> {
  if (schema.type !== 'object') throw new Error(`the body schema ${String(schema.title)} is not an object schema`)
  return Type.Unsafe<Record<string, unknown>>(schema)
}

/** A schema the builder makes with Type.Object (one class's record or update), as such; checked at start-up. */
export function objectSchema(schema: TSchema): TObject {
  if (!KindGuard.IsObject(schema)) throw new Error(`the schema ${String(schema.title)} is not a TypeBox object`)
  return schema
}

/** Routes that take no query parameters still refuse unknown ones, so nothing sent is silently ignored. */
export const noQuery = Type.Object({}, { additionalProperties: false })

/** A page of records as the store hands them out: frozen, so its list is read-only. */
export interface Page {
  readonly items: readonly unknown[]
  readonly total: number
  readonly limit: number
  readonly offset: number
}

export function pageOf(item: TSchema): TUnsafe<Page> {
  return Type.Unsafe<Page>(Type.Object({
    items: Type.Array(item),
    total: Type.Integer({ description: 'Records matching, over all pages' }),
    limit: Type.Integer(),
    offset: Type.Integer(),
  }))
}

export const Created = Type.Object({ id: Type.String(), message: Type.String() })
export const Deleted = Type.Object({ id: Type.String(), message: Type.String() })

export const ifMatch = Type.Object({
  'if-match': Type.Optional(Type.String({ pattern: '^(W/)?"?[0-9]{1,9}"?$', description: 'Version the update applies to, as returned in ETag' })),
})

export function versionFrom(header: string | undefined): number | undefined {
  return header === undefined ? undefined : Number(header.replace(/^W\//, '').replace(/"/g, ''))
}

export const JobAccepted = Type.Object({
  jobId: Type.String({ description: 'Follow it at /api/admin/jobs/{jobId}' }),
}, { title: 'JobAccepted' })

/** Empty: a POST that takes no fields, which may come with no body at all. */
export const NoFields = Type.Object({}, { additionalProperties: false })

/** A POST whose body is all optional may come with none (curl -X POST), which stands for `{}`; what is sent is still validated. */
export function emptyBody(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  request.body ??= {}
  done()
}
