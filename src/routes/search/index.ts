import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { allow, isPermission, type Permission } from '../../auth/permissions.js'
import { principalOf } from '../../auth/plugin.js'
import { ValidationFailed } from '../../errors.js'
import { isAdmin } from '../../privacy/relations.js'
import { searchKindRoots, type SearchKind, type SearchKindName } from '../../search/documents.js'
import { errorResponses } from '../responses.js'

const minQueryLength = 2
const maxQueryLength = 200
const maxSearchLimit = 50

const SearchResults = Type.Object({
  query: Type.String({ description: 'The query as searched, without surrounding spaces' }),
  total: Type.Integer({ description: 'Every match the caller may see, not only those returned' }),
  results: Type.Array(Type.Object({
    kind: Type.String({ enum: Object.keys(searchKindRoots) }),
    _id: Type.String(),
    label: Type.String({ description: 'Name, or code and title' }),
    detail: Type.String({ description: 'A short second line: a title, or what the record is about' }),
    score: Type.Number({ description: 'From 1 (every word found exactly in a name) down' }),
  })),
}, { title: 'SearchResults' })

function searchQuery(roles?: string[]) {
  return Type.Object({
    q: Type.String({ minLength: minQueryLength, maxLength: maxQueryLength, description: `Words to find, ${minQueryLength} to ${maxQueryLength} characters` }),
    limit: Type.Integer({ minimum: 1, maximum: maxSearchLimit, default: 10, description: `Results to return, 1 to ${maxSearchLimit}` }),
    ...(roles ? { role: Type.Optional(Type.String({ enum: roles, description: 'Only people of this type' })) } : {}),
  }, { additionalProperties: false })
}

const matching = 'Case- and accent-insensitive; every word must begin a word of the record, with one typo forgiven in words of five letters or more. Best matches first.'
const students = `${matching} Student records are found by admins only.`

/** Where each kind is searched: /api/search/<path>. */
const paths: Record<SearchKindName, string> = { person: 'people', course: 'courses', lab: 'labs' }

function permission(kind: SearchKind): Permission {
  if (!isPermission(kind.readPermission)) throw new Error(`unknown permission ${kind.readPermission} in the schema`)
  return kind.readPermission
}

/** Search (docs/decisions.md, "Search"): /api/search/all, /people (with role), /courses and /labs. */
export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { schema, searchService: search } = app
  const kinds = search.kinds
  if (!kinds.length) return
  const tags = ['Search']
  const response = { 200: SearchResults, ...errorResponses(400, 401, 403) }

  async function answer(request: FastifyRequest, { q, limit }: { q: string; limit: number }, asked: readonly SearchKind[], types?: ReadonlySet<string>) {
    const principal = principalOf(request)
    const text = q.trim()
    if (text.length < minQueryLength) throw new ValidationFailed(`Invalid query: 'q' must have at least ${minQueryLength} characters besides spaces`)
    // Kinds the caller cannot read are left out rather than refused, so /all works for any reader.
    const readable = new Set(asked.filter((k) => principal.permissions.has(permission(k))).map((k) => k.name))
    const found = await search.search({ q: text, limit, kinds: readable, ...(types ? { types } : {}), includeStudents: isAdmin(principal) })
    return { query: text, ...found }
  }

  app.get('/api/search/all', {
    config: { policy: allow.anyPermission(kinds.map(permission)) },
    schema: { tags, summary: `Search ${kinds.map((k) => paths[k.name]).join(', ')} together`, description: students, querystring: searchQuery(), response },
  }, (request) => answer(request, request.query, kinds))

  for (const kind of kinds) {
    const roles = kind.name === 'person'
      ? [...schema.model.classes.values()].filter((c) => c.ancestors.includes(kind.root.name) && !c.subdocument).map((c) => c.name)
      : undefined
    app.get(`/api/search/${paths[kind.name]}`, {
      config: { policy: allow.permission(permission(kind)) },
      schema: { tags, summary: `Search ${paths[kind.name]}`, description: roles ? students : matching, querystring: searchQuery(roles), response },
    }, (request) => {
      const { role } = request.query
      return answer(request, request.query, [kind], role ? new Set(schema.class(role)!.concrete) : undefined)
    })
  }
}
