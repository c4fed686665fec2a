import { useId } from 'react'
import type { components } from '../api/schema'
import { HistoryPanel } from '../history'

type Plan = components['schemas']['StudentPlanDetail']

interface Props {
  readonly plans: readonly Plan[]
  /** The plans whose history is shown: kept by the page, so a reload of its plans leaves them open. */
  readonly open: readonly string[]
  readonly onToggle: (plan: string) => void
}

function PlanHistory({ plan, open, onToggle }: { plan: Plan; open: boolean; onToggle: () => void }) {
  const id = useId()
  return (
    <li>
      <button type="button" aria-expanded={open} aria-controls={open ? id : undefined} onClick={onToggle}>{`History of ${plan.plan_name}`}</button>
      {/* The plan's version: a save shows up in an open history at once. Plans have no restore route. */}
      {open && <HistoryPanel id={id} level={3} title={`History of ${plan.plan_name}`} source={{ path: '/api/student-plans/{id}/history', params: { id: plan._id } }} version={plan._version} />}
    </li>
  )
}

/**
 * Each plan's history (docs/history.md), read-only, behind a disclosure of its own: every read of a
 * student's history is audited, so none is read until someone asks for it.
 */
export function PlanHistories({ plans, open, onToggle }: Props) {
  return (
    <section aria-labelledby="plan-histories">
      <h2 id="plan-histories">Plan histories</h2>
      <ul className="disclosures">
        {plans.map((plan) => <PlanHistory key={plan._id} plan={plan} open={open.includes(plan._id)} onToggle={() => onToggle(plan._id)} />)}
      </ul>
    </section>
  )
}
