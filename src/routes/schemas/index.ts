import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { SchemaNotFound } from '../../errors.js'
import { markDefaults, markSystemFields, titleProperties } from '../../schema/titles.js'
import { variants, type Variant } from '../../schema/typebox.js'
import { freezeDeep } from '../../store/freeze.js'
import { errorResponses } from '../responses.js'

const Summary = Type.Object({
  items: Type.Array(Type.Object({
    name: Type.String(),
    kind: Type.String({ enum: ['Class', 'Enum'] }),
    abstract: Type.Optional(Type.Boolean()),
    inherits: Type.Optional(Type.Array(Type.String())),
    subclasses: Type.Optional(Type.Array(Type.String())),
    collection: Type.Optional(Type.String()),
    path: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    properties: Type.Optional(Type.Array(Type.String())),
  })),
  total: Type.Integer(),
  version: Type.String({ description: "The class schema's version: the SHA-256 of its definitions, as the store holds them; also the ETag of every /api/schemas answer" }),
})

const NotModified = Type.Null({ description: 'Not modified: the If-None-Match header names the current version' })

/** A keyword's type: one name, or several (`["string", "null"]`). */
const TypeKeyword = Type.Union([Type.String(), Type.Array(Type.String())])

/**
 * One property of a served schema. The keywords a form reads are named, so a generated client knows their
 * types; every other keyword (`anyOf`, `items`, `maxLength`, `readOnly`, ...) is allowed as it is, so the
 * serializer sends it unchanged rather than dropping what is not listed.
 */
const ServedProperty = Type.Object({
  type: Type.Optional(TypeKeyword),
  title: Type.Optional(Type.String({ description: 'the property\'s name in words, for a form label' })),
  description: Type.Optional(Type.String()),
  format: Type.Optional(Type.String()),
  pattern: Type.Optional(Type.String()),
  enum: Type.Optional(Type.Array(Type.Unknown())),
  'x-reference': Type.Optional(Type.String({ description: 'the class whose record id a reference holds' })),
}, { additionalProperties: true, title: 'JsonSchemaProperty' })

/**
 * The JSON Schema (draft-07) of one class or enum, as served: the top-level keywords named, each property a
 * ServedProperty, anything else allowed (a discriminator, a oneOf's members whole). `$id` is sent but not
 * named: @fastify/swagger's resolver reads a key `$id` anywhere in a route schema as a URI, even a property's name.
 */
const ServedSchema = Type.Object({
  $schema: Type.String({ description: 'the JSON Schema draft: http://json-schema.org/draft-07/schema#' }),
  title: Type.String(),
  description: Type.Optional(Type.String()),
  type: TypeKeyword,
  properties: Type.Optional(Type.Object({}, { additionalProperties: ServedProperty })),
  required: Type.Optional(Type.Array(Type.String())),
  additionalProperties: Type.Optional(Type.Union([Type.Boolean(), Type.Object({}, { additionalProperties: true })])),
  enum: Type.Optional(Type.Array(Type.Unknown(), { description: "an enum's values" })),
  oneOf: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), { description: "an abstract class's create variant: one member per concrete class" })),
}, { additionalProperties: true, title: 'JsonSchema', description: 'A JSON Schema (draft-07); `$id` is the URL it is served at' })
type ServedSchema = Static<typeof ServedSchema>

/** The class schema, for form generators: a list of types and one JSON Schema (draft-07) per type and variant. */
export const schemaRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { model } = app.schema
  // Cache: the served copy of each class's schema per variant (titles, readOnly system fields, metadata
  // defaults), made on first request. Nothing invalidates it: the class schema is read once at start and
  // changes only with a restart (a migration runs before the service serves), the same for every
  // instance. test/schema/schemas-endpoint.test.ts compares every served copy with the derived schema.
  const served = new Map<string, ServedSchema>()
  const etag = `"${app.schema.hash}"`

  // Each answer is of one version of the schema, named by its ETag; a client holding it is told so.
  app.addHook('onRequest', async function tagSchemaVersion(request, reply) {
    if (!request.url.startsWith('/api/schemas')) return
    reply.header('etag', etag)
  })
  const current = (request: { headers: Record<string, string | string[] | undefined> }) => request.headers['if-none-match'] === etag

  function jsonSchema(name: string, variant: Variant): ServedSchema | undefined {
    const key = `${name}:${variant}`
    if (!served.has(key)) {
      const schema = app.schema.schemaOf(name, variant)
      if (!schema) return undefined
      const id = `${app.config.publicUrl}/api/schemas/${name}${variant === 'record' ? '' : `?variant=${variant}`}`
      // A plain JSON copy: TypeBox's symbols stay behind and the validators' objects are not touched, so
      // the properties' titles, for form generators, stay out of the OpenAPI document's components.
      // Frozen, because it never changes while the service runs: its encoding is made once and reused.
      const copy: ServedSchema & { $id: string } = { $schema: 'http://json-schema.org/draft-07/schema#', $id: id, ...JSON.parse(JSON.stringify(schema)) as Omit<ServedSchema, '$schema'> }
      titleProperties(copy)
      // A merged abstract class (Person's update variant) is titled by the root, whose metadata its subclasses inherit.
      if (variant === 'create') markSystemFields(copy, (className) => model.classes.get(className)?.metadata.system_fields ?? [])
      markDefaults(copy, (className) => model.classes.get(className)?.metadata.defaults ?? {})
      served.set(key, freezeDeep(copy))
    }
    return served.get(key)
  }

  app.get('/api/schemas', {
    config: { policy: allow.signedIn },
    schema: {
      // Named as a list though its answer also carries the schema's version, which the derived name would not allow.
      tags: ['Schemas'], summary: 'List every class and enum', operationId: 'listSchemas',
      querystring: Type.Object({ format: Type.Optional(Type.String({ enum: ['full', 'summary'], description: 'summary: names and property names only' })) }, { additionalProperties: false }),
      response: { 200: Summary, 304: NotModified, ...errorResponses(400, 401) },
    },
  }, async (request, reply) => {
    if (current(request)) return reply.code(304).send(null)
    const summary = request.query.format === 'summary'
    const classes = [...model.classes.values()].map((c) => summary
      ? { name: c.name, kind: 'Class', properties: c.properties.map((p) => p.name) }
      : {
          name: c.name, kind: 'Class', abstract: c.abstract, inherits: [...c.parents],
          subclasses: [...model.classes.values()].filter((s) => s.parents.includes(c.name)).map((s) => s.name),
          ...(c.metadata.collection && !c.subdocument ? { collection: c.metadata.collection } : {}),
          ...(c.metadata.path ? { path: c.metadata.path } : {}),
          ...(c.comment ? { description: c.comment } : {}),
        })
    const enums = [...model.enums.values()].map((e) => summary
      ? { name: e.name, kind: 'Enum', properties: [] }
      : { name: e.name, kind: 'Enum', ...(e.comment ? { description: e.comment } : {}) })
    const items = [...classes, ...enums].sort((a, b) => a.name.localeCompare(b.name))
    return { items, total: items.length, version: app.schema.hash }
  })

  app.get('/api/schemas/:entityType', {
    config: { policy: allow.signedIn },
    schema: {
      tags: ['Schemas'], summary: 'JSON Schema (draft-07) of one class or enum',
      description: 'Every property has a title, its name in words, for a form label; its description is the class documentation. References are strings with a pattern and x-reference naming the class, for a picker. Variants: record (as read), create (a POST body), update (a PUT body).',
      params: Type.Object({ entityType: Type.String({ pattern: '^[A-Z][A-Za-z0-9]{0,63}$' }) }),
      querystring: Type.Object({ variant: Type.Optional(Type.Unsafe<Variant>({ type: 'string', enum: [...variants] })) }, { additionalProperties: false }),
      response: { 200: ServedSchema, 304: NotModified, ...errorResponses(400, 401, 404) },
    },
  }, async (request, reply) => {
    if (current(request)) return reply.code(304).send(null)
    const { entityType } = request.params
    const variant = request.query.variant ?? 'record'
    const schema = jsonSchema(entityType, variant)
    if (!schema) throw new SchemaNotFound(`no class or enum named ${entityType}`)
    return schema
  })
}
