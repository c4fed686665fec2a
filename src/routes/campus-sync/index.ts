import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { Static } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { loadSyncConfig } from '../../campus-sync/config.js'
import { enqueueCampusSync, enqueueCampusSyncAll } from '../../campus-sync/jobs.js'
import { syncKinds } from '../../campus-sync/runner.js'
import { actorOf } from '../../http/actor.js'
import { emptyBody, JobAccepted, noQuery } from '../shared.js'
import { errorResponses } from '../responses.js'
import { configAnswer, saveConfig } from '../../campus-sync/config-store.js'
import { AllBody, ConfigAnswer, ConfigBody, RunPage, RunsQuery, SyncBody, SyncRunItem, TermList } from './schemas.js'
import { checkTerm, sourceTerms } from '../../campus-sync/terms.js'

const summaries = {
  courses: 'Sync courses from the campus feed',
  sections: 'Sync sections (classes) of the synced terms, with their instructors',
  people: "Sync people and students' enrollments, and section instructors from teachers' enrollments",
} as const

/** Campus sync from the institution's OneRoster feed (docs/operations.md, "Campus sync (OneRoster)"), for holders of manage_jobs. */
export const campusSyncRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { jobs, records, schema, secrets } = app
  const policy = allow.permission('manage_jobs')
  const tags = ['Administration']

  for (const kind of syncKinds) {
    app.post(`/api/campus-sync/${kind}`, {
      config: { policy },
      preValidation: emptyBody,
      schema: {
        tags, summary: summaries[kind],
        description: 'Queues the run and answers its job id; a request for the same run while one is waiting or running answers that job. A dry run\'s result is the diff it would apply.',
        querystring: noQuery, body: SyncBody, response: { 202: JobAccepted, ...errorResponses(400, 401, 403, 502, 503) },
      },
    }, async (request, reply) => {
      const { term, dryRun } = request.body
      const config = await loadSyncConfig(records, schema, secrets)
      if (term !== undefined) checkTerm(term, await sourceTerms(config), config)
      const job = await enqueueCampusSync(jobs, { kind, ...(term !== undefined ? { term } : {}), ...(dryRun ? { dryRun } : {}) }, config.source)
      return reply.code(202).send({ jobId: job.id })
    })
  }

  app.post('/api/campus-sync/all', {
    config: { policy },
    preValidation: emptyBody,
    schema: {
      tags, operationId: 'startCampusSyncAll', summary: 'Sync everything: courses, then sections, then people, as one job',
      description: "Queues one job that runs courses, sections and people in that order, each leaving its own run record, with progress over the three; it stops at the first run refused (the job's result says which, status refused) or failed (the job fails, naming it). The result lists each run's counts and errors. A request while one waits or runs answers that job.",
      querystring: noQuery, body: AllBody, response: { 202: JobAccepted, ...errorResponses(400, 401, 403, 502, 503) },
    },
  }, async (request, reply) => {
    const { term } = request.body
    const config = await loadSyncConfig(records, schema, secrets)
    if (term !== undefined) checkTerm(term, await sourceTerms(config), config)
    const job = await enqueueCampusSyncAll(jobs, term !== undefined ? { term } : {}, config.source)
    return reply.code(202).send({ jobId: job.id })
  })

  app.get('/api/campus-sync/config', {
    config: { policy },
    schema: { tags, summary: 'The campus sync configuration (the client secret only as set or unset)', querystring: noQuery, response: { 200: ConfigAnswer, ...errorResponses(401, 403) } },
  }, async () => configAnswer(records, schema, secrets))

  app.put('/api/campus-sync/config', {
    config: { policy },
    schema: {
      tags, summary: 'Set the campus sync configuration (replaces it whole; the stored secret is kept when left out)',
      querystring: noQuery, body: ConfigBody, response: { 200: ConfigAnswer, ...errorResponses(400, 401, 403) },
    },
  }, async (request) => {
    await saveConfig(records, schema, secrets, actorOf(request), request.body)
    return configAnswer(records, schema, secrets)
  })

  app.get('/api/campus-sync/terms', {
    config: { policy },
    schema: { tags, summary: "The source's terms and which are synced", querystring: noQuery, response: { 200: TermList, ...errorResponses(401, 403, 502) } },
  }, async () => {
    const config = await loadSyncConfig(records, schema, secrets)
    const terms = await sourceTerms(config)
    const synced = (code: string) => config.terms.length === 0 || config.terms.includes(code)
    const fromSource = terms.map((t) => ({ code: t.code, title: t.title, start: t.start ?? null, end: t.end ?? null, in_source: true, synced: synced(t.code) }))
    const onlyConfigured = config.terms.filter((code) => !terms.some((t) => t.code === code))
      .map((code) => ({ code, title: null, start: null, end: null, in_source: false, synced: true }))
    return { items: [...fromSource, ...onlyConfigured] }
  })

  app.get('/api/campus-sync/runs', {
    config: { policy },
    schema: { tags, summary: 'Campus sync runs and what each did, newest first', querystring: RunsQuery, response: { 200: RunPage, ...errorResponses(400, 401, 403) } },
  }, async (request) => {
    const { limit, offset, kind } = request.query
    const page = await records.viewPage(schema.class('SyncRun')!, kind ? { kind } : {}, { sort: [['started_at', -1], ['_id', -1]], skip: offset, limit })
    // Stored SyncRun records have the answer's shape; the serializer leaves out their bookkeeping fields.
    return { items: page.items as unknown as Static<typeof SyncRunItem>[], total: page.total, limit, offset }
  })
}
