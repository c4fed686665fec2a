import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { TSchema } from '@sinclair/typebox'
import type { FastifyRequest } from 'fastify'
import { principalOf } from '../../auth/plugin.js'
import type { Policy } from '../../auth/permissions.js'
import type { Principal } from '../../auth/principal.js'
import { RecordNotFound, RestoreConflict, ValidationFailed, isAppError } from '../../errors.js'
import { actorOf } from '../../http/actor.js'
import { restoredEvent } from '../../history/events.js'
import { HistoryReader } from '../../history/reader.js'
import type { RecordAccess } from '../../privacy/record-access.js'
import { isAdmin } from '../../privacy/relations.js'
import type { StudentReferences } from '../../privacy/student-references.js'
import { restoreUpdate } from '../../records/restore.js'
import type { RecordWriter, WriteGuard } from '../../records/extensions.js'
import type { ApiRecord } from '../../records/service.js'
import type { Resource } from '../../schema/index.js'
import { errorResponses } from '../responses.js'
import { idParams, ifMatch, noQuery, versionFrom } from '../shared.js'
import { HistoryPage, historyQuery, RestoreBody } from './history-schemas.js'

type App = Parameters<FastifyPluginAsyncTypebox>[0]
type State = Record<string, unknown>

/** What the resource's other routes decide that its history routes decide the same way. */
export interface HistoryRouteContext {
  readonly resource: Resource
  readonly access: RecordAccess
  readonly students: StudentReferences
  /** Whether the resource's records can name students (then history is redacted per caller). */
  readonly namesStudents: boolean
  readonly read: Policy
  readonly write: Policy
  /** The record's answer schema. */
  readonly record: TSchema
  readonly guard?: WriteGuard<Principal>
  readonly writer?: RecordWriter<Principal>
}

/** A restore that cannot land as it stands (a reference gone, a unique value taken) is a conflict naming it. */
export function asRestoreConflict(error: unknown): unknown {
  if (isAppError(error) && (error.code === 'ADKS_REFERENCE_NOT_FOUND' || error.code === 'ADKS_DUPLICATE_RECORD')) return new RestoreConflict(error.message)
  return error
}

/** The record now (null once deleted) and what a read of its past is judged on: it, or its last state; null when neither. */
export async function recordOrLast(app: App, id: string): Promise<{ current: ApiRecord | null; judged: State } | null> {
  const current = await app.records.get(id)
  const deletion = current ? null : await app.history.trashed(id)
  const judged = current ?? (deletion ? HistoryReader.snapshot(deletion) : null)
  return judged ? { current, judged } : null
}

/**
 * A record's history and restore (docs/history.md), under the resource's own path and read rules: whoever
 * may read the record (a deleted one as it last was) reads its history, with the student references
 * they may not see left out of every change; a restore is an update, under the update's rules.
 */
export function historyRoutes(app: App, context: HistoryRouteContext): void {
  const { resource, access, students, namesStudents, guard, writer } = context
  const { records, history } = app
  const { path, tag, root } = resource
  const params = idParams(root)

  /** The record now (null once deleted) and what the caller's read is judged on: it, or its last state. */
  async function subject(request: FastifyRequest, id: string): Promise<{ current: ApiRecord | null; judged: State }> {
    const found = await recordOrLast(app, id)
    const ours = found && resource.classes.includes(String(found.judged.type))
    if (!found || !ours || !(await access.canRead(principalOf(request), found.judged as ApiRecord))) throw new RecordNotFound(`${id} not found`)
    return found
  }

  app.get(`${path}/:id/history`, {
    config: { policy: context.read },
    schema: {
      tags: [tag], summary: `The history of one ${root.name}`, description: 'Newest first: who changed what, when, and through what.',
      params, querystring: historyQuery, response: { 200: HistoryPage, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => {
    const { id } = request.params
    const { limit, offset } = request.query
    const { current } = await subject(request, id)
    const principal = principalOf(request)
    const redact = namesStudents ? (state: State) => students.redactOne(principal, state as State & { type: string }) : undefined
    const page = await history.page(id, current, { limit, offset }, redact)
    return { ...page, limit, offset }
  })

  app.post(`${path}/:id/restore`, {
    config: { policy: context.write },
    schema: {
      tags: [tag], summary: `Restore a version of a ${root.name}`,
      description: 'Writes a new version equal to the one named, as an update: conditional on If-Match, with references and unique fields checked (409 naming a conflict).',
      params, querystring: noQuery, headers: ifMatch, body: RestoreBody,
      response: { 200: context.record, ...errorResponses(400, 401, 403, 404, 409) },
    },
  }, async (request) => {
    const { id } = request.params
    const { version } = request.body
    const principal = principalOf(request)
    const { current } = await subject(request, id)
    if (!current) throw new RecordNotFound(`${id} is deleted; restore it from the trash`)
    const target = await history.version(id, current, version)
    if (target === undefined) throw new RecordNotFound(`${id} has no version ${version} in its history`)
    if (target === null) throw new ValidationFailed(`version ${version} of ${id} is its deletion; name a version before it`)
    const body = await students.keepHidden(principal, current, restoreUpdate(current, target))
    await access.authorizeUpdate(principal, current, body)
    access.assertCanGrant(principal, current, body)
    await guard?.check(principal, current, { ...current, ...body })
    const expectVersion = versionFrom(request.headers['if-match'])
    const options = { actor: actorOf(request), correctKey: isAdmin(principal), restoredFrom: version, ...(expectVersion === undefined ? {} : { expectVersion }) }
    let restored: ApiRecord
    try {
      restored = writer ? await writer.update(principal, current, body, options) : await records.update(id, body, options)
    } catch (error) {
      throw asRestoreConflict(error)
    }
    if (restored._version !== current._version) await app.outcomes.records.record(restoredEvent(restored, version))
    return students.redactOne(principal, restored)
  })
}
