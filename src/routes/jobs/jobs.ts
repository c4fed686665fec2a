import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { isQueueName, UnknownJobError, UnknownQueueError, type JobProgress, type QueueName } from '../../jobs/port.js'
import { noQuery, paging } from '../shared.js'
import { errorResponses } from '../responses.js'
import { Job, JobIdParam, JobPage, Progress, QueueParam, StateName } from './schemas.js'

/** The queue a path or query names; an unknown one is a 404 naming it. */
export function queueNamed(name: string): QueueName {
  if (!isQueueName(name)) throw new UnknownQueueError(name)
  return name
}

const AllJobsQuery = Type.Object({
  ...paging,
  queue: Type.Optional(QueueParam),
  state: Type.Optional(StateName),
}, { additionalProperties: false })

/** Background jobs of every queue (docs/operations.md), for holders of manage_jobs; API keys never reach them. */
export const jobRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { jobs } = app
  const policy = allow.permission('manage_jobs')
  const tags = ['Administration']
  const params = Type.Object({ jobId: JobIdParam })

  app.get('/api/admin/jobs', {
    config: { policy },
    schema: {
      tags, summary: 'List background jobs, newest first', querystring: AllJobsQuery,
      response: { 200: JobPage, ...errorResponses(400, 401, 403, 404, 503) },
    },
  }, async (request) => {
    const { queue, state, limit, offset } = request.query
    const page = await jobs.list({ ...(queue ? { queue: queueNamed(queue) } : {}), ...(state ? { state } : {}), limit, offset })
    return { ...page, limit, offset }
  })

  app.get('/api/admin/jobs/:jobId', {
    config: { policy },
    schema: { tags, summary: 'Get one job: state, data, progress, attempts, result or error', params, querystring: noQuery, response: { 200: Job, ...errorResponses(401, 403, 404, 503) } },
  }, async (request) => {
    const job = await jobs.job(request.params.jobId)
    if (!job) throw new UnknownJobError(request.params.jobId)
    return job
  })

  app.get('/api/admin/jobs/:jobId/progress', {
    config: { policy },
    schema: { tags, summary: "A job's progress", params, querystring: noQuery, response: { 200: Progress, ...errorResponses(401, 403, 404, 503) } },
  }, async (request): Promise<JobProgress> => {
    const job = await jobs.job(request.params.jobId)
    if (!job) throw new UnknownJobError(request.params.jobId)
    // A job that reported nothing is at 0 until it completes.
    const done = job.state === 'completed'
    return job.progress
      ? { ...job.progress, ...(done ? { percent: 100 } : {}) }
      : { percent: done ? 100 : 0, processed: null, total: null, message: null }
  })
}
