import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox'
import type { CompiledSchema } from '../../schema/index.js'
import type { ActionResult, EntityView, InstanceDetail, InstanceSummary, StageInstanceView, StoredDefinition, StoredInstance } from '../../workflows/types.js'
import { objectSchema } from '../shared.js'

/** The object schema with more properties, which are required unless wrapped in Type.Optional. */
function extend(schema: TObject, properties: TProperties, title?: string): TObject {
  const { properties: own, type: _type, required = [], ...options } = schema
  const extended = Type.Object({ ...own, ...properties }, { ...options, ...(title ? { title } : {}) })
  return { ...extended, required: [...new Set([...required, ...(extended.required ?? [])])] }
}

const Moment = (description: string) => Type.String({ format: 'date-time', description })

const instanceId = 'WorkflowInstance'

/** The schemas of what the workflow routes answer, built once from the class schema. */
export function workflowAnswers(schema: CompiledSchema) {
  const classRecord = (name: string) => objectSchema(schema.builder.classSchema(name, 'record'))
  const instanceRecord = classRecord('WorkflowInstance')
  const Instance = extend(instanceRecord, { submitted_at: Type.Optional(Moment('When the entity was first submitted')) }, 'WorkflowInstance')

  const InstanceSummary = Type.Object({
    _id: Type.String({ description: 'The WorkflowInstance id' }),
    status: schema.builder.enumSchema('InstanceStatus'),
    round: Type.Integer(),
    current_stage: Type.String(),
    workflow: Type.String(),
    workflow_version: Type.Integer(),
    submitter: Type.String(),
  }, { title: 'WorkflowInstanceSummary', description: 'Where the entity\'s review stands; absent before the first submission' })

  const stageRecord = objectSchema(schema.builder.classSchema('StageInstance', 'record'))
  const StagePreview = Type.Object({
    key: Type.String(),
    name: Type.String(),
    approver_role: schema.builder.enumSchema('ApprovalRole'),
    policy: schema.builder.enumSchema('ApprovalPolicy'),
    status: schema.builder.enumSchema('StageStatus'),
    approvers: Type.Array(Type.String(), { description: 'Who the stage would ask if it activated now' }),
  }, { title: 'WorkflowStagePreview' })
  const InstanceDetail = extend(Instance, {
    preview: Type.Array(StagePreview, { description: 'The stages still to come, with the approvers they would ask now' }),
  }, 'WorkflowInstanceDetail')
  const StageView = extend(stageRecord, {
    name: Type.String(),
    approver_role: schema.builder.enumSchema('ApprovalRole'),
    policy: schema.builder.enumSchema('ApprovalPolicy'),
    quorum: Type.Optional(Type.Integer()),
  }, 'WorkflowStageView')

  const HistoryItem = Type.Object({
    at: Moment('When'),
    actor: Type.String({ description: 'Who acted' }),
    on_behalf_of: Type.Optional(Type.String({ description: 'Whose delegated approval the actor decided' })),
    action: Type.String({ description: 'submit, resubmit, approve, reject, request_revision, delegate, withdraw, override_*, overdue, escalate; a legacy row\'s decision' }),
    stage: Type.Optional(Type.String()),
    round: Type.Optional(Type.Integer()),
    comment: Type.Optional(Type.String()),
    delegate_to: Type.Optional(Type.String()),
    legacy: Type.Optional(Type.Literal(true, { description: 'A row of the read-only legacy approval records' })),
    source: Type.Optional(Type.String({ description: 'Where a legacy row came from' })),
  }, { title: 'WorkflowHistoryItem' })

  const PendingItem = Type.Object({
    id: Type.String({ description: 'The entity awaiting the decision' }),
    instance: Type.String({ description: 'Its WorkflowInstance id' }),
    title: Type.String(),
    stage: Type.String({ description: 'Key of the active stage' }),
    due_at: Type.Optional(Moment('When the decision is due')),
    overdue: Type.Boolean(),
    age_days: Type.Number({ description: 'Days since submission' }),
    on_behalf_of: Type.Optional(Type.String({ description: 'For a delegated approval: who delegated it' })),
    submitted_at: Moment('When the entity was first submitted'),
    submitter: Type.String({ description: 'Who submitted: their Person id, or their User id when they are linked to no Person' }),
    submitter_name: Type.Union([Type.String(), Type.Null()], { description: "The submitter's name, when they are a Person" }),
  }, { title: 'WorkflowPendingItem' })

  const Definition = classRecord('Workflow')
  const DefinitionBody = objectSchema(schema.builder.classSchema('Workflow', 'create'))
  const { version: _version, type: _typeField, ...definitionFields } = DefinitionBody.properties
  const DefinitionInput = Type.Object(definitionFields, {
    additionalProperties: false, title: 'WorkflowInput',
    description: 'A definition: its domain, name and stages. The version is assigned: 1 for a new domain, the next for PUT',
  })

  // Shared by every action route's 200 and 409: added once to the app (index.ts) and referenced, so the
  // OpenAPI document carries it once rather than in every operation.
  const instanceRef = Type.Unsafe<StoredInstance>(Type.Ref(instanceId))
  const shared = [{ ...Instance, $id: instanceId }]

  /** An entity's answer: the record, and its review once submitted. */
  const Entity = (record: TObject) => Type.Unsafe<EntityView & { instance?: InstanceSummary }>(extend(record, { instance: Type.Optional(InstanceSummary) }))
  /** What an action answers: the entity and its instance as they are now. */
  const Transition = (record: TSchema, noun: string) => Type.Unsafe<ActionResult>(Type.Object({ entity: record, instance: instanceRef }, { title: `${noun}Transition` }))
  /** A 409: the error, and the instance and entity as they are now, so the caller can see what won. */
  const Conflict = (record: TSchema) => Type.Object({
    success: Type.Literal(false),
    error: Type.String(),
    statusCode: Type.Integer(),
    code: Type.Literal('ADKS_WORKFLOW_CONFLICT'),
    instance: Type.Optional(instanceRef),
    entity: Type.Optional(record),
  }, { description: 'Conflict: a different decision after deciding, a closed review or a lost race; with the current state' })

  // Typed as the service returns them (interfaces, which a generated schema cannot spell); serialized by these schemas.
  return {
    Instance: instanceRef,
    shared,
    InstanceDetail: Type.Unsafe<InstanceDetail>(InstanceDetail),
    StageView: Type.Unsafe<StageInstanceView>(StageView),
    Definition: Type.Unsafe<StoredDefinition>(Definition),
    HistoryItem, PendingItem, DefinitionInput, Entity, Transition, Conflict,
  }
}
