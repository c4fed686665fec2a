import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { allow } from '../../auth/permissions.js'
import { principalOf } from '../../auth/plugin.js'
import { RecordNotFound, ReferenceNotFound, StudentAccessDenied } from '../../errors.js'
import { actorOf } from '../../http/actor.js'
import type { PlanWithWarnings } from '../../degrees/plans.js'
import type { ApiRecord } from '../../records/service.js'
import { idPattern } from '../../schema/typebox.js'
import { Deleted, idParams, ifMatch, noQuery, objectSchema, recordBody, versionFrom } from '../shared.js'
import { errorResponses } from '../responses.js'
import { HistoryPage, historyQuery } from '../records/history-schemas.js'
import { recordOrLast } from '../records/history.js'
import { openStudent, studentDenial } from '../privacy/access.js'

const Warning = Type.Object({
  kind: Type.String({ enum: ['prerequisite', 'duplicate', 'credit_load'] }),
  course: Type.Optional(Type.String({ description: 'The course warned about (prerequisite, duplicate)' })),
  term: Type.String(),
  credits: Type.Optional(Type.Number({ description: 'Credits planned in the term (credit_load)' })),
  message: Type.String(),
}, { title: 'PlanWarning' })

const described = 'Only the student, their advisors and admins (else 403). Plan answers carry `warnings`; see docs/degree-audit.md.'

/** Student plans (docs/degree-audit.md): the same access rule as the student endpoints, not audited. */
export const planRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { schema, plans } = app
  const record = objectSchema(schema.builder.classSchema(plans.cls.name, 'record'))
  const { properties, type: _type, ...options } = record
  // Typed as the plan service returns it (read-only warnings); serialized by this schema.
  const Plan = Type.Unsafe<PlanWithWarnings>(Type.Object({ ...properties, warnings: Type.Array(Warning, { description: 'What the plan gets wrong; empty when nothing' }) }, options))
  // One parameter name for both kinds of id: the router keeps a single parameter at each position of a
  // path, so /:studentId beside /:planId would be one route parameter with two names.
  const studentParams = Type.Object({ id: { ...idParams(schema.class('Student')!).properties.id, description: 'The student (GET: the student whose plans are listed)' } })
  const planParams = Type.Object({
    id: Type.String({ pattern: idPattern([plans.cls.name]), 'x-reference': plans.cls.name, description: 'The plan (PUT, DELETE): StudentPlan id, URL-encoded or as two path segments' }),
  })
  const tags = ['Student planning']

  /** The plan and its student, once the caller may see the student's records; a missing plan is a 404. */
  async function openPlan(request: FastifyRequest, id: string): Promise<{ plan: ApiRecord; student: ApiRecord }> {
    const plan = await plans.get(id)
    if (!plan) throw new RecordNotFound(`${id} not found`)
    return { plan, student: await openStudent(request, String(plan.student)) }
  }

  app.post('/api/student-plans', {
    config: { policy: allow.signedIn },
    schema: {
      tags, summary: 'Create a plan for a student', description: described, querystring: noQuery,
      body: recordBody(schema.builder.classSchema(plans.cls.name, 'create')),
      response: { 201: Plan, ...errorResponses(400, 401, 403, 409, 413) },
    },
  }, async (request, reply) => {
    const { body } = request
    const id = String(body.student)
    const { record: student, basis } = await app.protectedAccess.student(principalOf(request), id)
    if (basis === 'none') throw new StudentAccessDenied(studentDenial)
    if (!student) throw new ReferenceNotFound(`'student' refers to ${id}, which does not exist`)
    const created = await plans.create(student, body, { actor: actorOf(request) })
    reply.code(201).header('location', `/api/student-plans/${encodeURIComponent(created._id)}`).header('etag', `"${created._version}"`)
    return created
  })

  app.get('/api/student-plans/:id', {
    config: { policy: allow.signedIn },
    schema: {
      tags, summary: "A student's plans, oldest first", description: described, params: studentParams, querystring: noQuery,
      response: { 200: Type.Object({ items: Type.Array(Plan) }), ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => {
    const student = await openStudent(request, request.params.id)
    return { items: await plans.ofStudent(student) }
  })

  // A plan's past is a protected record's history (docs/history.md): every read of it is audited
  // (docs/privacy.md).
  app.get('/api/student-plans/:id/history', {
    config: { policy: allow.signedIn, audit: { resourceType: 'student-plan', action: 'view', idParam: 'id' } },
    schema: {
      tags, summary: 'A plan\'s history, newest first', description: described, params: planParams, querystring: historyQuery,
      response: { 200: HistoryPage, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => {
    const { id } = request.params
    const { limit, offset } = request.query
    const found = await recordOrLast(app, id)
    if (!found) throw new RecordNotFound(`${id} not found`)
    await openStudent(request, String(found.judged.student))
    return { ...await app.history.page(id, found.current, { limit, offset }), limit, offset }
  })

  app.put('/api/student-plans/:id', {
    config: { policy: allow.signedIn },
    schema: {
      tags, summary: 'Change a plan', params: planParams, headers: ifMatch, querystring: noQuery,
      description: `${described} Send the fields to change; planned_courses is replaced whole. A plan cannot move to another student. `
        + 'A plan whose major-plan approval is in review does not change (409 naming the review); changing an approved plan voids its approval, and the plan needs a new review.',
      body: recordBody(schema.builder.classSchema(plans.cls.name, 'update')),
      response: { 200: Plan, ...errorResponses(400, 401, 403, 404, 409, 413) },
    },
  }, async (request, reply) => {
    const { plan, student } = await openPlan(request, request.params.id)
    const expectVersion = versionFrom(request.headers['if-match'])
    const by = principalOf(request)
    const actor = actorOf(request)
    const updated = await plans.update(student, plan, request.body, expectVersion === undefined ? { by, actor } : { expectVersion, by, actor })
    reply.header('etag', `"${updated._version}"`)
    return updated
  })

  app.delete('/api/student-plans/:id', {
    config: { policy: allow.signedIn },
    schema: {
      tags, summary: 'Delete a plan', description: `${described} A plan that has been submitted for major-plan approval stays with its reviews (409).`,
      params: planParams, querystring: noQuery,
      response: { 200: Deleted, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => {
    const { plan } = await openPlan(request, request.params.id)
    await plans.remove(plan, { actor: actorOf(request) })
    return { id: plan._id, message: `${plan._id} deleted` }
  })
}
