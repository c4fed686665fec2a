/**
 * The approval workflow engine (docs/workflows.md): pure functions from an instance, its definition and an
 * action to the next instance or a refusal. No I/O; the caller passes the time and who holds each role.
 */
export * from './types.js'
export { checkDefinition, approversOf, barred, exclude } from './definition.js'
export { maxCommentLength } from './result.js'
export { start, resubmit, dueAt, type StartInput, type ResubmitInput } from './rounds.js'
export { decide, type DecideInput } from './decide.js'
export { delegate, type DelegateInput } from './delegate.js'
export { withdraw, type WithdrawInput } from './withdraw.js'
export { voidApproval, type VoidInput } from './void.js'
export { markOverdue, markDueSoon, escalate, escalatesAt, systemActor } from './overdue.js'
export { stageOutcome, entityStatusOf, milestoneStatusOf, isFinal, activeStage, pendingApprovals, approvalsOfRound, type StageOutcome } from './status.js'
