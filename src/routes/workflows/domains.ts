import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type TSchema } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'
import { allow } from '../../auth/permissions.js'
import { principalOf } from '../../auth/plugin.js'
import { actorOf } from '../../http/actor.js'
import { registry, type DomainSpec, type WorkflowDomainKey } from '../../workflows/registry.js'
import type { EntityView } from '../../workflows/types.js'
import { Deleted, noQuery, pageOf, paging, recordBody } from '../shared.js'
import { errorResponses } from '../responses.js'
import { HistoryPage, historyQuery } from '../records/history-schemas.js'
import {
  actorId, combinedDecisionBody, DecisionBody, delegateBody, entityParams, entitySchemas, entityStatusQuery, NoBody, RevisionBody, WithdrawBody,
} from './schemas.js'
import { workflowAnswers } from './answers.js'

type App = Parameters<FastifyPluginAsyncTypebox>[0]
type Answers = ReturnType<typeof workflowAnswers>

export const workflowTag = 'Workflows'
const tags = [workflowTag]

/** Domains whose create takes only some fields, the service deriving the rest (docs/workflows.md: POST {plan} submits a plan). */
const createFields: Partial<Record<WorkflowDomainKey, readonly string[]>> = { major_plans: ['plan'] }

/** What a create says beyond who may see the entity (docs/workflows.md, "The domains"). */
const createHelp: Record<DomainSpec['submitterRule'], string> = {
  student: 'The student it is about (by default the caller), one of their advisors, or an admin.',
  self: 'Anyone, for themselves (the applicant defaults to the caller); admins for anyone.',
  nominator: 'Faculty, staff and admins, as the nominator (by default the caller), who never decides on the nomination.',
}
const who = 'Signed-in users, never API keys. Visible to the submitter, the student it is about, the approvers asked and admins; to anyone else it does not exist (404).'

/** A POST whose body is all optional may come with none, which stands for `{}`; what is sent is still validated. */
function emptyBody(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  request.body ??= {}
  done()
}

/** The query of a domain's list: paging, status, and the domain's own filters, typed as the fields they filter. */
function listQuery(app: App, spec: DomainSpec) {
  const cls = app.schema.class(spec.entityClass)!
  const filters = Object.fromEntries(Object.entries(spec.listFilters).map(([param, field]) => {
    const prop = cls.properties.find((p) => p.name === field)!
    const value = app.schema.builder.valueSchema(prop)
    return [param, Type.Optional({ ...value, description: `Only entities whose ${field} is this` } as TSchema)]
  }))
  // The domain's filters are generated from its registry row, so their names are known only at run time.
  return Type.Unsafe<DomainListQuery>(Type.Object({ ...paging, status: entityStatusQuery(app.schema), ...filters }, { additionalProperties: false }))
}

interface DomainListQuery {
  readonly limit: number
  readonly offset: number
  readonly status?: string
  readonly [filter: string]: string | number | undefined
}

/** The routes of one domain, generated from its registry row (docs/workflows.md, "The domains"). */
function domainRoutes(app: App, spec: DomainSpec, answers: Answers): void {
  const { workflows } = app
  const { domain, base, entityClass: noun, crud } = spec
  const schemas = entitySchemas(app.schema, noun, spec.ownerField, createFields[domain])
  const record = answers.Entity(schemas.record)
  // The entity's record, added once and referenced by every answer that carries it whole.
  app.addSchema({ ...schemas.record, $id: `${noun}Record` })
  const recordRef = Type.Unsafe<EntityView>(Type.Ref(`${noun}Record`))
  const params = entityParams(noun)
  const transition = answers.Transition(recordRef, noun)
  const decided = { 200: transition, ...errorResponses(400, 401, 403, 404), 409: answers.Conflict(recordRef) }
  const policy = allow.signedIn

  if (crud.list) {
    app.get(base, {
      config: { policy },
      schema: {
        tags, summary: `List ${noun} entities`, querystring: listQuery(app, spec),
        description: `The caller's own, those they are asked to decide, and all for admins; newest first. ${who}`,
        response: { 200: pageOf(recordRef), ...errorResponses(400, 401, 403) },
      },
    }, async (request) => {
      const { limit, offset, status, ...rest } = request.query
      const filters = Object.fromEntries(Object.entries(rest).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
      return workflows.list(domain, principalOf(request), { limit, offset, ...(status !== undefined ? { status } : {}), filters })
    })
  }

  if (crud.create) {
    app.post(base, {
      config: { policy },
      schema: {
        tags, summary: crud.submit ? `Create a ${noun} as a draft` : `Submit for approval: creates a ${noun} in review`,
        description: `${createHelp[spec.submitterRule]}${crud.submit ? '' : ' The review starts at once: 409 naming the role when a stage would have no approver.'} ${who}`,
        querystring: noQuery, body: recordBody(schemas.create),
        response: { 201: record, ...errorResponses(400, 401, 403, 404, 409, 413) },
      },
    }, async (request, reply) => {
      const principal = principalOf(request)
      const created = await workflows.create(domain, principal, actorOf(request), request.body)
      reply.code(201).header('location', `${base}/${encodeURIComponent(created._id)}`)
      // Created in review (major plans): answered with its instance, as a read would.
      return crud.submit ? created : workflows.get(domain, principal, created._id)
    })
  }

  if (crud.get) {
    app.get(`${base}/:id`, {
      config: { policy },
      schema: {
        tags, summary: `Get one ${noun}, with where its review stands`, description: who, params, querystring: noQuery,
        response: { 200: record, ...errorResponses(400, 401, 403, 404) },
      },
    }, async (request) => workflows.get(domain, principalOf(request), request.params.id))
  }

  if (crud.update) {
    app.put(`${base}/:id`, {
      config: { policy },
      schema: {
        tags, summary: `Change a ${noun} (draft or revision requested)`, params, querystring: noQuery,
        description: `The submitter, the student, their advisor or an admin. Send the fields to change; null removes an optional field. ${who}`,
        body: recordBody(schemas.update),
        response: { 200: recordRef, ...errorResponses(400, 401, 403, 404, 409, 413) },
      },
    }, async (request) => workflows.update(domain, principalOf(request), actorOf(request), request.params.id, request.body))
  }

  if (crud.delete) {
    app.delete(`${base}/:id`, {
      config: { policy },
      schema: {
        tags, summary: `Delete a draft ${noun}`, description: `Drafts only (else 409). ${who}`, params, querystring: noQuery,
        response: { 200: Deleted, ...errorResponses(400, 401, 403, 404, 409) },
      },
    }, async (request) => {
      const { id } = request.params
      await workflows.remove(domain, principalOf(request), actorOf(request), id)
      return { id, message: `${id} deleted` }
    })
  }

  if (crud.submit) {
    app.post(`${base}/:id/submit`, {
      config: { policy },
      schema: {
        tags, summary: `Submit a ${noun} for approval, or resubmit it after a revision request`,
        description: `Starts the review at the first stage (a resubmission starts the next round). 409 naming the role when a stage would have no approver. ${who}`,
        params, querystring: noQuery, body: NoBody, response: decided,
      },
      preValidation: emptyBody,
    }, async (request) => workflows.submit(domain, principalOf(request), actorOf(request), request.params.id))
  }

  app.post(`${base}/:id/withdraw`, {
    config: { policy },
    schema: {
      tags, summary: `Withdraw a ${noun} from review`, description: `The submitter, until the review is final. ${who}`,
      params, querystring: noQuery, body: WithdrawBody, response: decided,
    },
    preValidation: emptyBody,
  }, async (request) => workflows.withdraw(domain, principalOf(request), actorOf(request), request.params.id, request.body))

  app.get(`${base}/:id/history`, {
    config: { policy },
    schema: {
      tags, summary: `Every action taken on a ${noun}, oldest first`, description: `With the domain's legacy approval records. ${who}`,
      params, querystring: noQuery, response: { 200: Type.Object({ items: Type.Array(answers.HistoryItem) }), ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => workflows.history(domain, principalOf(request), request.params.id))

  app.get(`${base}/:id/revisions`, {
    config: { policy },
    schema: {
      tags, summary: `Every change to a ${noun}'s fields, newest first`, description: `Who changed which field, when, through what (docs/history.md). ${who}`,
      params, querystring: historyQuery, response: { 200: HistoryPage, ...errorResponses(400, 401, 403, 404) },
    },
  }, async (request) => {
    const { id } = request.params
    const { limit, offset } = request.query
    // Whoever sees the entity sees its revisions; to anyone else it does not exist.
    await workflows.get(domain, principalOf(request), id)
    return { ...await app.history.page(id, await app.records.get(id), { limit, offset }), limit, offset }
  })

  const decisionHelp = `A pending approver of the active stage, or an admin overriding with a written reason. No one decides on their own submission. The same decision twice answers as the first; a different one, a closed review or a lost race is 409 with the current state. ${who}`
  if (spec.decisionStyle === 'thesis') {
    for (const [path, decision, body, summary] of [
      ['approve', 'approve', DecisionBody, 'Approve'],
      ['reject', 'reject', DecisionBody, 'Reject'],
      ['request-revision', 'request_revision', RevisionBody, 'Ask the submitter to revise'],
    ] as const) {
      app.post(`${base}/:id/${path}`, {
        config: { policy },
        schema: { tags, summary: `${summary} a ${noun}`, description: decisionHelp, params, querystring: noQuery, body, response: decided },
        preValidation: emptyBody,
      }, async (request) => workflows.decide(domain, principalOf(request), actorOf(request), request.params.id, { decision, ...request.body }))
    }
    app.post(`${base}/:id/delegate`, {
      config: { policy },
      schema: {
        tags, summary: `Hand one's decision on a ${noun} to someone else`, params, querystring: noQuery, body: delegateBody(app.schema), response: decided,
        description: `The delegate decides on the delegator's behalf; they cannot delegate further, and the delegator no longer decides. ${who}`,
      },
    }, async (request) => workflows.delegate(domain, principalOf(request), actorOf(request), request.params.id, request.body))
  } else {
    app.post(`${base}/:id/decision`, {
      config: { policy },
      schema: {
        tags, summary: `Decide on a ${noun}: approve, reject, request a revision or delegate`, params, querystring: noQuery, body: combinedDecisionBody(app.schema), response: decided,
        description: `${decisionHelp} delegate_to goes with delegate and only with it; request_revision needs a comment.`,
      },
    }, async (request) => {
      const body = request.body
      if (body.decision !== 'delegate') return workflows.decide(domain, principalOf(request), actorOf(request), request.params.id, body)
      const { decision: _delegate, delegate_to: to, ...rest } = body
      return workflows.delegate(domain, principalOf(request), actorOf(request), request.params.id, { to, ...rest })
    })
  }

  app.get(spec.pendingPath, {
    config: { policy },
    schema: {
      tags, summary: `${noun} entities waiting for the caller's decision, oldest first`,
      description: 'Where the caller holds a pending approval in the active stage, directly or delegated to them (on_behalf_of). Admins may pass approver= to see another\'s queue. Never API keys.',
      querystring: Type.Object({ ...paging, approver: Type.Optional(actorId('Admins only: whose queue to show')) }, { additionalProperties: false }),
      response: { 200: pageOf(answers.PendingItem), ...errorResponses(400, 401, 403) },
    },
  }, async (request) => {
    const { approver, limit, offset } = request.query
    return workflows.pending(domain, principalOf(request), { limit, offset, ...(approver !== undefined ? { approver } : {}) })
  })
}

/** Every workflow domain's routes, from the one registry. */
export function workflowDomainRoutes(app: App, answers: Answers): void {
  for (const spec of registry.values()) domainRoutes(app, spec, answers)
}
