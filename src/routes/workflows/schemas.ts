import { Type, type Static, type TObject, type TSchema, type TUnion } from '@sinclair/typebox'
import { maxCommentLength } from '../../domain/workflows/index.js'
import type { CompiledSchema } from '../../schema/index.js'
import { idKeyPattern, idPattern } from '../../schema/typebox.js'
import { objectSchema } from '../shared.js'

/** A path id of one class, URL-encoded or as two segments. */
export function entityParams(className: string) {
  return Type.Object({
    id: Type.String({
      pattern: idPattern([className]), 'x-reference': className,
      description: `${className} id, \`${className}/<identifier>\`: URL-encoded (${className}%2Fabc) or as two path segments`,
    }),
  })
}

/**
 * Someone who may act in a workflow: a Person id (advisors, committee members, people linked to their
 * user) or a User id (an admin or group member with no linked Person), as docs/workflows.md explains.
 */
export const actorId = (description: string) => Type.String({ pattern: `^[A-Z][A-Za-z0-9]{0,40}/${idKeyPattern}$`, maxLength: 200, description })

export const Comment = Type.String({ maxLength: maxCommentLength, description: `At most ${maxCommentLength} characters` })
const StageKey = Type.String({
  pattern: '^[a-z][a-z0-9_]{0,39}$',
  description: 'The stage decided on, as the caller last saw the instance; a repeated request naming it cannot land on the next stage. The active stage when absent',
})
const Override = Type.Boolean({ description: 'An admin deciding for the active stage without having been asked; needs the reason in `comment`. Recorded as an override' })

const Revision = Type.String({ ...Comment, minLength: 1, description: `What to revise; at most ${maxCommentLength} characters` })
/** What an approve or reject says beside the decision; a revision request says the same but must say what to revise. */
const decisionFields = { comment: Type.Optional(Comment), stage: Type.Optional(StageKey), override: Type.Optional(Override) }
const revisionFields = { ...decisionFields, comment: Revision }
const closed = { additionalProperties: false } as const

/** The body of a thesis approve or reject. */
export const DecisionBody = Type.Object(decisionFields, closed)

/** A revision request says what to revise. */
export const RevisionBody = Type.Object(revisionFields, closed)

/**
 * A delegate: a Person who is not a student, or a User (an admin or staff member with no Person). Who
 * else is refused (the submitter, oneself, someone already approving) depends on the instance, so the
 * service decides that.
 */
function delegateId(schema: CompiledSchema, description: string) {
  const students = new Set(schema.class('Student')!.concrete)
  const classes = [...schema.class('Person')!.concrete.filter((name) => !students.has(name)), 'User']
  return Type.String({ pattern: idPattern(classes), maxLength: 200, description: `${description}: the id of a ${classes.join(', ')}; never a student` })
}

export const delegateBody = (schema: CompiledSchema) => Type.Object({
  to: delegateId(schema, 'Who decides instead, never the submitter, oneself or someone already approving in the stage'),
  comment: Type.Optional(Comment),
  stage: Type.Optional(StageKey),
}, closed)

/**
 * The one decision route of every domain but the thesis: one body per decision, picked by `decision`
 * (a discriminated oneOf, so validation checks only the branch named and the OpenAPI documents each).
 * A revision request needs a comment; delegate_to goes with delegate, which takes no override.
 */
export const combinedDecisionBody = (schema: CompiledSchema) => {
  const decision = <D extends string>(name: D) => Type.Literal(name, { description: 'What the approver decides' })
  const branches = [
    Type.Object({ decision: decision('approve'), ...decisionFields }, closed),
    Type.Object({ decision: decision('reject'), ...decisionFields }, closed),
    Type.Object({ decision: decision('request_revision'), ...revisionFields }, closed),
    Type.Object({
      decision: decision('delegate'),
      delegate_to: delegateId(schema, 'Who decides instead'),
      comment: Type.Optional(Comment),
      stage: Type.Optional(StageKey),
    }, closed),
  ] as const
  // A TypeBox Union is an anyOf, which the validator's discriminator does not take: the same union as a oneOf.
  return Type.Unsafe<Static<TUnion<[...typeof branches]>>>({ type: 'object', oneOf: branches, discriminator: { propertyName: 'decision' } })
}

export const WithdrawBody = Type.Object({ comment: Type.Optional(Comment) }, { additionalProperties: false })

/** The body of a POST that takes nothing: optional, and empty if sent. */
export const NoBody = Type.Object({}, { additionalProperties: false })

export const entityStatusQuery = (schema: CompiledSchema) => Type.Optional({ ...schema.builder.enumSchema('EntityStatus'), description: 'Only entities in this status' } as TSchema)

/** Fields the service keeps, never taken from a body: where the entity stands. */
const managed = new Set(['status', 'milestone_status'])

function without(schema: TObject, names: ReadonlySet<string>): TObject {
  const { properties, required = [], type: _type, ...options } = schema
  const kept = Object.fromEntries(Object.entries(properties).filter(([name]) => !names.has(name)))
  return withRequired(Type.Object(kept, options), required.filter((name) => !names.has(name)))
}

function withRequired(schema: TObject, required: readonly string[]): TObject {
  const { required: _required, ...rest } = schema
  return (required.length ? { ...rest, required: [...required] } : rest) as TObject
}

/**
 * The create and update bodies and the record of an entity class, from the class schema, without the
 * managed fields in bodies. `owner`: the field naming whom the entity belongs to, optional on create
 * (it defaults to the caller's Person). `only`: the fields a create takes when the service derives the
 * rest (a major plan approval takes its plan, whose student and degree the service reads).
 */
export function entitySchemas(schema: CompiledSchema, className: string, owner: string, only?: readonly string[]) {
  const full = without(objectSchema(schema.builder.classSchema(className, 'create')), managed)
  const skipped = only ? new Set(Object.keys(full.properties).filter((name) => !only.includes(name))) : new Set<string>()
  const create = skipped.size ? without(full, skipped) : full
  return {
    record: objectSchema(schema.builder.classSchema(className, 'record')),
    create: withRequired(create, (create.required ?? []).filter((name) => name !== owner || only?.includes(name))),
    update: without(objectSchema(schema.builder.classSchema(className, 'update')), managed),
  }
}
