import { useEffect, type ReactNode } from 'react'
import type { LoadState } from '../hooks/use-load'

/** A refusal or failure, announced, with the server's message. */
export function Alert({ children }: { children: ReactNode }) {
  return <p role="alert" className="alert">{children}</p>
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

/** The page's one <h1>, also its document title. */
export function Title({ children }: { children: string }) {
  useEffect(() => { document.title = `${children} · Department` }, [children])
  return <h1>{children}</h1>
}

export function Loading() {
  return <p role="status">Loading…</p>
}

/**
 * What a load shows, written once for every page: "Loading…" while it runs, the server's refusal as an
 * alert, and `children` of its answer once it has one; nothing for a read not asked for yet (`idle`).
 */
export function Loaded<T>({ state, children }: { state: LoadState<T> | { readonly state: 'idle' }; children: (data: T) => ReactNode }) {
  if (state.state === 'idle') return null
  if (state.state === 'loading') return <Loading />
  if (state.state === 'failed') return <Alert>{state.error}</Alert>
  return <>{children(state.data)}</>
}

/**
 * A load not answered yet, for a page that shows nothing else until it is: the page's heading (when
 * given) over "Loading…" or the server's refusal.
 */
export function Pending({ title, state }: { title?: string; state: { readonly state: 'loading' } | { readonly state: 'failed'; readonly error: string } }) {
  return (
    <>
      {title !== undefined && <Title>{title}</Title>}
      {state.state === 'loading' ? <Loading /> : <Alert>{state.error}</Alert>}
    </>
  )
}
