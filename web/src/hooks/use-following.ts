import { useState } from 'react'

/**
 * A field's state that starts as `value` and starts over whenever `value` changes: a search box that
 * follows the address, so a link to the list (the navigation's) clears it. It is set again while
 * rendering, where React advises it, rather than in an effect a render later. `key` says when two
 * values are the same (by default, Object.is).
 */
export function useFollowing<T>(value: T, key: (value: T) => unknown = (v) => v): [T, (next: T) => void] {
  const [state, setState] = useState({ value, from: key(value) })
  let current = state
  if (!Object.is(state.from, key(value))) {
    current = { value, from: key(value) }
    setState(current)
  }
  const from = current.from
  return [current.value, (next: T) => setState({ value: next, from })]
}
