import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { RecordNotFound } from '../../errors.js'
import { enqueueRevert, runActor, type RevertedRuns } from '../../reverts/jobs.js'
import { errorResponses } from '../responses.js'
import { emptyBody, JobAccepted, noQuery } from '../shared.js'

const RevertBody = Type.Object({
  dryRun: Type.Optional(Type.Boolean({ description: 'Report what the revert would do; write nothing' })),
}, { additionalProperties: false })

const routes: readonly { runs: RevertedRuns; path: string; noun: string; param: string }[] = [
  { runs: 'sync', path: '/api/campus-sync/runs/:id/revert', noun: 'campus sync run', param: 'The SyncRun id (SyncRun/<id>), URL-encoded' },
  { runs: 'import', path: '/api/publications/import-runs/:id/revert', noun: 'publication import run', param: "The run id, as the import's job result gives it (run_id)" },
]

/**
 * Undoing a whole run (docs/history.md), as a job with progress: every record the run wrote goes back to what
 * it was before the run, except those someone changed since, which the job reports as conflicts. The
 * revert is a run of its own (listed in /api/campus-sync/runs), so it can be reverted in turn. Admins only.
 */
export const revertRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const { runs, path, noun, param } of routes) {
    app.post(path, {
      config: { policy: allow.admin },
      preValidation: emptyBody,
      schema: {
        tags: ['Administration'], summary: `Revert a ${noun}`, description: 'Answers at once with the job; its result lists what was reverted and what was left as others changed it.',
        params: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200, description: param }) }), querystring: noQuery, body: RevertBody,
        response: { 202: JobAccepted, ...errorResponses(400, 401, 403, 404, 503) },
      },
    }, async (request, reply) => {
      const { id } = request.params
      const actor = runActor(runs, id)
      const wrote = actor ? await app.history.revisions.findOne({ actor }) : null
      if (!wrote) throw new RecordNotFound(`${id} is not a run that wrote any record`)
      const { id: jobId } = await enqueueRevert(app.jobs, runs, id, request.body.dryRun === true)
      reply.code(202)
      return { jobId }
    })
  }
}
