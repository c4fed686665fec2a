import { Type, type Static } from '@sinclair/typebox'

const Name = Type.String({ pattern: '^[a-z_][a-z0-9_]*$' })
const Names = Type.Array(Name)

export const ConstraintsSchema = Type.Object({
  pattern: Type.Optional(Type.String()),
  format: Type.Optional(Type.Union([Type.Literal('email'), Type.Literal('uri'), Type.Literal('date-time'), Type.Literal('date')])),
  minLength: Type.Optional(Type.Integer({ minimum: 0 })),
  maxLength: Type.Optional(Type.Integer({ minimum: 1 })),
  minimum: Type.Optional(Type.Number()),
  maximum: Type.Optional(Type.Number()),
  exclusiveMinimum: Type.Optional(Type.Number()),
  maxItems: Type.Optional(Type.Integer({ minimum: 1 })),
}, { additionalProperties: false })

/** This service's `@metadata` vocabulary; a definition using anything else is a schema error. */
export const RawMetadataSchema = Type.Object({
  collection: Type.Optional(Type.String({ pattern: '^[a-z][a-z0-9_]*$' })),
  path: Type.Optional(Type.String({ pattern: '^/api(/[a-z0-9-]+)+$' })),
  tag: Type.Optional(Type.String({ minLength: 1 })),
  permissions: Type.Optional(Type.Object({ read: Name, write: Name }, { additionalProperties: false })),
  protected: Type.Optional(Type.Boolean()),
  /** False: the class's records are bookkeeping (runs, watermarks, keys) and keep no revisions (docs/history.md). */
  history: Type.Optional(Type.Boolean()),
  /** Records about students: left out of lists and search for everyone but admins. */
  student: Type.Optional(Type.Boolean()),
  /** Who may read one record of the class: `admins`, or `admins-self-advisors` (the student and their advisors too). */
  visible_to: Type.Optional(Type.Union([Type.Literal('admins'), Type.Literal('admins-self-advisors')])),
  self_editable: Type.Optional(Names),
  identity_fields: Type.Optional(Names),
  /** Fields of the @key an admin may correct after creation: the id stays as minted, references keep pointing at it. */
  correctable_key: Type.Optional(Names),
  /**
   * Fields the system keeps (a campus sync or an import writes them, e.g. `source`, `active`): served
   * `readOnly` in the create variant so create forms leave them out; the API accepts them as before.
   */
  system_fields: Type.Optional(Names),
  /**
   * What an absent optional field means (`"active": true`): served as the property's JSON Schema
   * `default` so a form shows it; the validators write nothing, an absent field stays absent.
   */
  defaults: Type.Optional(Type.Record(Name, Type.Union([Type.Boolean(), Type.Number(), Type.String()]))),
  label: Type.Optional(Names),
  searchable: Type.Optional(Names),
  sortable: Type.Optional(Names),
  default_sort: Type.Optional(Type.Array(Type.String({ pattern: '^-?[a-z_][a-z0-9_]*$' }))),
  filters: Type.Optional(Type.Record(Type.String({ pattern: '^[a-z][a-z0-9_]*$' }), Type.String({ pattern: '^@?[a-z_][a-z0-9_]*$' }))),
  list_fields: Type.Optional(Names),
  indexes: Type.Optional(Type.Array(Type.Object({
    fields: Type.Array(Name, { minItems: 1 }),
    unique: Type.Optional(Type.Boolean()),
    sparse: Type.Optional(Type.Boolean()),
  }, { additionalProperties: false }))),
  constraints: Type.Optional(Type.Record(Name, ConstraintsSchema)),
  /** A Set of Permission the record grants (a group's): only a holder of all of them may write the record. */
  grants: Type.Optional(Name),
  /** Generic routes open to API keys holding the read permission: the interface spec's catalog reads. */
  api_keys: Type.Optional(Type.Array(Type.Union([Type.Literal('list'), Type.Literal('detail')]))),
  /** Cache policy: which of the resource's reads are cached (its list, its detail, related lists by path) and for how long. */
  cache: Type.Optional(Type.Object({
    ttl_seconds: Type.Integer({ minimum: 1, maximum: 7 * 86400 }),
    routes: Type.Array(Type.Union([Type.Literal('list'), Type.Literal('detail')])),
    related: Type.Optional(Type.Array(Type.String({ pattern: '^[a-z][a-z0-9-]*$' }))),
  }, { additionalProperties: false })),
  related: Type.Optional(Type.Array(Type.Object({
    path: Type.String({ pattern: '^[a-z][a-z0-9-]*$' }),
    class: Type.String(),
    field: Name,
    summary: Type.String(),
  }, { additionalProperties: false }))),
}, { additionalProperties: false })

export type RawMetadata = Static<typeof RawMetadataSchema>

/**
 * Filters with a built-in meaning, written with a leading `@` (`"search": "@search"`); any other filter
 * value names a property matched by equality (on a Set, by membership).
 */
export const builtInFilters = ['@type', '@search', '@subject', '@level', '@offered_in'] as const
