/**
 * A dry run's diff, from the job's result (`result.diff`: per kind, the records a real run would
 * create, update and deactivate). The job route types a result only as an object, so its shape is
 * checked here before it is shown; nothing is derived from it but the rows to list.
 */
import { ScrollRegion } from '../components/scroll-region'

type Fields = Record<string, unknown>
export interface Change {
  readonly kind: string
  readonly action: 'create' | 'update' | 'deactivate'
  readonly sourcedId: string
  readonly row: number | null
  readonly record: string | null
  readonly fields: string
}

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value)
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : [])

function shown(fields: unknown): string {
  if (!isObject(fields)) return ''
  return Object.entries(fields)
    .filter(([, value]) => value !== null && value !== undefined && typeof value !== 'object')
    .map(([name, value]) => `${name}: ${String(value)}`)
    .join('; ')
}

function change(kind: string, action: Change['action'], entry: unknown): Change {
  const e = isObject(entry) ? entry : {}
  const source = isObject(e.source) ? e.source : {}
  return {
    kind,
    action,
    sourcedId: typeof source.sourced_id === 'string' ? source.sourced_id : '—',
    row: typeof e.row === 'number' ? e.row : null,
    record: typeof e._id === 'string' ? e._id : null,
    fields: shown(action === 'create' ? e.values : e.set),
  }
}

/** The diff's changes, kind by kind, or null when the result carries no diff. */
export function changesOf(result: Fields | null): Change[] | null {
  if (!result || !isObject(result.diff)) return null
  return Object.entries(result.diff).flatMap(([kind, plan]) => {
    const p = isObject(plan) ? plan : {}
    return (['create', 'update', 'deactivate'] as const).flatMap((action) => list(p[action]).map((entry) => change(kind, action, entry)))
  })
}

export function SyncDiff({ changes }: { changes: readonly Change[] }) {
  if (changes.length === 0) return <p>A real run would change nothing.</p>
  return (
    <ScrollRegion label="What a real run would change">
      <table>
        <caption>What a real run would change</caption>
        <thead>
          <tr><th scope="col">Kind</th><th scope="col">Change</th><th scope="col">Sourced id</th><th scope="col">Feed row</th><th scope="col">Record</th><th scope="col">Fields</th></tr>
        </thead>
        <tbody>
          {changes.map((c, i) => (
            <tr key={`${c.kind}:${c.action}:${c.sourcedId}:${i}`}>
              <td>{c.kind}</td>
              <td>{c.action}</td>
              <td>{c.sourcedId}</td>
              <td>{c.row ?? '—'}</td>
              <td>{c.record ?? '—'}</td>
              <td>{c.fields}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  )
}
