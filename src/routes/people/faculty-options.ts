import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { noQuery } from '../shared.js'
import { errorResponses } from '../responses.js'

const FacultyOption = Type.Object({ _id: Type.String(), label: Type.String(), title: Type.Optional(Type.String()) }, { title: 'FacultyOption' })

const twoDays = 2 * 86400

/** Every faculty member as a compact choice for pickers (advisors, instructors, committee members). */
export const facultyOptionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const faculty = app.schema.class('Faculty')
  // A schema without faculty (a trimmed-down one, in tests of the compiler) simply has no dropdown.
  if (!faculty) return
  const collection = faculty.metadata.collection!
  app.get('/api/people/faculty-options', {
    config: { policy: allow.permission('read_people'), cache: { ttlSeconds: twoDays, dependsOn: [collection], group: collection } },
    schema: {
      tags: ['People'], summary: 'Faculty for dropdowns', description: 'Sorted by last name, then first name.',
      querystring: noQuery, response: { 200: Type.Object({ items: Type.Array(FacultyOption) }), ...errorResponses(400, 401, 403) },
    },
  }, async () => {
    const records = await app.records.find(faculty, { type: { $in: faculty.concrete } }, { sort: [['last_name', 1], ['first_name', 1], ['_id', 1]] })
    return {
      items: records.map((r) => ({
        _id: r._id,
        label: `${String(r.first_name)} ${String(r.last_name)}`,
        ...(typeof r.title === 'string' ? { title: r.title } : {}),
      })),
    }
  })
}
