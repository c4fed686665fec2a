import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { principalOf } from '../../auth/plugin.js'
import { ImportNotFound, PermissionDenied, RecordNotFound } from '../../errors.js'
import { enqueueCitationRefresh, enqueuePublicationImport } from '../../publications/jobs.js'
import { lastPersonImport } from '../../publications/person-results.js'
import { emptyBody, JobAccepted, noQuery, NoFields } from '../shared.js'
import { errorResponses } from '../responses.js'

const accepted = { 202: JobAccepted }

const count = Type.Integer({ minimum: 0 })
const Note = Type.Object({ work: Type.Optional(Type.String({ description: 'The OpenAlex work id' })), message: Type.String() })
const PersonImport = Type.Object({
  person_id: Type.String(),
  status: Type.String({ description: 'completed, stopped (the day\'s OpenAlex budget ran out) or failed' }),
  finished_at: Type.String({ format: 'date-time' }),
  created: count, updated: count, unchanged: count, rejected: count,
  warnings: Type.Array(Note, { description: 'Works imported without a field they brought, and why' }),
  errors: Type.Array(Note, { description: 'Works not imported, and why' }),
}, { title: 'PublicationImportResult' })

/** Imports from OpenAlex and citation refreshes (docs/operations.md): queued, answered with the job's id. */
export const publicationImportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { jobs, records, people, schema } = app
  const isPersonId = (id: string) => {
    const cls = schema.classOfId(id)
    return cls !== undefined && (cls.name === 'Person' || cls.ancestors.includes('Person'))
  }
  // Named only when it is a person's id: an id of a protected record (an enrollment) is never echoed back.
  const noPerson = (id: string) => new RecordNotFound(isPersonId(id) ? `No person ${id}` : 'No person has this id')

  app.post('/api/publications/import/:personId', {
    config: { policy: allow.signedIn },
    preValidation: emptyBody,
    schema: {
      tags: ['Publications'], summary: "Import a person's works from OpenAlex",
      description: "By the person's OpenAlex author id (bibliography_source_id), else their ORCID (researcher_registry_id). Open to the person themselves and to holders of manage_jobs.",
      params: Type.Object({ personId: Type.String({ minLength: 1, maxLength: 300, description: 'The Person id' }) }),
      querystring: noQuery, body: NoFields, response: { ...accepted, ...errorResponses(400, 401, 403, 404, 503) },
    },
  }, async (request, reply) => {
    const { personId } = request.params
    const principal = principalOf(request)
    if (!principal.permissions.has('manage_jobs') && (await people.personOf(principal))?._id !== personId) {
      throw new PermissionDenied('Only the person themselves or a holder of manage_jobs imports their publications')
    }
    const person = isPersonId(personId) ? await records.get(personId) : null
    if (!person) throw noPerson(personId)
    const job = await enqueuePublicationImport(jobs, person._id)
    return reply.code(202).send({ jobId: job.id })
  })

  app.get('/api/publications/import/:personId', {
    config: { policy: allow.signedIn },
    schema: {
      tags: ['Publications'], summary: "What the latest import of a person's works did",
      description: 'Counts, and the works imported without a field they brought (warnings) or not imported (errors). Open to the person themselves and to holders of manage_jobs.',
      params: Type.Object({ personId: Type.String({ minLength: 1, maxLength: 300, description: 'The Person id' }) }),
      querystring: noQuery, response: { 200: PersonImport, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => {
    const { personId } = request.params
    const principal = principalOf(request)
    if (!principal.permissions.has('manage_jobs') && (await people.personOf(principal))?._id !== personId) {
      throw new PermissionDenied("Only the person themselves or a holder of manage_jobs reads their import's result")
    }
    const found = isPersonId(personId) ? await lastPersonImport(app, personId) : null
    if (!found) throw isPersonId(personId) ? new ImportNotFound(`No import of ${personId}'s works yet`) : noPerson(personId)
    return found
  })

  const policy = allow.permission('manage_jobs')
  app.post('/api/admin/publications/import', {
    config: { policy },
    preValidation: emptyBody,
    schema: {
      tags: ['Administration'], summary: "Import every faculty member's works from OpenAlex",
      querystring: noQuery, body: NoFields, response: { ...accepted, ...errorResponses(400, 401, 403, 503) },
    },
  }, async (_request, reply) => reply.code(202).send({ jobId: (await enqueuePublicationImport(jobs)).id }))

  app.post('/api/admin/citations/update', {
    config: { policy },
    preValidation: emptyBody,
    schema: {
      tags: ['Administration'], summary: 'Refresh the citation counts of every publication imported from OpenAlex',
      querystring: noQuery, body: NoFields, response: { ...accepted, ...errorResponses(400, 401, 403, 503) },
    },
  }, async (_request, reply) => reply.code(202).send({ jobId: (await enqueueCitationRefresh(jobs)).id }))
}
