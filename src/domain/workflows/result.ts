import type { Outcome, Refusal, RefusalCode, WorkflowInstance } from './types.js'

export const maxCommentLength = 10_000

export function refuse(code: RefusalCode, reason: string, field?: string): Refusal {
  return field === undefined ? { ok: false, code, reason } : { ok: false, code, reason, field }
}

/** The edited copy as the caller's type: the copy keeps every field of the original, system fields too. */
export function applied<I extends WorkflowInstance>(draft: Draft<WorkflowInstance>): Outcome<I> {
  return { ok: true, instance: draft as unknown as I, applied: true }
}

/** A repeat of an action already taken: the instance as it is. */
export function unchanged<I extends WorkflowInstance>(instance: I): Outcome<I> {
  return { ok: true, instance, applied: false }
}

/** Counted in characters (code points), as JSON Schema's maxLength counts them. */
export function checkComment(comment: string | undefined, field = 'comment'): Refusal | undefined {
  if (comment === undefined) return undefined
  const length = [...comment].length
  return length > maxCommentLength
    ? refuse('invalid', `${field} is ${length} characters long; at most ${maxCommentLength} are allowed`, field)
    : undefined
}

/** A writable deep copy: the engine edits the copy, so the caller's instance is never changed. */
export type Draft<T> = T extends readonly (infer U)[] ? Draft<U>[] : T extends object ? { -readonly [K in keyof T]: Draft<T[K]> } : T

export function draftOf(instance: WorkflowInstance): Draft<WorkflowInstance> {
  return structuredClone(instance) as Draft<WorkflowInstance>
}
