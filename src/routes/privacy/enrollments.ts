import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { principalOf } from '../../auth/plugin.js'
import { PermissionDenied, RecordNotFound } from '../../errors.js'
import { actorOf } from '../../http/actor.js'
import { auditNote } from '../../http/audit.js'
import { Deleted, idParams, ifMatch, recordBody, versionFrom } from '../shared.js'
import { errorResponses } from '../responses.js'

const noQuery = Type.Object({}, { additionalProperties: false })

/**
 * Admin writes of enrollments and section rosters (docs/privacy.md). Writes go through the enrollment
 * service (and so the record service's validation and reference checks) and are audited with their
 * action; a roster read is audited as a view of enrollments.
 */
export const enrollmentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { schema, enrollments } = app
  const cls = schema.class('Enrollment')!
  const record = schema.builder.classSchema(cls.name, 'record')
  const params = idParams(cls)
  const tags = ['Student records']

  app.post('/api/enrollments', {
    config: { policy: allow.admin, audit: { resourceType: 'enrollment', action: 'create' } },
    schema: {
      tags, summary: 'Record an enrollment', querystring: noQuery,
      description: 'grade_points are filled in from the grade; a section must be of the same course and term.',
      body: recordBody(schema.builder.classSchema(cls.name, 'create')),
      response: { 201: record, ...errorResponses(400, 401, 403, 409, 413, 503) },
    },
  }, async (request, reply) => {
    const created = await enrollments.create(request.body, { actor: actorOf(request) })
    auditNote(request).resourceId = created._id
    reply.code(201).header('location', `/api/enrollments/${encodeURIComponent(created._id)}`).header('etag', `"${created._version}"`)
    return created
  })

  app.put('/api/enrollments/:id', {
    config: { policy: allow.admin, audit: { resourceType: 'enrollment', action: 'update', idParam: 'id' } },
    schema: {
      tags, summary: 'Change an enrollment (status, grade, section, ...)', params, headers: ifMatch, querystring: noQuery,
      description: 'Send the fields to change; null removes an optional field. With If-Match or _version the update applies only to that version (else 409).',
      body: recordBody(schema.builder.classSchema(cls.name, 'update')),
      response: { 200: record, ...errorResponses(400, 401, 403, 404, 409, 413, 503) },
    },
  }, async (request, reply) => {
    const expectVersion = versionFrom(request.headers['if-match'])
    const actor = actorOf(request)
    const updated = await enrollments.update(request.params.id, request.body, expectVersion === undefined ? { actor } : { expectVersion, actor })
    reply.header('etag', `"${updated._version}"`)
    return updated
  })

  app.delete('/api/enrollments/:id', {
    config: { policy: allow.admin, audit: { resourceType: 'enrollment', action: 'delete', idParam: 'id' } },
    schema: { tags, summary: 'Delete an enrollment', params, querystring: noQuery, response: { 200: Deleted, ...errorResponses(400, 401, 403, 404, 503) } },
  }, async (request) => {
    const { id } = request.params
    await enrollments.remove(id, { actor: actorOf(request) })
    return { id, message: `${id} deleted` }
  })

  app.get('/api/sections/:id/enrollments', {
    config: { policy: allow.signedIn, audit: { resourceType: 'enrollment', action: 'view', idParam: 'id' } },
    schema: {
      tags, summary: "A section's roster: its enrollments", params: idParams(schema.class('Section')!), querystring: noQuery,
      description: "Only the section's instructors and admins (else 403); every call is audited.",
      response: { 200: Type.Object({ items: Type.Array(record), total: Type.Integer() }), ...errorResponses(400, 401, 403, 404, 503) },
    },
  }, async (request) => {
    const { id } = request.params
    const { record: section, basis } = await app.protectedAccess.section(principalOf(request), id)
    auditNote(request).basis = basis
    if (!section) throw new RecordNotFound(`${id} not found`)
    if (basis === 'none') throw new PermissionDenied("Permission denied: only the section's instructors and admins may see its roster")
    const items = await enrollments.ofSection(section._id)
    return { items, total: items.length }
  })
}
