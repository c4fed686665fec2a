import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import type { QueueName } from '../../jobs/port.js'
import { noQuery } from '../shared.js'
import { errorResponses } from '../responses.js'
import { Job, JobIdParam, JobListQuery, JobPage, QueueParam, QueueSummary } from './schemas.js'
import { queueNamed } from './jobs.js'

/** Queue statistics and control (docs/operations.md), for holders of manage_jobs. */
export const queueRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { jobs } = app
  const policy = allow.permission('manage_jobs')
  const tags = ['Administration']
  const params = Type.Object({ queueName: QueueParam })

  const summary = async (name: QueueName) => (await jobs.queues()).find((q) => q.name === name)!

  app.get('/api/queues', {
    config: { policy },
    schema: { tags, summary: 'Every job queue with its counts by state and whether it is paused', querystring: noQuery, response: { 200: Type.Array(QueueSummary), ...errorResponses(401, 403, 503) } },
  }, async () => jobs.queues())

  app.get('/api/queues/:queueName/jobs', {
    config: { policy },
    schema: { tags, summary: "A queue's jobs, newest first", params, querystring: JobListQuery, response: { 200: JobPage, ...errorResponses(400, 401, 403, 404, 503) } },
  }, async (request) => {
    const queue = queueNamed(request.params.queueName)
    const { state, limit, offset } = request.query
    return { ...(await jobs.list({ queue, ...(state ? { state } : {}), limit, offset })), limit, offset }
  })

  app.post('/api/queues/:queueName/jobs/:jobId/retry', {
    config: { policy },
    schema: {
      tags, summary: 'Run a failed job again from its first attempt', params: Type.Object({ queueName: QueueParam, jobId: JobIdParam }), querystring: noQuery,
      response: { 200: Job, ...errorResponses(401, 403, 404, 409, 503) },
    },
  }, async (request) => jobs.retry(queueNamed(request.params.queueName), request.params.jobId))

  for (const action of ['pause', 'resume'] as const) {
    app.post(`/api/queues/:queueName/${action}`, {
      config: { policy },
      schema: {
        tags, summary: action === 'pause' ? 'Pause a queue: its jobs wait (a running one finishes)' : 'Resume a paused queue',
        params, querystring: noQuery, response: { 200: QueueSummary, ...errorResponses(401, 403, 404, 503) },
      },
    }, async (request) => {
      const queue = queueNamed(request.params.queueName)
      await jobs[action](queue)
      return summary(queue)
    })
  }
}
