import { api } from '../api/client'
import type { components } from '../api/schema'
import { useLoad } from '../hooks/use-load'
import { Pending } from '../components/ui'
import { useNames } from './names'
import { when } from '../lib/dates'

type Instance = components['schemas']['WorkflowInstanceDetail']

function words(value: string): string {
  return value.replace(/_/g, ' ')
}

function everyone(instance: Instance): string[] {
  return [
    ...instance.stages.flatMap((s) => (s.approvals ?? []).flatMap((a) => [a.approver, ...(a.on_behalf_of ? [a.on_behalf_of] : [])])),
    ...instance.history.map((h) => h.actor),
    ...instance.preview.flatMap((p) => p.approvers),
  ]
}

/** Who may decide now: the pending approvers of the active stage in the current round. */
function next(instance: Instance): string[] {
  if (instance.status !== 'in_review') return []
  const stage = instance.stages.find((s) => s.key === instance.current_stage)
  return (stage?.approvals ?? []).filter((a) => a.round === instance.round && a.status === 'pending').map((a) => a.approver)
}

/** A request's route: its stages, who decided what with their comments, who is next, and its history. */
export function RequestRoute({ instance: id, version }: { instance: string; version: number }) {
  const loaded = useLoad(() => api('get', '/api/workflows/instances/{id}', { path: { id } }), [id], version)
  const instance = loaded.state === 'ready' ? loaded.data : null
  const name = useNames(instance ? everyone(instance) : [])
  if (loaded.state !== 'ready') return <Pending state={loaded} />
  const data = loaded.data
  const waiting = next(data)
  return (
    <section aria-labelledby="route">
      <h3 id="route">Route</h3>
      <p>
        Round {data.round}, {words(data.status)}.{' '}
        {data.status === 'in_review' && (waiting.length
          ? `Next: ${waiting.map(name).join(', ')} (stage ${data.current_stage}).`
          : `Stage ${data.current_stage} is under way.`)}
      </p>
      <ol className="route">
        {data.stages.map((stage) => {
          const coming = data.preview.find((p) => p.key === stage.key)
          return (
            <li key={stage.key}>
              <strong>{stage.key}</strong>: {words(stage.status)}{stage.due_at && stage.status === 'active' ? `, due ${when(stage.due_at, '')}` : ''}
              {coming && coming.approvers.length > 0 && <> (would ask {coming.approvers.map(name).join(', ')})</>}
              {(stage.approvals ?? []).length > 0 && (
                <ul>
                  {(stage.approvals ?? []).map((a, i) => (
                    <li key={i}>
                      Round {a.round}: {name(a.approver)}{a.on_behalf_of ? ` for ${name(a.on_behalf_of)}` : ''}: {words(a.status)}
                      {a.decided_at && `, ${when(a.decided_at, '')}`}{a.overdue ? ' (overdue)' : ''}
                      {a.comment && <>: “{a.comment}”</>}
                    </li>
                  ))}
                </ul>
              )}
            </li>
          )
        })}
      </ol>
      <h3>History</h3>
      <table>
        <thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">Stage</th><th scope="col">Round</th><th scope="col">Comment</th></tr></thead>
        <tbody>
          {data.history.map((h, i) => (
            <tr key={i}>
              <td>{when(h.at, '')}</td>
              <td>{name(h.actor)}{h.on_behalf_of ? ` for ${name(h.on_behalf_of)}` : ''}</td>
              <td>{words(h.action)}{h.delegate_to ? ` to ${name(h.delegate_to)}` : ''}</td>
              <td>{h.stage ?? ''}</td>
              <td>{h.round}</td>
              <td>{h.comment ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  )
}
