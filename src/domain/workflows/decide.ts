import { barred, checkRuns } from './definition.js'
import { applied, checkComment, draftOf, refuse, unchanged, type Draft } from './result.js'
import { activate } from './rounds.js'
import { approvalsOfRound, stageOutcome } from './status.js'
import {
  decisions, type Actor, type ApprovalStatus, type ApproverDirectory, type Decision, type Outcome, type Refusal,
  type StageApproval, type StageInstance, type WorkflowAction, type WorkflowDefinition, type WorkflowInstance,
} from './types.js'

const statusOf: Record<Decision, ApprovalStatus> = { approve: 'approved', reject: 'rejected', request_revision: 'revision_requested' }
const overrideAction: Record<Decision, WorkflowAction> = {
  approve: 'override_approve', reject: 'override_reject', request_revision: 'override_request_revision',
}

export interface DecideInput {
  readonly actor: Actor
  readonly decision: Decision
  readonly comment?: string
  /** Key of the stage the caller decides on, as they last saw the instance; the active stage when absent. */
  readonly stage?: string
  /** An admin deciding for the stage without having been asked; needs a written reason in `comment`. */
  readonly override?: boolean
  /** Who holds each role now, for the stage the decision may activate. */
  readonly directory: ApproverDirectory
  readonly now: Date
}

function approvalOf(stage: StageInstance, round: number, person: string): StageApproval | undefined {
  return approvalsOfRound(stage, round).find((a) => a.approver === person)
}

/**
 * The stage a decision is about: the one named (callers that may repeat a request name the stage they
 * saw, so a repeat cannot land on the next stage), else for an override the stage the caller already
 * overrode or the active one, else the active stage when the caller is asked there, else the last stage
 * of the round the caller took part in (a repeat of a decision that moved the instance on).
 */
function targetStage(instance: WorkflowInstance, input: DecideInput): StageInstance | Refusal {
  if (input.stage !== undefined) {
    return instance.stages.find((s) => s.key === input.stage) ?? refuse('not_found', `the workflow has no stage ${input.stage}`, 'stage')
  }
  const current = instance.stages.find((s) => s.key === instance.current_stage)!
  const mine = (stage: StageInstance) => approvalOf(stage, instance.round, input.actor.id)
  if (input.override) return instance.stages.find((s) => mine(s)?.source === 'override') ?? current
  if (mine(current)?.status === 'pending') return current
  return instance.stages.filter((s) => mine(s)).at(-1) ?? current
}

/** The stage's outcome after a decision: the next stage activates, or the instance closes or waits for revision. */
function settle(draft: Draft<WorkflowInstance>, definition: WorkflowDefinition, index: number, input: DecideInput): Refusal | undefined {
  const stage = draft.stages[index]!
  switch (stageOutcome(definition.stages[index]!, approvalsOfRound(stage, draft.round))) {
    case 'open': return undefined
    case 'rejected':
      stage.status = 'rejected'
      for (const later of draft.stages.slice(index + 1)) later.status = 'skipped'
      draft.status = 'rejected'
      return undefined
    case 'revision_requested':
      // The stage waits with the rest for the resubmission, which starts again from the first stage.
      stage.status = 'waiting'
      draft.status = 'revision_requested'
      return undefined
    case 'approved':
      stage.status = 'approved'
      if (index + 1 < draft.stages.length) return activate(draft, definition, index + 1, input.directory, input.now)
      draft.status = 'approved'
      return undefined
  }
}

/**
 * An approver's decision (approve, reject, request revision) on the stage they were asked in, or an
 * admin's override of the active stage. Repeating a decision already taken changes nothing; a
 * different one, or one on an instance no longer in review, is a conflict.
 */
export function decide<I extends WorkflowInstance>(instance: I, definition: WorkflowDefinition, input: DecideInput): Outcome<I> {
  const invalid = checkRuns(instance, definition) ?? checkComment(input.comment)
  if (invalid) return invalid
  if (!(decisions as readonly string[]).includes(input.decision)) {
    return refuse('invalid', `decision must be one of ${decisions.join(', ')}`, 'decision')
  }
  const { actor } = input
  if (barred(instance).has(actor.id)) {
    return refuse('forbidden', actor.id === instance.submitter
      ? 'no one decides on their own submission'
      : 'conflict of interest: no one decides on an entity about them or on a nomination they made, admins included')
  }
  const stage = targetStage(instance, input)
  if ('ok' in stage) return stage
  const mine = approvalOf(stage, instance.round, actor.id)
  const wanted = statusOf[input.decision]
  if (mine?.status === wanted) return unchanged(instance)
  if (mine?.status === 'delegated') return refuse('forbidden', `the approval was delegated to ${delegateOf(stage, instance.round, actor.id)}, who decides now`)
  if (mine && mine.status !== 'pending') return refuse('conflict', `already ${mine.status.replace('_', ' ')} in stage ${stage.key} of round ${instance.round}`)
  if (instance.status !== 'in_review') return refuse('conflict', `the instance is ${instance.status}`)
  if (stage.status !== 'active') return refuse('conflict', `stage ${stage.key} is ${stage.status}`)
  if (!mine && !input.override) {
    return refuse('forbidden', `not asked to decide in stage ${stage.key}${actor.admin ? '; an admin may override with a written reason' : ''}`)
  }
  if (!mine && !actor.admin) return refuse('forbidden', 'only an admin overrides')
  if (!mine && !input.comment?.trim()) return refuse('invalid', 'an override needs a written reason', 'comment')

  const draft = draftOf(instance)
  const index = instance.stages.indexOf(stage)
  const target = draft.stages[index]!
  const at = input.now.toISOString()
  const comment = input.comment !== undefined ? { comment: input.comment } : {}
  if (mine) {
    const approval = target.approvals.find((a) => a.round === draft.round && a.approver === actor.id)!
    Object.assign(approval, { status: wanted, decided_at: at, ...comment })
    delete approval.overdue
    draft.history.push({
      at, actor: actor.id, action: input.decision, stage: stage.key, round: draft.round, ...comment,
      ...(approval.on_behalf_of !== undefined ? { on_behalf_of: approval.on_behalf_of } : {}),
    })
  } else {
    target.approvals.push({ approver: actor.id, status: wanted, source: 'override', round: draft.round, decided_at: at, ...comment })
    draft.history.push({ at, actor: actor.id, action: overrideAction[input.decision], stage: stage.key, round: draft.round, ...comment })
  }
  return settle(draft, definition, index, input) ?? applied(instance, draft)
}

function delegateOf(stage: StageInstance, round: number, delegator: string): string {
  return approvalsOfRound(stage, round).find((a) => a.on_behalf_of === delegator)?.approver ?? 'someone else'
}
