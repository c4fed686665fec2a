import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { RecordNotFound } from '../../errors.js'
import { actorOf } from '../../http/actor.js'
import { restoredEvent } from '../../history/events.js'
import { HistoryReader } from '../../history/reader.js'
import { restoreFields } from '../../records/restore.js'
import { asRestoreConflict } from '../records/history.js'
import { errorResponses } from '../responses.js'
import { noQuery, paging } from '../shared.js'

const TrashItem = Type.Object({
  id: Type.String({ description: 'The record id, under which a restore brings it back' }),
  type: Type.String(),
  title: Type.Optional(Type.String({ description: "The record's label fields, as they were" })),
  version: Type.Integer({ description: 'The version the record was at when deleted' }),
  deleted_at: Type.String({ format: 'date-time' }),
  deleted_by: Type.String(),
  deleted_by_name: Type.Optional(Type.String()),
  via: Type.String(),
})

const TrashQuery = Type.Object({
  ...paging,
  type: Type.Optional(Type.String({ pattern: '^[A-Z][A-Za-z0-9]{0,63}$', description: 'Only records of this class (or its subclasses)' })),
}, { additionalProperties: false })

const TrashParams = Type.Object({ id: Type.String({ minLength: 3, maxLength: 300, pattern: '^[A-Z][A-Za-z0-9]*/[A-Za-z0-9._~-]+$', description: 'The deleted record id, URL-encoded' }) })

/**
 * The trash (docs/history.md): deleted records, newest deletion first, with who deleted them, and their
 * restore under the same id. Admins only, whatever the record's class: the trash lists every class.
 */
export const trashRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { history, records, schema } = app
  const tags = ['Administration']

  app.get('/api/admin/trash', {
    config: { policy: allow.admin },
    schema: {
      tags, summary: 'Deleted records, newest deletion first', querystring: TrashQuery,
      response: { 200: Type.Object({ items: Type.Array(TrashItem), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() }), ...errorResponses(400, 401, 403) },
    },
  }, async (request) => {
    const { limit, offset, type } = request.query
    const cls = type === undefined ? undefined : schema.class(type)
    if (type !== undefined && !cls) return { items: [], total: 0, limit, offset }
    const page = await history.trash(cls ? { type: cls.concrete } : {}, { limit, offset })
    const items = page.items.map((deletion) => {
      const was = HistoryReader.snapshot(deletion)
      const label = schema.class(deletion.type)?.metadata.label.map((field) => was[field]).filter((v) => typeof v === 'string').join(' ')
      return {
        id: deletion.record, type: deletion.type, ...(label ? { title: label } : {}), version: deletion.version - 1,
        deleted_at: deletion.at, deleted_by: deletion.actor, ...(deletion.actor_name ? { deleted_by_name: deletion.actor_name } : {}), via: deletion.via,
      }
    })
    return { items, total: page.total, limit, offset }
  })

  app.post('/api/admin/trash/:id/restore', {
    config: { policy: allow.admin },
    schema: {
      tags, summary: 'Bring a deleted record back under its id',
      description: 'Refused with 409, naming it, when the id is taken again or a reference no longer resolves.',
      params: TrashParams, querystring: noQuery,
      response: { 201: Type.Object({ id: Type.String(), version: Type.Integer(), message: Type.String() }), ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request, reply) => {
    const { id } = request.params
    const deletion = await history.trashed(id)
    if (!deletion) throw new RecordNotFound(`${id} is not in the trash`)
    const was = HistoryReader.snapshot(deletion)
    const type = String(was.type)
    let restored
    try {
      restored = await records.create(type, restoreFields(was), { actor: actorOf(request), key: id.slice(type.length + 1), restoredFrom: deletion.version - 1 })
    } catch (error) {
      throw asRestoreConflict(error)
    }
    await app.outcomes.records.record(restoredEvent(restored, deletion.version - 1))
    reply.code(201)
    return { id: restored._id, version: restored._version, message: `${restored._id} restored from the trash` }
  })
}
