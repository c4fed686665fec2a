import type { ApproverDirectory, Outcome, WorkflowDefinition, WorkflowInstance } from '../../../src/domain/workflows/index.js'

/** The honors thesis workflow as docs/workflows.md seeds it: the advisors, all of them; then one department admin. */
export const thesis: WorkflowDefinition = {
  _id: 'Workflow/thesis', domain: 'honors_thesis', name: 'Honors thesis', version: 1,
  stages: [
    { key: 'advisor', name: 'Advisor', approver_role: 'advisor', policy: 'all', due_in_days: 7 },
    { key: 'department', name: 'Department', approver_role: 'department_admin', policy: 'any' },
  ],
}

/** Fellowships: advisor, then a committee group with a quorum of 2, then the department. */
export const fellowship: WorkflowDefinition = {
  _id: 'Workflow/fellowship', domain: 'fellowships', name: 'Fellowship', version: 2,
  stages: [
    { key: 'advisor', name: 'Advisor', approver_role: 'advisor', policy: 'any' },
    { key: 'committee', name: 'Fellowship committee', approver_role: 'committee_member', group: 'Group/fellows', policy: 'quorum', quorum: 2, due_in_days: 10 },
    { key: 'department', name: 'Department', approver_role: 'department_admin', policy: 'any' },
  ],
}

export const directory: ApproverDirectory = {
  roles: {
    advisor: ['Faculty/ada', 'Faculty/alan'],
    committee_member: ['Faculty/grace', 'Faculty/edsger'],
    department_admin: ['User/root', 'User/chief'],
  },
  groups: { 'Group/fellows': ['Faculty/grace', 'Faculty/edsger', 'Faculty/barbara', 'Faculty/ada'] },
}

export const student = 'UndergraduateStudent/sam'
export const t0 = new Date('2025-09-01T12:00:00.000Z')

/** `days` after t0. */
export function later(days: number): Date {
  return new Date(t0.getTime() + days * 86_400_000)
}

/** The instance of an outcome that must have succeeded; fails loudly with the refusal otherwise. */
export function instanceOf<I extends WorkflowInstance>(outcome: Outcome<I>): I {
  if (!outcome.ok) throw new Error(`refused (${outcome.code}): ${outcome.reason}`)
  return outcome.instance
}

/** A stage's approvals of a round as `approver:status` pairs, for compact assertions. */
export function standing(instance: WorkflowInstance, stageKey: string, round = instance.round): string[] {
  const stage = instance.stages.find((s) => s.key === stageKey)!
  return stage.approvals.filter((a) => a.round === round).map((a) => `${a.approver}:${a.status}`)
}
