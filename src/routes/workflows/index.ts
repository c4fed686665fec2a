import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { installValidation } from '../../http/validation.js'
import { WorkflowConflictError } from '../../workflows/errors.js'
import { workflowAnswers } from './answers.js'
import { workflowEngineRoutes } from './definitions.js'
import { workflowDomainRoutes } from './domains.js'

/**
 * The workflow routes (docs/workflows.md): each domain's, generated from the registry, and /api/workflows.
 * None declares a response cache: every answer concerns one student's or person's review and is
 * computed for the caller.
 */
export const workflowRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // A conflict answers with the instance and entity as they are now; any other error goes on to the
  // app's handler, as an error thrown by an encapsulated handler does.
  app.setErrorHandler((error, _request, reply) => {
    if (!(error instanceof WorkflowConflictError)) throw error
    return reply.code(409).send({
      success: false, error: error.message, statusCode: 409, code: error.code,
      ...(error.instance ? { instance: error.instance } : {}), ...(error.entity ? { entity: error.entity } : {}),
    })
  })
  const answers = workflowAnswers(app.schema)
  for (const shared of answers.shared) app.addSchema(shared)
  // A context that adds schemas gets a schema controller of its own, which would validate with Fastify's
  // default engine; the app's validation is installed again here so these routes validate as all others.
  installValidation(app)
  workflowDomainRoutes(app, answers)
  workflowEngineRoutes(app, answers)
}
