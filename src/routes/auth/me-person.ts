import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type TSchema } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { allow } from '../../auth/permissions.js'
import { principalOf } from '../../auth/plugin.js'
import { PersonNotLinked, ValidationFailed } from '../../errors.js'
import { actorOf } from '../../http/actor.js'
import { auditNote } from '../../http/audit.js'
import type { ApiRecord } from '../../records/service.js'
import { errorResponses } from '../responses.js'
import { ifMatch, noQuery, versionFrom } from '../shared.js'

const path = '/api/auth/me/person'
/** Fields a body may carry besides the ones it changes: the version it applies to, as the generic update takes it. */
const versionFields = new Set(['_version'])

/**
 * One's own Person record (docs/auth.md, "One's own record"): read and edited by whoever it is linked to,
 * undergraduates included, whose record `GET /api/people/:id` keeps for admins (docs/privacy.md). Every
 * request is audited as a `person` access, as the record is a student's for students.
 */
export const mePersonRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { schema, records, people } = app
  const person = schema.class('Person')
  const resource = schema.resources.find((r) => r.root.name === 'Person')
  if (!person || !resource) return
  const record = schema.builder.resourceSchema(resource.root, 'record')
  const update = schema.builder.resourceSchema(resource.root, 'update') as TSchema & { properties: Record<string, TSchema> }
  // The body documents every field some kind of person may edit on themselves; which apply is the caller's class's.
  const editable = [...new Set(person.concrete.flatMap((name) => schema.class(name)!.metadata.self_editable))]
  const body = Type.Object({
    ...Object.fromEntries(editable.filter((name) => update.properties[name]).map((name) => [name, update.properties[name]!])),
    _version: Type.Optional(Type.Integer({ minimum: 1, description: 'Version the update applies to (else If-Match); 409 when the record has moved on' })),
  }, {
    title: 'OwnPersonUpdate',
    additionalProperties: true,
    description: 'Only the fields your kind of record lets its owner edit (schema metadata `self_editable`); any other field is refused with a 400 naming it. null removes a field.',
  })

  /** The caller's Person, read afresh; a user linked to none gets a 404 saying so. */
  async function own(request: FastifyRequest): Promise<ApiRecord> {
    const linked = await people.personOf(principalOf(request))
    const found = linked ? await records.get(linked._id) : null
    if (!found) throw new PersonNotLinked('No Person record is linked to your account (none has your campus id or email)')
    auditNote(request).resourceId = found._id
    auditNote(request).basis = 'self'
    return found
  }

  function withVersion(reply: FastifyReply, found: ApiRecord): ApiRecord {
    reply.header('etag', `"${found._version}"`)
    return found
  }

  app.get(path, {
    // Keys never act as a person on their own record (docs/auth.md): the route is for a signed-in user.
    config: { policy: allow.signedIn, audit: { resourceType: 'person', action: 'view' } },
    schema: {
      tags: ['Auth'], operationId: 'getOwnPerson', summary: 'Your own Person record',
      description: 'The Person record linked to the signed-in user (by campus id, else email), whatever its kind: undergraduates read theirs here although GET /api/people/:id shows it to admins only. Audited. 404 ADKS_PERSON_NOT_LINKED when no record is linked.',
      querystring: noQuery,
      response: { 200: record, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request, reply) => withVersion(reply, await own(request)))

  app.put(path, {
    config: { policy: allow.signedIn, audit: { resourceType: 'person', action: 'update' } },
    schema: {
      tags: ['Auth'], operationId: 'updateOwnPerson', summary: 'Edit your own Person record',
      description: "Changes only the fields your kind of record lets its owner edit (a 400 names any other). With If-Match or _version the update applies only to that version (else 409 ADKS_VERSION_CONFLICT). Written as you, so the record's history names you. Audited.",
      querystring: noQuery, headers: ifMatch, body,
      response: { 200: record, ...errorResponses(400, 401, 403, 404, 409, 413) },
    },
  }, async (request, reply) => {
    const current = await own(request)
    const allowed = new Set(schema.class(current.type)!.metadata.self_editable)
    for (const field of Object.keys(request.body)) {
      if (!allowed.has(field) && !versionFields.has(field)) {
        throw new ValidationFailed(`'${field}' is not a field you may edit on your own record (you may edit: ${[...allowed].join(', ')})`)
      }
    }
    const expectVersion = versionFrom(request.headers['if-match'])
    const updated = await records.update(current._id, request.body, { actor: actorOf(request), ...(expectVersion === undefined ? {} : { expectVersion }) })
    return withVersion(reply, updated)
  })
}
