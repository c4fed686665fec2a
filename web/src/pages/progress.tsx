import { useParams } from 'react-router'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { Alert, Loading, ProgressBar, Title, useLoad } from '../ui'
import { WhatIf } from './student/what-if'

type Group = components['schemas']['GroupProgress']

function GroupSection({ group }: { group: Group }) {
  const remaining = group.rules.filter((rule) => !rule.satisfied)
  const headingId = `group-${group._id}`
  return (
    <section aria-labelledby={headingId} className="group">
      <h2 id={headingId}>{group.name}</h2>
      <ProgressBar value={group.progress} label={`${group.name} progress`} />
      <h3>Satisfied</h3>
      {group.satisfied_rules.length === 0 ? <p>None yet.</p> : (
        <ul>
          {group.satisfied_rules.map((rule) => (
            <li key={rule._id}>{rule.name}{rule.courses.length > 0 && `: ${rule.courses.map((c) => c.course_code).join(', ')}`}</li>
          ))}
        </ul>
      )}
      <h3>Remaining</h3>
      {remaining.length === 0 ? <p>Nothing remains.</p> : (
        <ul>
          {remaining.map((rule) => <li key={rule._id}>{rule.name}{rule.remaining && `: ${rule.remaining.text}`}</li>)}
        </ul>
      )}
    </section>
  )
}

export default function Progress() {
  const id = useParams().id ?? ''
  const progress = useLoad(() => api('get', '/api/students/{id}/degree-progress', { path: { id } }), [id])
  if (progress.state === 'loading') return <><Title>Degree progress</Title><Loading /></>
  if (progress.state === 'failed') return <><Title>Degree progress</Title><Alert>{progress.error}</Alert></>
  const { student, degree, overall_progress: overall, rules_satisfied: satisfied, rules_total: total, groups } = progress.data
  return (
    <>
      <Title>{`Degree progress: ${student.first_name} ${student.last_name}`}</Title>
      <p>{degree.name} ({degree.degree_type}): {satisfied} of {total} rules satisfied.</p>
      <ProgressBar value={overall} label="Overall progress" />
      {groups.map((group) => <GroupSection key={group._id} group={group} />)}
      <WhatIf student={student._id} current={degree} />
    </>
  )
}
