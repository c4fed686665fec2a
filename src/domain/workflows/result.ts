import type { Outcome, Refusal, RefusalCode, WorkflowInstance } from './types.js'

export const maxCommentLength = 10_000

export function refuse(code: RefusalCode, reason: string, field?: string): Refusal {
  return field === undefined ? { ok: false, code, reason } : { ok: false, code, reason, field }
}

/**
 * The edited copy over the caller's instance: the engine knows only the workflow fields, so the rest of
 * the caller's type (system fields, say) is taken from the original, which the copy was made from.
 */
export function applied<I extends WorkflowInstance>(instance: I, draft: Draft<WorkflowInstance>): Outcome<I> {
  return { ok: true, instance: { ...instance, ...draft }, applied: true }
}

/** A new instance, which has only the engine's fields until the caller stores it. */
export function started(draft: Draft<WorkflowInstance>): Outcome {
  return { ok: true, instance: draft, applied: true }
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
