import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { principalOf } from '../../auth/plugin.js'
import { PermissionDenied } from '../../errors.js'
import { isAdmin } from '../../privacy/relations.js'
import { idPattern } from '../../schema/typebox.js'
import { paging } from '../shared.js'
import { errorResponses } from '../responses.js'

const Advisee = Type.Object({
  _id: Type.String(),
  type: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  email: Type.Optional(Type.String()),
}, { title: 'Advisee' })

/**
 * An advisor's advisees (docs/web.md, `/advisees`): the students whose `advisors` name the caller's
 * Person. Lists leave students out for everyone but admins (docs/privacy.md), so this is how an advisor finds
 * theirs. It answers directory fields only: each advisee's records stay behind the audited student
 * routes, which decide again who may read them.
 */
export const adviseeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const student = app.schema.class('Student')
  const faculty = app.schema.class('Faculty')
  if (!student || !faculty) return
  const query = Type.Object({
    ...paging,
    advisor: Type.Optional(Type.String({ pattern: idPattern(faculty.concrete), 'x-reference': 'Faculty', description: "Admins only: another advisor's advisees" })),
  }, { additionalProperties: false })

  app.get('/api/advisees', {
    config: { policy: allow.signedIn },
    schema: {
      tags: ['Student records'], summary: "The caller's advisees, by last name",
      description: "Students whose advisors include the caller's Person (or, for an admin, the advisor named). A caller linked to no Person has none.",
      querystring: query,
      response: { 200: Type.Object({ items: Type.Array(Advisee), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }), ...errorResponses(400, 401, 403) },
    },
  }, async (request) => {
    const principal = principalOf(request)
    const { advisor, limit, offset } = request.query
    if (advisor !== undefined && !isAdmin(principal)) throw new PermissionDenied("Permission denied: only admins see another advisor's advisees")
    const advisorId = advisor ?? (await app.people.personOf(principal))?._id
    if (!advisorId) return { items: [], total: 0, limit, offset }
    const page = await app.records.viewPage(student, { type: { $in: student.concrete }, advisors: advisorId }, {
      sort: [['last_name', 1], ['first_name', 1], ['_id', 1]], skip: offset, limit,
    })
    const items = page.items.map((r) => ({
      _id: r._id, type: r.type, first_name: String(r.first_name), last_name: String(r.last_name),
      ...(typeof r.email === 'string' ? { email: r.email } : {}),
    }))
    return { items, total: page.total, limit, offset }
  })
}
