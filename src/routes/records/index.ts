import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type TObject } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { keyRoutes } from '../../auth/api-keys/service.js'
import { allow, isPermission, permissions, type Permission, type Policy } from '../../auth/permissions.js'
import { principalOf } from '../../auth/plugin.js'
import { actorOf } from '../../http/actor.js'
import type { Principal } from '../../auth/principal.js'
import { RecordAccess } from '../../privacy/record-access.js'
import { isAdmin } from '../../privacy/relations.js'
import { RecordNotFound } from '../../errors.js'
import type { DetailExtension, RecordWriter, WriteGuard } from '../../records/extensions.js'
import { collectionsRead, listFilter, listSort } from '../../records/list-query.js'
import type { ApiRecord, RecordView } from '../../records/service.js'
import { SchemaError, type Resource } from '../../schema/index.js'
import { where, type Filter } from '../../store/port.js'
import { errorResponses } from '../responses.js'
import type { RecordRouteOptions } from './extensions.js'
import { historyRoutes } from './history.js'
import { asOfQuery } from './history-schemas.js'
import { listQuery } from './schemas.js'
import { Created, Deleted, idParams, ifMatch, noQuery, objectSchema, pageOf, paging, recordBody, versionFrom } from '../shared.js'

/** A permission the schema names for a resource; an unknown one is a schema fault, reported as such. */
function permission(resource: Resource, access: 'read' | 'write'): Permission {
  const name = resource.permissions[access]
  if (!isPermission(name)) {
    throw new SchemaError(resource.root.file, resource.root.name, `@metadata.permissions.${access}: unknown permission ${name} (known: ${permissions.join(', ')})`)
  }
  return name
}

/** A resource whose reads name this instead of a permission is read by every signed-in user (groups). */
const signedInReads = 'signed_in'

/** Who may read a resource's records; `apiKeys` opens them to keys too, which `signed_in` reads never are. */
function readPolicy(resource: Resource, apiKeys = false): Policy {
  if (resource.permissions.read !== signedInReads) return allow.permission(permission(resource, 'read'), { apiKeys })
  if (apiKeys) throw new SchemaError(resource.root.file, resource.root.name, `@metadata.api_keys: reads open to ${signedInReads} are never open to API keys`)
  return allow.signedIn
}

function and(filter: Filter, extra: Filter | undefined): Filter {
  if (!extra) return filter
  return Object.keys(filter).length ? { $and: [filter, extra] } : extra
}

function withVersion<R extends ApiRecord | RecordView>(reply: FastifyReply, record: R): R {
  reply.header('etag', `"${record._version}"`)
  return record
}

/** The record schema with the extension's fields added. */
function extended(record: TObject, extension: DetailExtension): TObject {
  const { properties, type: _type, ...options } = record
  return Type.Object({ ...properties, ...extension.properties }, options)
}

/**
 * The update body with the extension's fields allowed and ignored, so a detail answer can still be sent
 * back whole as an update, as any record read with GET can.
 */
function ignoringExtension(update: TObject, extension: DetailExtension): TObject {
  const { properties, type: _type, ...options } = update
  const ignored = Object.fromEntries(Object.keys(extension.properties).map((name) => [name, Type.Optional(Type.Unknown({ description: 'Read-only: ignored on update' }))]))
  return Type.Object({ ...properties, ...ignored }, options)
}

function withoutExtension(body: Readonly<Record<string, unknown>>, extension: DetailExtension | undefined): Record<string, unknown> {
  const rest = { ...body }
  if (!extension) return rest
  for (const name of Object.keys(extension.properties)) delete rest[name]
  return rest
}

type App = Parameters<FastifyPluginAsyncTypebox<RecordRouteOptions>>[0]

/**
 * The routes of one generic resource: list, detail, create, update, delete and its related lists. Every
 * answer that returns records leaves out references to students the caller may not see (docs/privacy.md).
 */
function resourceRoutes(app: App, resource: Resource, options: RecordRouteOptions): void {
  const { schema, records } = app
  const { root, path, tag } = resource
  const read = readPolicy(resource)
  const writePermission = permission(resource, 'write')
  const keys = keyRoutes(schema, resource)
  const keyOpen = (route: 'list' | 'detail') => readPolicy(resource, keys.has(route))
  const keyWrite = (route: 'create' | 'update') => allow.permission(writePermission, { apiKeys: keys.has(route) })
  const write = allow.permission(writePermission)
  const record = schema.builder.resourceSchema(root, 'record')
  const params = idParams(root)
  const noun = root.name
  const access = new RecordAccess(schema, resource, app.people)
  const extension: DetailExtension | undefined = options.details?.[root.name]
  const guard: WriteGuard<Principal> | undefined = options.guards?.[root.name]
  const writer: RecordWriter<Principal> | undefined = options.writers?.[root.name]
  const { students } = options
  // Most resources can name no student (people, courses): their reads skip the redaction altogether.
  const namesStudents = students.mayName(resource.classes)
  const cached = root.metadata.cache
  const cache = (dependsOn: string[], names: boolean) => cached
    ? { cache: { ttlSeconds: cached.ttl_seconds, dependsOn, group: resource.collection, namesStudents: names } }
    : {}
  const cacheRoute = (route: 'list' | 'detail', dependsOn: string[]) => cached?.routes.includes(route) ? cache(dependsOn, namesStudents) : {}
  const studentFilters = Object.entries(root.metadata.filters).filter(([, field]) => students.referenceFields(root.name).includes(field)).map(([param]) => param)

  /** A filter naming a student the caller may not see matches nothing, as their answers never name that student. */
  async function filtersHiddenStudent(request: FastifyRequest, query: Readonly<Record<string, unknown>>): Promise<boolean> {
    for (const param of studentFilters) {
      const value = query[param]
      if (typeof value === 'string' && !(await students.maySee(principalOf(request), value))) return true
    }
    return false
  }

  /** The record, if it exists and the caller may see it; a record hidden from the caller is reported as missing. */
  async function visible(request: FastifyRequest, id: string): Promise<RecordView> {
    const found = await records.view(id)
    if (!found || !(await access.canRead(principalOf(request), found))) throw new RecordNotFound(`${id} not found`)
    return found
  }

  /** The record as it was at `asOf`, if it existed then and the caller may see it as it was. */
  async function visibleAsOf(request: FastifyRequest, id: string, asOf: string): Promise<RecordView> {
    const cls = schema.classOfId(id)
    const current = cls && resource.classes.includes(cls.name) ? await records.get(id) : null
    const then = cls ? await app.history.asOf(id, current, new Date(asOf).toISOString()) : null
    if (!then || !resource.classes.includes(String(then.type)) || !(await access.canRead(principalOf(request), then as ApiRecord))) {
      throw new RecordNotFound(`${id} not found as of ${asOf}`)
    }
    return then as RecordView
  }

  historyRoutes(app, {
    // Keys read history where they read the record; a restore is a person's undoing, never an integration's.
    resource, access, students, namesStudents, read: keyOpen('detail'), write, record, guard, writer,
  })

  app.get(path, {
    config: { policy: keyOpen('list'), ...cacheRoute('list', collectionsRead(schema, resource)) },
    schema: {
      tags: [tag], summary: `List ${noun} records`, querystring: listQuery(schema, resource),
      response: { 200: pageOf(record), ...errorResponses(400, 401, 403) },
    },
  }, async (request) => {
    const { query } = request
    const filter = and(await listFilter(schema, records, resource, query), access.listFilter(principalOf(request)))
    const sort = listSort(root, query.sort)
    if (await filtersHiddenStudent(request, query)) return { items: [], total: 0, limit: query.limit, offset: query.offset }
    const page = await records.viewPage(root, filter, { sort, skip: query.offset, limit: query.limit })
    const items = namesStudents ? await students.redact(principalOf(request), page.items) : page.items
    return { items, total: page.total, limit: query.limit, offset: query.offset }
  })

  app.get(`${path}/:id`, {
    config: { policy: keyOpen('detail'), ...cacheRoute('detail', [resource.collection, ...(extension?.dependsOn ?? [])]) },
    schema: {
      tags: [tag], summary: `Get one ${noun}`, params, querystring: asOfQuery,
      description: 'With as_of, the record as it was then (fields drawn from other records, as they are now).',
      response: { 200: extension ? extended(objectSchema(record), extension) : record, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request, reply) => {
    const { as_of: asOf } = request.query
    const found = withVersion(reply, asOf === undefined ? await visible(request, request.params.id) : await visibleAsOf(request, request.params.id, asOf))
    const shown = namesStudents ? await students.redactOne(principalOf(request), found) : found
    return extension ? { ...shown, ...await extension.fields(found) } : shown
  })

  app.post(path, {
    config: { policy: keyWrite('create') },
    schema: {
      tags: [tag], summary: `Create a ${noun}`, body: recordBody(schema.builder.resourceSchema(root, 'create')),
      response: { 201: resource.polymorphic ? Created : record, ...errorResponses(400, 401, 403, 409, 413) },
    },
  }, async (request, reply) => {
    const { body } = request
    access.assertCanGrant(principalOf(request), body)
    await guard?.check(principalOf(request), undefined, body)
    const created = await records.create(resource.polymorphic ? String(body.type) : resource.classes[0]!, body, { actor: actorOf(request) })
    reply.code(201).header('location', `${path}/${encodeURIComponent(created._id)}`)
    withVersion(reply, created)
    return resource.polymorphic ? { id: created._id, message: `${created._id} created` } : created
  })

  app.put(`${path}/:id`, {
    // Where owners may edit their own records, any signed-in caller reaches the handler, which decides.
    config: { policy: access.selfEditable ? allow.signedIn : keyWrite('update') },
    schema: {
      tags: [tag], summary: `Update a ${noun}`,
      description: 'Send the fields to change; null removes an optional field. With If-Match or _version the update applies only to that version (else 409).',
      params, querystring: noQuery, headers: ifMatch,
      body: recordBody(extension ? ignoringExtension(objectSchema(schema.builder.resourceSchema(root, 'update')), extension) : schema.builder.resourceSchema(root, 'update')),
      response: { 200: record, ...errorResponses(400, 401, 403, 404, 409, 413) },
    },
  }, async (request, reply) => {
    const { id } = request.params
    const principal = principalOf(request)
    const current = await records.get(id)
    if (!current || !((await access.canRead(principal, current)) || (await access.isOwn(principal, current)))) throw new RecordNotFound(`${id} not found`)
    const body = await students.keepHidden(principal, current, withoutExtension(request.body, extension))
    await access.authorizeUpdate(principal, current, body)
    access.assertCanGrant(principal, current, body)
    await guard?.check(principal, current, { ...current, ...body })
    const expectVersion = versionFrom(request.headers['if-match'])
    const versioned = { actor: actorOf(request), correctKey: isAdmin(principal), ...(expectVersion === undefined ? {} : { expectVersion }) }
    const updated = writer ? await writer.update(principal, current, body, versioned) : await records.update(id, body, versioned)
    return withVersion(reply, await students.redactOne(principal, updated))
  })

  app.delete(`${path}/:id`, {
    config: { policy: write },
    schema: {
      tags: [tag], summary: `Delete a ${noun}`, description: 'Refused with 409, naming them, while other records reference it.',
      params, querystring: noQuery, response: { 200: Deleted, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => {
    const { id } = request.params
    const current = await visible(request, id)
    access.assertCanGrant(principalOf(request), current)
    await guard?.check(principalOf(request), current, undefined)
    const by = { actor: actorOf(request) }
    if (writer) await writer.remove(principalOf(request), current, by)
    else await records.remove(id, by)
    return { id, message: `${id} deleted` }
  })

  for (const related of root.metadata.related) {
    const target = schema.class(related.class)!
    const targetResource = schema.resourceOf(target.name)
    const policy = targetResource ? readPolicy(targetResource) : read
    const relatedNamesStudents = students.mayName(target.concrete)
    app.get(`${path}/:id/${related.path}`, {
      config: { policy, ...(cached?.related?.includes(related.path) ? cache([resource.collection, target.metadata.collection!], relatedNamesStudents) : {}) },
      schema: {
        tags: [tag], summary: related.summary, params, querystring: Type.Object(paging, { additionalProperties: false }),
        response: { 200: pageOf(schema.builder.resourceSchema(target, 'record')), ...errorResponses(400, 401, 403, 404) },
      },
    }, async (request) => {
      const { id } = request.params
      const { limit, offset } = request.query
      await visible(request, id)
      const page = await records.viewPage(target, where(related.field, id), { sort: listSort(target, undefined), skip: offset, limit })
      const items = relatedNamesStudents ? await students.redact(principalOf(request), page.items) : page.items
      return { items, total: page.total, limit, offset }
    })
  }
}

export const recordRoutes: FastifyPluginAsyncTypebox<RecordRouteOptions> = async (app, options) => {
  for (const resource of app.schema.resources) resourceRoutes(app, resource, options)
}
