import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type TSchema } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { transcript } from '../../domain/transcript.js'
import { RecordNotFound } from '../../errors.js'
import { idPattern } from '../../schema/typebox.js'
import { HistoryPage, historyQuery } from '../records/history-schemas.js'
import { recordOrLast } from '../records/history.js'
import { idParams } from '../shared.js'
import { errorResponses } from '../responses.js'
import { openStudent } from './access.js'

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()])

const TranscriptCourse = Type.Object({
  enrollment: Type.String({ description: 'The Enrollment record' }),
  course: Type.String(),
  course_code: Nullable(Type.String()),
  title: Nullable(Type.String()),
  section: Nullable(Type.String()),
  status: Type.String(),
  credits: Type.Number(),
  grade: Nullable(Type.String({ description: 'W for a withdrawal; null while in progress' })),
  grade_points: Nullable(Type.Number({ description: 'Points per credit on the 4.0 scale; null for P, NP, I, W' })),
  repeated: Type.Boolean({ description: 'Another attempt at this course counts instead of this one' }),
})

/** The student's identifying fields as stored, then the transcript as the domain computes it. */
type TranscriptAnswer = { readonly student: Readonly<Record<'_id' | 'type' | 'first_name' | 'last_name', unknown>> } & ReturnType<typeof transcript>

const Transcript = Type.Unsafe<TranscriptAnswer>(Type.Object({
  student: Type.Object({ _id: Type.String(), type: Type.String(), first_name: Type.String(), last_name: Type.String() }),
  terms: Type.Array(Type.Object({
    term: Type.String(),
    courses: Type.Array(TranscriptCourse),
    credits: Type.Number({ description: 'Credits attempted in the term' }),
    credits_earned: Type.Number(),
    gpa: Nullable(Type.Number({ description: 'Term GPA; null when nothing was letter-graded' })),
  })),
  cumulative: Type.Object({
    credits_attempted: Type.Number(),
    credits_earned: Type.Number(),
    gpa: Nullable(Type.Number()),
  }),
}, { title: 'Transcript' }))

const noQuery = Type.Object({}, { additionalProperties: false })
const described = 'Only the student, their advisors and admins (else 403); every call is audited.'

/** The protected student endpoints (docs/privacy.md). The access rule is the handler's; the audit is declared. */
export const studentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const params = idParams(app.schema.class('Student')!)
  const enrollment = app.schema.builder.classSchema('Enrollment', 'record')
  const tags = ['Student records']

  app.get('/api/students/:id/enrollments', {
    config: { policy: allow.signedIn, audit: { resourceType: 'enrollment', action: 'view', idParam: 'id' } },
    schema: {
      tags, summary: "A student's enrollments, in term order", description: described, params, querystring: noQuery,
      response: { 200: Type.Object({ items: Type.Array(enrollment), total: Type.Integer() }), ...errorResponses(400, 401, 403, 404, 503) },
    },
  }, async (request) => {
    const student = await openStudent(request, request.params.id)
    const items = await app.enrollments.ofStudent(student._id)
    return { items, total: items.length }
  })

  app.get('/api/students/:id/enrollments/:enrollmentId/history', {
    config: { policy: allow.signedIn, audit: { resourceType: 'enrollment', action: 'view', idParam: 'enrollmentId' } },
    schema: {
      tags, summary: "One of a student's enrollments: its history, newest first", description: described,
      params: Type.Object({ ...params.properties, enrollmentId: Type.String({ pattern: idPattern(['Enrollment']), 'x-reference': 'Enrollment', description: 'The enrollment, URL-encoded' }) }),
      querystring: historyQuery, response: { 200: HistoryPage, ...errorResponses(400, 401, 403, 404, 503) },
    },
  }, async (request) => {
    const { id, enrollmentId } = request.params
    const { limit, offset } = request.query
    const student = await openStudent(request, id)
    const found = await recordOrLast(app, enrollmentId)
    if (!found || found.judged.student !== student._id) throw new RecordNotFound(`${enrollmentId} is not an enrollment of ${student._id}`)
    return { ...await app.history.page(enrollmentId, found.current, { limit, offset }), limit, offset }
  })

  app.get('/api/students/:id/transcript', {
    config: { policy: allow.signedIn, audit: { resourceType: 'transcript', action: 'view', idParam: 'id' } },
    schema: {
      tags, summary: "A student's transcript: terms, credits and GPA", description: described, params, querystring: noQuery,
      response: { 200: Transcript, ...errorResponses(400, 401, 403, 404, 503) },
    },
  }, async (request) => {
    const student = await openStudent(request, request.params.id)
    const enrollments = await app.enrollments.ofStudent(student._id)
    const courses = await app.enrollments.coursesOf(enrollments)
    return {
      student: { _id: student._id, type: student.type, first_name: student.first_name, last_name: student.last_name },
      ...transcript(enrollments, courses),
    }
  })
}
