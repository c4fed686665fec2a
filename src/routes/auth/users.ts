import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow, roles, type Role } from '../../auth/permissions.js'
import type { UserRecord } from '../../auth/users.js'
import { RecordNotFound } from '../../errors.js'
import { actorOf } from '../../http/actor.js'
import { idParams, noQuery, paging } from '../shared.js'
import { errorResponses } from '../responses.js'

const Nullable = (description: string) => Type.Union([Type.String(), Type.Null()], { description })
const RoleName = (description: string) => Type.Unsafe<Role>({ type: 'string', enum: [...roles], description })

const User = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: RoleName('admin, faculty, staff, student or user'),
  campusId: Nullable('The NetID, for a user who signed in through single sign-on'),
  firstName: Nullable('Given name'),
  lastName: Nullable('Family name'),
  displayName: Nullable('Name to display'),
  affiliation: Type.Array(Type.String(), { description: 'Affiliations the identity provider reported' }),
  department: Nullable('Organizational unit the identity provider reported'),
  samlAuthenticated: Type.Boolean({ description: 'Signed in through single sign-on at least once' }),
  createdAt: Type.String({ format: 'date-time' }),
  lastLoginAt: Nullable('Last single sign-on'),
  roleSetAt: Nullable('When the role last changed'),
}, { title: 'User' })

const UserList = Type.Object({
  ...paging,
  role: Type.Optional(RoleName('Only users of this role')),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Words each beginning the email, first, last or display name' })),
}, { additionalProperties: false })

function present(user: UserRecord) {
  return {
    id: user._id,
    email: user.email,
    role: user.role,
    campusId: user.campus_id ?? null,
    firstName: user.first_name ?? null,
    lastName: user.last_name ?? null,
    displayName: user.display_name ?? null,
    affiliation: user.affiliation ?? [],
    department: user.department ?? null,
    samlAuthenticated: user.saml_authenticated === true,
    createdAt: user._created_at,
    lastLoginAt: user.last_login_at ?? null,
    roleSetAt: user.role_set_at ?? null,
  }
}

/**
 * User administration (docs/auth.md, "User administration"), for admins: list, read, and change a user's role. Single sign-on
 * never makes an admin; these routes can, and a role change is audited like any protected write.
 */
export const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { users } = app
  const tags = ['Administration']
  const params = idParams(app.schema.class('User')!)

  app.get('/api/users', {
    config: { policy: allow.admin },
    schema: {
      tags, summary: 'List users, by email', querystring: UserList,
      response: {
        200: Type.Object({ items: Type.Array(User), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }),
        ...errorResponses(400, 401, 403),
      },
    },
  }, async (request) => {
    const { query } = request
    const page = await users.list(query)
    return { items: page.items.map(present), total: page.total, limit: query.limit, offset: query.offset }
  })

  app.get('/api/users/:id', {
    config: { policy: allow.admin },
    schema: { tags, summary: 'Get one user', params, querystring: noQuery, response: { 200: User, ...errorResponses(400, 401, 403, 404) } },
  }, async (request) => {
    const { id } = request.params
    const user = await users.byId(id)
    if (!user) throw new RecordNotFound(`${id} not found`)
    return present(user)
  })

  app.put('/api/users/:id', {
    config: { policy: allow.admin, audit: { resourceType: 'user', action: 'update', idParam: 'id' } },
    schema: {
      tags, summary: "Change a user's role", params, querystring: noQuery,
      description: 'Takes effect at the user\'s next request. An admin made here stays admin through later single sign-ons; single sign-on itself never grants admin. Audited.',
      body: Type.Object({ role: RoleName('The new role') }, { additionalProperties: false }),
      response: { 200: User, ...errorResponses(400, 401, 403, 404, 503) },
    },
  }, async (request) => present(await users.changeRole(request.params.id, request.body.role, actorOf(request))))
}
