import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { principalOf } from '../../auth/plugin.js'
import { actorOf } from '../../http/actor.js'
import type { DefinitionInput } from '../../workflows/types.js'
import type { WorkflowDomainKey } from '../../workflows/registry.js'
import { idPattern } from '../../schema/typebox.js'
import { noQuery, pageOf, paging } from '../shared.js'
import { errorResponses } from '../responses.js'
import type { workflowAnswers } from './answers.js'
import { actorId, entityParams } from './schemas.js'

type App = Parameters<FastifyPluginAsyncTypebox>[0]

const tags = ['Workflows']
const seen = 'Signed-in users, never API keys: the submitter, the entity\'s student, the approvers asked and admins; to anyone else an instance does not exist (404).'

/** /api/workflows: the definitions, and the instances across domains (docs/workflows.md). */
export function workflowEngineRoutes(app: App, answers: ReturnType<typeof workflowAnswers>): void {
  const { workflows, schema } = app
  const definitionParams = entityParams('Workflow')
  const instanceParams = entityParams('WorkflowInstance')
  const entityClasses = schema.class('WorkflowEntity')!.concrete
  // The input schema is generated from the class schema, so it is typed here as the service takes it.
  const DefinitionBody = Type.Unsafe<DefinitionInput>(answers.DefinitionInput)

  app.get('/api/workflows', {
    config: { policy: allow.signedIn },
    schema: {
      tags, summary: 'Workflow definitions: every version of each domain\'s', querystring: noQuery,
      description: 'Signed-in users, never API keys.',
      response: { 200: Type.Object({ items: Type.Array(answers.Definition) }), ...errorResponses(401, 403) },
    },
  }, async (request) => workflows.catalog.definitions(principalOf(request)))

  app.get('/api/workflows/:id', {
    config: { policy: allow.signedIn },
    schema: {
      tags, summary: 'One workflow definition', params: definitionParams, querystring: noQuery, description: 'Signed-in users, never API keys.',
      response: { 200: answers.Definition, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => workflows.catalog.definition(principalOf(request), request.params.id))

  app.post('/api/workflows', {
    config: { policy: allow.admin },
    schema: {
      tags, summary: 'Add a workflow definition', querystring: noQuery, body: DefinitionBody,
      description: 'Admins only. The stages are checked: keys unique, a quorum with policy quorum and only then, a group only on committee stages. Its version is one past the domain\'s latest.',
      response: { 201: answers.Definition, ...errorResponses(400, 401, 403, 409, 413) },
    },
  }, async (request, reply) => {
    const created = await workflows.catalog.createDefinition(principalOf(request), actorOf(request), request.body)
    reply.code(201).header('location', `/api/workflows/${encodeURIComponent(created._id)}`)
    return created
  })

  app.put('/api/workflows/:id', {
    config: { policy: allow.admin },
    schema: {
      tags, summary: 'Change a workflow definition: makes its next version', params: definitionParams, querystring: noQuery, body: DefinitionBody,
      description: 'Admins only. The definition itself never changes: the answer is a new version, which submissions from now on use; instances keep the version they started with.',
      response: { 200: answers.Definition, ...errorResponses(400, 401, 403, 404, 409, 413) },
    },
  }, async (request) => workflows.catalog.updateDefinition(principalOf(request), actorOf(request), request.params.id, request.body))

  app.get('/api/workflows/instances', {
    config: { policy: allow.signedIn },
    schema: {
      tags, summary: 'Workflow instances the caller may see, newest first', description: seen,
      querystring: Type.Object({
        ...paging,
        domain: Type.Optional(Type.Unsafe<WorkflowDomainKey>({ ...schema.builder.enumSchema('WorkflowDomain'), description: 'Only this domain\'s' })),
        status: Type.Optional({ ...schema.builder.enumSchema('InstanceStatus'), description: 'Only instances in this status' }),
        entity: Type.Optional(Type.String({ pattern: idPattern(entityClasses), 'x-reference': 'WorkflowEntity', description: 'Only the instance of this entity' })),
        submitter: Type.Optional(actorId('Only instances this person or user submitted')),
      }, { additionalProperties: false }),
      response: { 200: pageOf(answers.Instance), ...errorResponses(400, 401, 403) },
    },
  }, async (request) => {
    const { domain, status, entity, submitter, limit, offset } = request.query
    return workflows.catalog.instances(principalOf(request), {
      limit, offset,
      ...(domain !== undefined ? { domain } : {}), ...(status !== undefined ? { status: String(status) } : {}),
      ...(entity !== undefined ? { entity } : {}), ...(submitter !== undefined ? { submitter } : {}),
    })
  })

  app.get('/api/workflows/instances/:id', {
    config: { policy: allow.signedIn },
    schema: {
      tags, summary: 'One workflow instance, with the stages still to come and whom they would ask', params: instanceParams, querystring: noQuery, description: seen,
      response: { 200: answers.InstanceDetail, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => workflows.catalog.instance(principalOf(request), request.params.id))

  app.get('/api/workflows/instances/:id/stages', {
    config: { policy: allow.signedIn },
    schema: {
      tags, summary: 'The stages of a workflow instance, with their approvals of every round', params: instanceParams, querystring: noQuery, description: seen,
      response: { 200: Type.Object({ items: Type.Array(answers.StageView) }), ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => workflows.catalog.stages(principalOf(request), request.params.id))
}
