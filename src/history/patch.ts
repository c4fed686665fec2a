import jsonPatch, { type Operation } from 'fast-json-patch'

export type { Operation }

/** One changed value of a revision, as the history answers show it. */
export interface FieldChange {
  readonly path: string
  readonly before?: unknown
  readonly after?: unknown
}

type State = Record<string, unknown>

/**
 * The RFC 6902 patch from `before` to `after`, with a `test` of the old value before every `replace` and
 * `remove`: the patch then holds both sides of each change, so history can be walked backwards from the
 * record as it is now (`undo`), and the oldest revisions pruned without losing the way back.
 */
export function diff(before: State, after: State): Operation[] {
  return jsonPatch.compare(before, after, true)
}

/** The state before the patch, given the state after it. */
export function undo(after: State, patch: readonly Operation[]): State {
  const inverse: Operation[] = []
  for (let i = patch.length - 1; i >= 0; i--) {
    const op = patch[i]!
    const tested = i > 0 && patch[i - 1]!.op === 'test' && patch[i - 1]!.path === op.path ? (patch[i - 1] as { value: unknown }).value : undefined
    if (op.op === 'add') inverse.push({ op: 'remove', path: op.path })
    else if (op.op === 'replace') inverse.push({ op: 'replace', path: op.path, value: tested })
    else if (op.op === 'remove') inverse.push({ op: 'add', path: op.path, value: tested })
  }
  return jsonPatch.applyPatch(structuredClone(after), inverse, false, true).newDocument
}

/** The state after the patch, given the state before it. */
export function redo(before: State, patch: readonly Operation[]): State {
  return jsonPatch.applyPatch(structuredClone(before), patch.filter((op) => op.op !== 'test'), false, true).newDocument
}

/** The changes a patch makes, each with its value before and after; `hidden` paths (bookkeeping) left out. */
export function changesOf(patch: readonly Operation[], hidden: (path: string) => boolean = () => false): FieldChange[] {
  const changes: FieldChange[] = []
  patch.forEach((op, i) => {
    if (op.op === 'test' || hidden(op.path)) return
    const previous = patch[i - 1]
    const before = previous?.op === 'test' && previous.path === op.path ? previous.value : undefined
    if (op.op === 'add') changes.push({ path: op.path, after: op.value })
    else if (op.op === 'replace') changes.push({ path: op.path, before, after: op.value })
    else if (op.op === 'remove') changes.push({ path: op.path, before })
  })
  return changes
}
