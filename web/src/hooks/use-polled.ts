import { useEffect, useState, type DependencyList } from 'react'
import type { components } from '../api/schema'
import { type LoadState } from './use-load'
import { messageOf } from '../lib/errors'

type Job = components['schemas']['Job']

/** Between two reads of a running job: often enough for a bar to move, rare enough to spare the API. */
const pollMs = 1000

/** A job the server still has to finish (its state, as the API answers it). */
export function running(job: Pick<Job, 'state'>): boolean {
  return job.state === 'waiting' || job.state === 'active'
}

/**
 * Loads on every change of `deps` (and on `reload`), then again after a pause for as long as `more`
 * says the answer is still moving; stops when it is not, or when the page leaves. While it polls, the
 * last answer stays on screen.
 */
export function usePolled<T>(load: () => Promise<T>, deps: DependencyList, more: (data: T) => boolean): [LoadState<T>, () => void] {
  const [loaded, setLoaded] = useState<LoadState<T>>({ state: 'loading' })
  const [version, setVersion] = useState(0)
  useEffect(() => {
    let current = true
    let timer: ReturnType<typeof setTimeout> | undefined
    const read = () => load().then(
      (data) => {
        if (!current) return
        setLoaded({ state: 'ready', data })
        if (more(data)) timer = setTimeout(read, pollMs)
      },
      (error: unknown) => { if (current) setLoaded({ state: 'failed', error: messageOf(error) }) },
    )
    void read()
    return () => {
      current = false
      clearTimeout(timer)
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's list (checked where usePolled is called) and the reload count; `load` and `more` are read anew whenever they change
  }, [...deps, version])
  return [loaded, () => setVersion((v) => v + 1)]
}
