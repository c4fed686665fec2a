import { useEffect, useState } from 'react'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { messageOf } from '../lib/errors'
import { Alert, ProgressBar } from '../components/ui'

type Progress = components['schemas']['DegreeProgress']

interface Answered {
  /** The plan version the answer is for. */
  readonly version: number
  /** The last audit shown: kept through a failed read, so the bars do not vanish. */
  readonly progress: Progress | null
  readonly failure: string | null
}

/**
 * The plan's projected progress, the server's audit with the plan's courses counted as passed
 * (`?plan=`, docs/degree-audit.md). Asked again whenever the plan has a new version, so it follows the
 * board; the last answer stays up while the next is asked, so the bars do not flicker on every move.
 */
export function Projection({ student, plan, version }: { student: string; plan: string; version: number }) {
  const [answered, setAnswered] = useState<Answered | null>(null)

  useEffect(() => {
    let current = true
    api('get', '/api/students/{id}/degree-progress', { path: { id: student }, query: { plan } }).then(
      (progress) => { if (current) setAnswered({ version, progress, failure: null }) },
      (error: unknown) => { if (current) setAnswered((last) => ({ version, progress: last?.progress ?? null, failure: messageOf(error) })) },
    )
    return () => { current = false }
  }, [student, plan, version])

  const shown = answered?.progress
  const projection = shown?.projection
  return (
    <section aria-labelledby="projection-heading" aria-busy={answered?.version !== version} className="projection">
      <h3 id="projection-heading">Projected progress</h3>
      {answered?.failure && <Alert>{answered.failure}</Alert>}
      {!answered && <p>Asking the audit…</p>}
      {shown && projection && (
        <>
          <p>
            {shown.degree.name} ({shown.degree.degree_type}): {shown.rules_satisfied} of {shown.rules_total} rules satisfied now;
            {' '}{projection.rules_satisfied} of {projection.rules_total} with this plan completed.
          </p>
          <ul className="bars">
            <li>Now<ProgressBar value={shown.overall_progress} label="Overall progress now" /></li>
            <li>With this plan<ProgressBar value={shown.projected_progress ?? projection.overall_progress} label="Projected overall progress" /></li>
          </ul>
          <h4>Each group, with this plan</h4>
          <ul className="bars">
            {projection.groups.map((group) => (
              <li key={group._id}>{group.name}<ProgressBar value={group.progress} label={`Projected: ${group.name} progress`} /></li>
            ))}
          </ul>
        </>
      )}
    </section>
  )
}
