import { Link, useParams } from 'react-router'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { useLoad } from '../hooks/use-load'
import { Pending, ProgressBar, Title } from '../components/ui'
import { personTypes } from '../components/links'
import { WhatIf } from './what-if'
import './print.css'
import { day } from '../lib/dates'

type Progress = components['schemas']['DegreeProgress']
type Group = components['schemas']['GroupProgress']
type Counted = components['schemas']['CountedCourse']

const sources: Readonly<Record<Progress['degree_source'], string>> = {
  declared_major: 'the declared major',
  program: 'the graduate program',
  requested: 'the degree asked for',
}

/** A counted course as an advisor reads it on paper: code, term and grade. */
const counted = (c: Counted) => `${c.course_code} (${[c.term, c.grade].filter(Boolean).join(', ')})`

/** One requirement group as a card: its bar, the rules it has satisfied and what each other rule still needs. */
function GroupCard({ group }: { group: Group }) {
  const remaining = group.rules.filter((rule) => !rule.satisfied)
  const headingId = `group-${group._id}`
  return (
    <section aria-labelledby={headingId} className="group-card">
      <h2 id={headingId}>{group.name}</h2>
      <ProgressBar value={group.progress} label={`${group.name} progress`} />
      <h3>Satisfied</h3>
      {group.satisfied_rules.length === 0 ? <p>None yet.</p> : (
        <ul aria-label={`Satisfied in ${group.name}`}>
          {group.satisfied_rules.map((rule) => (
            <li key={rule._id}>{rule.name}{rule.courses.length > 0 && `: ${rule.courses.map(counted).join(', ')}`}</li>
          ))}
        </ul>
      )}
      <h3>Remaining</h3>
      {remaining.length === 0 ? <p>Nothing remains.</p> : (
        <ul aria-label={`Remaining in ${group.name}`}>
          {remaining.map((rule) => (
            <li key={rule._id}>
              {rule.name}{rule.remaining && `: ${rule.remaining.text}`}
              {rule.courses.length > 0 && <span className="so-far"> Counted so far: {rule.courses.map(counted).join(', ')}.</span>}
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

/**
 * The degree audit, the server's (docs/degree-audit.md): one header naming the student, the degree and
 * the day, then every requirement group as a card. "Print" gives the same audit on paper for an
 * advising meeting: print.css leaves out the navigation, the buttons and the what-if forms.
 */
export default function ProgressPage() {
  const id = useParams().id ?? ''
  const progress = useLoad(() => api('get', '/api/students/{id}/degree-progress', { path: { id } }), [id])
  if (progress.state !== 'ready') return <Pending title="Degree progress" state={progress} />
  const { student, degree, degree_source: source, overall_progress: overall, rules_satisfied: satisfied, rules_total: total, groups } = progress.data
  const name = `${student.first_name} ${student.last_name}`
  return (
    <div className="audit">
      <header className="audit-header">
        <Title>{`Degree progress: ${name}`}</Title>
        <dl className="audit-facts">
          <div><dt>Student:</dt><dd>{name}, {personTypes[student.type]?.toLowerCase() ?? student.type} ({student._id})</dd></div>
          <div><dt>Degree:</dt><dd>{degree.name} ({degree.degree_type}), {sources[source]}</dd></div>
          <div><dt>Audited:</dt><dd>{day(new Date().toISOString(), '', 'long')}</dd></div>
        </dl>
        <p>Overall: {satisfied} of {total} rules satisfied.</p>
        <ProgressBar value={overall} label="Overall progress" />
        <div className="actions no-print">
          <button type="button" onClick={() => window.print()}>Print</button>
          <Link to={`/students/${encodeURIComponent(student._id)}/transcript`}>Transcript</Link>
          <Link to={`/students/${encodeURIComponent(student._id)}/plans`}>Study plans</Link>
        </div>
      </header>
      <div className="audit-groups">
        {groups.map((group) => <GroupCard key={group._id} group={group} />)}
      </div>
      <div className="no-print">
        <WhatIf student={student._id} current={degree} />
      </div>
    </div>
  )
}
