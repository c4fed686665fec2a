import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { ScheduleNotFound } from '../../errors.js'
import { UnknownSchedulerError, type JobDriver, type ScheduleSpec } from '../../jobs/port.js'
import { publicationSync } from '../../publications/publication-sync.js'
import { checkSchedule } from '../../jobs/schedule.js'
import { noQuery } from '../shared.js'
import { errorResponses } from '../responses.js'
import { PublicationSync, PublicationSyncBody, QueueParam, Removed, Scheduler, SchedulerBody } from './schemas.js'
import { queueNamed } from './jobs.js'

type Timing = Pick<ScheduleSpec, 'pattern' | 'every' | 'tz'>

async function publicationSchedules(jobs: JobDriver) {
  const find = async ({ queue, id }: { queue: typeof publicationSync.import.queue | typeof publicationSync.citations.queue; id: string }) =>
    (await jobs.schedulers(queue)).find((s) => s.id === id) ?? null
  return { import: await find(publicationSync.import), citations: await find(publicationSync.citations) }
}

/** Recurring jobs (docs/operations.md), for holders of manage_jobs. */
export const schedulerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { jobs } = app
  const policy = allow.permission('manage_jobs')
  const tags = ['Administration']

  app.get('/api/schedulers', {
    config: { policy },
    schema: { tags, summary: 'Every recurring job: its pattern or interval, time zone and next run', querystring: noQuery, response: { 200: Type.Array(Scheduler), ...errorResponses(401, 403, 503) } },
  }, async () => jobs.schedulers())

  app.post('/api/schedulers/:queueName', {
    config: { policy },
    schema: {
      tags, summary: 'Create or replace a recurring job (by id)', params: Type.Object({ queueName: QueueParam }), querystring: noQuery, body: SchedulerBody,
      response: { 200: Scheduler, ...errorResponses(400, 401, 403, 404, 503) },
    },
  }, async (request) => jobs.upsertScheduler(queueNamed(request.params.queueName), request.body))

  app.delete('/api/schedulers/:queueName/:id', {
    config: { policy },
    schema: {
      tags, summary: 'Remove a recurring job (jobs it already made stay)', params: Type.Object({ queueName: QueueParam, id: Type.String({ minLength: 1, maxLength: 100 }) }),
      querystring: noQuery, response: { 200: Removed, ...errorResponses(401, 403, 404, 503) },
    },
  }, async (request) => {
    const queue = queueNamed(request.params.queueName)
    const { id } = request.params
    if (!(await jobs.removeScheduler(queue, id))) throw new UnknownSchedulerError(id, queue)
    return { id, message: `Scheduler ${id} removed from queue ${queue}` }
  })

  app.get('/api/schedulers/publication-sync', {
    config: { policy },
    schema: {
      tags, summary: 'The publication sync: the import and citation-refresh schedules (null when not scheduled)', querystring: noQuery,
      response: { 200: PublicationSync, ...errorResponses(401, 403, 503) },
    },
  }, async () => publicationSchedules(jobs))

  app.put('/api/schedulers/publication-sync', {
    config: { policy },
    schema: {
      tags, summary: 'Schedule the publication import, the citation refresh, or both', querystring: noQuery, body: PublicationSyncBody,
      response: { 200: PublicationSync, ...errorResponses(400, 401, 403, 503) },
    },
  }, async (request) => {
    const wanted: [typeof publicationSync.import | typeof publicationSync.citations, Timing | undefined][] = [
      [publicationSync.import, request.body.import], [publicationSync.citations, request.body.citations],
    ]
    // Both are checked before either is written, so a bad one leaves the other as it was.
    for (const [target, timing] of wanted) if (timing) checkSchedule({ id: target.id, ...timing })
    for (const [target, timing] of wanted) {
      if (timing) await jobs.upsertScheduler(target.queue, { id: target.id, name: target.name, ...timing })
    }
    return publicationSchedules(jobs)
  })

  app.delete('/api/schedulers/publication-sync', {
    config: { policy },
    schema: { tags, summary: 'Stop the publication sync (both schedules)', querystring: noQuery, response: { 200: Removed, ...errorResponses(401, 403, 404, 503) } },
  }, async () => {
    let removed = 0
    for (const target of [publicationSync.import, publicationSync.citations]) if (await jobs.removeScheduler(target.queue, target.id)) removed++
    if (removed === 0) throw new ScheduleNotFound('No publication sync is scheduled')
    return { id: 'publication-sync', message: 'Publication sync schedules removed' }
  })
}
