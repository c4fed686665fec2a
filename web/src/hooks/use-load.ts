import { useEffect, useState, type DependencyList } from 'react'
import { messageOf } from '../lib/errors'

export type LoadState<T> = { readonly state: 'loading' } | { readonly state: 'ready'; readonly data: T } | { readonly state: 'failed'; readonly error: string }

const loading = { state: 'loading' } as const

/** Whether two dependency lists hold the same values, compared as useEffect compares them. */
export function sameDeps(a: DependencyList, b: DependencyList): boolean {
  return a.length === b.length && a.every((value, i) => Object.is(value, b[i]))
}

/**
 * Loads once per change of `deps`, and is loading again from the render that changed them; an answer
 * that arrives after the page moved on is dropped. `deps` are what `load` reads, checked at each call by
 * the hooks lint (eslint.config.js names this hook); `again` is a count the page raises to read the same
 * thing again (after a write), kept apart because `load` does not read it.
 */
export function useLoad<T>(load: () => Promise<T>, deps: DependencyList, again = 0): LoadState<T> {
  const [settled, setSettled] = useState<{ readonly deps: DependencyList; readonly state: LoadState<T> } | null>(null)
  const key = [...deps, again]
  useEffect(() => {
    let current = true
    load().then(
      (data) => { if (current) setSettled({ deps: key, state: { state: 'ready', data } }) },
      (error: unknown) => { if (current) setSettled({ deps: key, state: { state: 'failed', error: messageOf(error) } }) },
    )
    return () => { current = false }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's list, checked where useLoad is called, and `again`; `load` is read anew whenever they change
  }, key)
  return settled && sameDeps(settled.deps, key) ? settled.state : loading
}
