import { Type } from '@sinclair/typebox'
import { paging } from '../shared.js'

export const FieldChange = Type.Object({
  path: Type.String({ description: 'JSON Pointer (RFC 6901) of the changed value, e.g. /title or /members/2' }),
  before: Type.Optional(Type.Unknown({ description: 'The value before; absent when the value was added' })),
  after: Type.Optional(Type.Unknown({ description: 'The value after; absent when the value was removed' })),
})

export const HistoryEntry = Type.Object({
  version: Type.Integer({ minimum: 1, description: 'The version this change made' }),
  at: Type.String({ format: 'date-time' }),
  actor: Type.String({ description: 'A user id, an API key id, or a run: sync:<run>, import:<run>, seed, migration:<name>' }),
  actor_name: Type.Optional(Type.String()),
  via: Type.String({ description: 'The route or job the change came through' }),
  op: Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('deactivate'), Type.Literal('delete')]),
  restored_from: Type.Optional(Type.Integer({ minimum: 1, description: 'The version a restore brought back' })),
  changes: Type.Array(FieldChange),
})

export const HistoryPage = Type.Object({
  items: Type.Array(HistoryEntry),
  total: Type.Integer({ minimum: 0 }),
  limit: Type.Integer(),
  offset: Type.Integer(),
})

export const historyQuery = Type.Object(paging, { additionalProperties: false })

export const RestoreBody = Type.Object({
  version: Type.Integer({ minimum: 1, maximum: 2 ** 31, description: 'The version to bring back, from the history' }),
}, { additionalProperties: false })

export const asOfQuery = Type.Object({
  as_of: Type.Optional(Type.String({ format: 'date-time', description: 'Answer the record as it was at this time (404 if it did not exist then)' })),
}, { additionalProperties: false })
