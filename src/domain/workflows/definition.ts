import { refuse } from './result.js'
import type { ApproverDirectory, Refusal, WorkflowDefinition, WorkflowInstance, WorkflowStage } from './types.js'

/** A definition the engine can run: at least one stage, unique keys, a quorum exactly where the policy asks for one. */
export function checkDefinition(definition: WorkflowDefinition): Refusal | undefined {
  if (!definition.stages.length) return refuse('invalid', 'a workflow needs at least one stage', 'stages')
  const keys = new Set<string>()
  for (const [i, stage] of definition.stages.entries()) {
    const at = `stages[${i}]`
    if (keys.has(stage.key)) return refuse('invalid', `stage key ${stage.key} is used twice`, `${at}.key`)
    keys.add(stage.key)
    if (stage.policy === 'quorum' && !(Number.isInteger(stage.quorum) && stage.quorum! >= 1)) {
      return refuse('invalid', `stage ${stage.key}: policy quorum needs quorum, a whole number from 1`, `${at}.quorum`)
    }
    if (stage.policy !== 'quorum' && stage.quorum !== undefined) {
      return refuse('invalid', `stage ${stage.key}: quorum applies only to policy quorum`, `${at}.quorum`)
    }
    if (stage.group !== undefined && stage.approver_role !== 'committee_member') {
      return refuse('invalid', `stage ${stage.key}: a group names committee members, so it needs approver_role committee_member`, `${at}.group`)
    }
    if (stage.due_in_days !== undefined && !(Number.isInteger(stage.due_in_days) && stage.due_in_days >= 1)) {
      return refuse('invalid', `stage ${stage.key}: due_in_days must be a whole number from 1`, `${at}.due_in_days`)
    }
  }
  return undefined
}

/** The instance runs this very definition and version, or the caller passed the wrong one. */
export function checkRuns(instance: WorkflowInstance, definition: WorkflowDefinition): Refusal | undefined {
  if (instance.workflow === definition._id && instance.workflow_version === definition.version
    && instance.stages.length === definition.stages.length
    && instance.stages.every((stage, i) => stage.key === definition.stages[i]!.key)) return undefined
  return refuse('invalid', `the instance runs ${instance.workflow} version ${instance.workflow_version}, not ${definition._id} version ${definition.version}`, 'workflow')
}

/**
 * Everyone who may never decide on the instance: the submitter and the excluded (whom the entity is
 * about, and a nomination's nominator).
 */
export function barred(instance: Pick<WorkflowInstance, 'submitter' | 'excluded'>): ReadonlySet<string> {
  return new Set([instance.submitter, ...instance.excluded])
}

/**
 * The instance with `people` among its excluded as well. Those an entity names now (an edited nominee,
 * or an instance stored before its domain named them) are barred on top of those named at submission:
 * once excluded, always excluded for that instance.
 */
export function exclude<I extends WorkflowInstance>(instance: I, people: readonly string[]): I {
  const added = people.filter((person) => person !== instance.submitter && !instance.excluded.includes(person))
  return added.length ? { ...instance, excluded: [...instance.excluded, ...new Set(added)] } : instance
}

/** The people a stage asks, each once, leaving out those barred from deciding. */
export function approversOf(stage: WorkflowStage, directory: ApproverDirectory, barredPeople: ReadonlySet<string>): string[] {
  const holders = stage.group !== undefined ? directory.groups?.[stage.group] ?? [] : directory.roles[stage.approver_role] ?? []
  return [...new Set(holders)].filter((person) => !barredPeople.has(person))
}

/** Approvals a stage needs from the approvers its role asked. */
export function approvalsNeeded(stage: WorkflowStage, asked: number): number {
  switch (stage.policy) {
    case 'all': return asked
    case 'any': return 1
    case 'quorum': return stage.quorum!
  }
}

function roleName(stage: WorkflowStage): string {
  return stage.group !== undefined ? `committee_member (members of ${stage.group})` : stage.approver_role
}

/** Refuses a stage its approvers could never complete: nobody to ask, or fewer than its quorum. */
export function checkResolvable(stage: WorkflowStage, approvers: readonly string[]): Refusal | undefined {
  if (!approvers.length) return refuse('conflict', `stage ${stage.key} has nobody to decide: no ${roleName(stage)} who may decide on this entity`)
  const needed = approvalsNeeded(stage, approvers.length)
  if (approvers.length < needed) {
    return refuse('conflict', `stage ${stage.key} needs ${needed} approvals but only ${approvers.length} ${roleName(stage)} may decide on this entity`)
  }
  return undefined
}
