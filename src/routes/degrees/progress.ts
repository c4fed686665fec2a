import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { allow } from '../../auth/permissions.js'
import type { ProgressQuery } from '../../degrees/progress.js'
import { idPattern } from '../../schema/typebox.js'
import { idParams } from '../shared.js'
import { errorResponses } from '../responses.js'
import { openStudent } from '../privacy/access.js'
import { DegreeProgress } from './progress-schema.js'

const query = Type.Object({
  degree: Type.Optional(Type.String({ pattern: idPattern(['Degree']), 'x-reference': 'Degree', description: 'Audit against this degree instead (what-if)' })),
  plan: Type.Optional(Type.String({ pattern: idPattern(['StudentPlan']), 'x-reference': 'StudentPlan', description: 'Also project this plan of the student as completed' })),
}, { additionalProperties: false })

const description = [
  'Only the student, their advisors and admins (else 403); every call is audited as degree-progress.',
  "The degree is the student's first declared major (undergraduates) or their program's degree (graduate students);",
  'a student with neither is a 404 unless degree= names one. See docs/degree-audit.md for reading the answer.',
].join(' ')

/** Degree progress (docs/degree-audit.md), at the protected student path (docs/privacy.md) and at the spec's /api/student-progress. */
export const progressRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const studentId = idParams(app.schema.class('Student')!).properties.id
  const tags = ['Student records']
  const response = { 200: DegreeProgress, ...errorResponses(400, 401, 403, 404, 503) }
  const progress = async (request: FastifyRequest, id: string, query: ProgressQuery) => app.progress.of(await openStudent(request, id), query)

  app.get('/api/students/:id/degree-progress', {
    config: { policy: allow.signedIn, audit: { resourceType: 'degree-progress', action: 'view', idParam: 'id' } },
    schema: { tags, summary: "A student's progress through their degree", description, params: Type.Object({ id: studentId }), querystring: query, response },
  }, (request) => progress(request, request.params.id, request.query))

  app.get('/api/student-progress/:studentId', {
    config: { policy: allow.signedIn, audit: { resourceType: 'degree-progress', action: 'view', idParam: 'studentId' } },
    schema: { tags, summary: "A student's progress through their degree (same as /api/students/:id/degree-progress)", description, params: Type.Object({ studentId }), querystring: query, response },
  }, (request) => progress(request, request.params.studentId, request.query))
}
