import { useEffect, useState, type DependencyList, type ReactNode } from 'react'
import { ApiError } from '../api/client'

/** A refusal or failure, announced, with the server's message. */
export function Alert({ children }: { children: ReactNode }) {
  return <p role="alert" className="alert">{children}</p>
}

export function messageOf(error: unknown): string {
  return error instanceof ApiError || error instanceof Error ? error.message : String(error)
}

/** A value from 0 to 1 as a bar, its value and name exposed as the API gave them. */
export function ProgressBar({ value, label }: { value: number; label: string }) {
  const percent = Math.round(value * 100)
  return (
    <div className="progress">
      <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={1} aria-valuenow={value} aria-valuetext={`${percent}%`} className="progress-track">
        <div className="progress-fill" style={{ width: `${percent}%` }} />
      </div>
      <span aria-hidden="true">{percent}%</span>
    </div>
  )
}

export type Loaded<T> = { readonly state: 'loading' } | { readonly state: 'ready'; readonly data: T } | { readonly state: 'failed'; readonly error: string }

/** Loads once per change of `deps`; an answer that arrives after the page moved on is dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: DependencyList): Loaded<T> {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' })
  useEffect(() => {
    let current = true
    setLoaded({ state: 'loading' })
    load().then(
      (data) => { if (current) setLoaded({ state: 'ready', data }) },
      (error: unknown) => { if (current) setLoaded({ state: 'failed', error: messageOf(error) }) },
    )
    return () => { current = false }
  }, deps)
  return loaded
}

/** The page's one <h1>, also its document title. */
export function Title({ children }: { children: string }) {
  useEffect(() => { document.title = `${children} · Department` }, [children])
  return <h1>{children}</h1>
}

/** A time the API gave, in the reader's own format; a dash for none. */
export function when(value: string | null | undefined): string {
  return value ? new Date(value).toLocaleString() : '—'
}

export function Loading() {
  return <p role="status">Loading…</p>
}
