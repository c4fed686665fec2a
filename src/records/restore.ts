import { internalFields } from './derived.js'

type State = Readonly<Record<string, unknown>>

const systemFields = new Set(['_id', 'type', '_version', '_created_at', '_updated_at', ...internalFields])

/** A past state's own fields, as a create of it takes them. */
export function restoreFields(target: State): Record<string, unknown> {
  return Object.fromEntries(Object.entries(target).filter(([field]) => !systemFields.has(field)))
}

/** The update that makes the record `current` into `target`: every field of the target, and null for each it lacks. */
export function restoreUpdate(current: State, target: State): Record<string, unknown> {
  const body = restoreFields(target)
  for (const field of Object.keys(current)) if (!systemFields.has(field) && !(field in target)) body[field] = null
  return body
}
