import { useEffect, useRef, useState, type DragEvent, type FormEvent } from 'react'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { messageOf } from '../lib/errors'
import { Alert } from '../components/ui'
import { boardTerms, defaultTarget, moveEntry, termPattern, termWarnings, warningsOn, type Entry } from './plan-board'
import { Projection } from './projection'

type Plan = components['schemas']['StudentPlanDetail']
type Course = components['schemas']['Course']
type Degree = components['schemas']['Degree']
type Status = components['schemas']['PlannedCourseStatus']
type Warning = components['schemas']['PlanWarning']

const statuses: readonly Status[] = ['planned', 'enrolled', 'completed']
let nextKey = 0

const entriesOf = (plan: Plan): Entry[] => plan.planned_courses.map((c) => ({ key: nextKey++, course: c.course, term: c.term, status: c.status ?? 'planned' }))

/** The fields a change sends; later changes made while one is saving are merged into the next save. */
interface Patch {
  readonly plan_name?: string
  readonly target_degree?: string
  readonly planned_courses?: readonly Entry[]
}

const warningCount = (n: number) => (n === 1 ? '1 warning' : `${n} warnings`)

interface CardProps {
  readonly entry: Entry
  readonly course: Course | undefined
  readonly warnings: readonly Warning[]
  readonly terms: readonly string[]
  readonly onMove: (term: string) => void
  readonly onStatus: (status: Status) => void
  readonly onRemove: () => void
  readonly onDrag: (dragging: boolean) => void
}

/**
 * One planned course. It moves by drag, or from the keyboard with its "Move … to" choice and button,
 * which work the same for a switch or a screen reader; its warnings are on it, and describe its controls.
 */
function Card({ entry, course, warnings, terms, onMove, onStatus, onRemove, onDrag }: CardProps) {
  const code = course?.course_code ?? entry.course
  const here = `${code} in ${entry.term}`
  const others = terms.filter((t) => t !== entry.term)
  const [target, setTarget] = useState('')
  const chosen = others.includes(target) ? target : defaultTarget(terms, entry.term) ?? ''
  const warned = warnings.length > 0
  const warningsId = `card-${entry.key}-warnings`

  function start(event: DragEvent<HTMLLIElement>) {
    // Some browsers start no drag without data; the code is what a drop elsewhere would get.
    event.dataTransfer.setData('text/plain', code)
    event.dataTransfer.effectAllowed = 'move'
    onDrag(true)
  }

  return (
    <li className={warned ? 'card warned' : 'card'} data-card={entry.key} draggable onDragStart={start} onDragEnd={() => onDrag(false)}>
      <p className="card-title"><strong>{code}</strong>{course && <> {course.title}</>}</p>
      <p className="card-meta">{course ? `${course.credits} credits` : 'Not in the catalog list'}{entry.status !== 'planned' && `, ${entry.status}`}</p>
      {warned && (
        <ul id={warningsId} className="card-warnings" aria-label={`Warnings about ${here}`}>
          {warnings.map((w) => <li key={w.kind}>{w.message}</li>)}
        </ul>
      )}
      <div className="card-actions">
        {others.length > 0 ? (
          <span className="card-move">
            <span aria-hidden="true">Move to</span>
            <select className="move" aria-label={`Move ${here} to`} value={chosen} onChange={(event) => setTarget(event.target.value)} aria-describedby={warned ? warningsId : undefined}>
              {others.map((t) => <option key={t} value={t}>{t}</option>)}
            </select>
            <button type="button" aria-label={`Move ${code}`} onClick={() => onMove(chosen)}>Move</button>
          </span>
        ) : null}
        <select aria-label={`Status of ${here}`} value={entry.status} onChange={(event) => onStatus(event.target.value as Status)}>
          {statuses.map((s) => <option key={s} value={s}>{s}</option>)}
        </select>
        <button type="button" onClick={onRemove} aria-label={`Remove ${here}`}>Remove</button>
      </div>
    </li>
  )
}

/**
 * A plan as terms side by side. Every change (a move, an added or removed course, a status, the name)
 * is saved at once with the version last read, one save at a time; the API's answer brings the
 * warnings, shown on the course they concern, and a new version, on which the projected progress is
 * asked again. A refused save shows the server's message and puts the board back as the server has it.
 */
export function PlanEditor({ plan, focus, courses, degrees, onSaved }: { plan: Plan; focus: boolean; courses: readonly Course[]; degrees: readonly Degree[]; onSaved: (plan: Plan) => void }) {
  const [entries, setEntries] = useState<Entry[]>(() => entriesOf(plan))
  // Terms stay on the board once shown, so a column emptied by a move is still there to move back to.
  const [kept, setKept] = useState<readonly string[]>([])
  const [warnings, setWarnings] = useState<readonly Warning[]>(plan.warnings)
  const [version, setVersion] = useState(plan._version)
  const [name, setName] = useState(plan.plan_name)
  const [degree, setDegree] = useState(plan.target_degree)
  const [said, setSaid] = useState('')
  const [failure, setFailure] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [approved, setApproved] = useState(Boolean(plan.approved_at))
  const [newTerm, setNewTerm] = useState('')
  const [termError, setTermError] = useState<string | null>(null)
  const [adding, setAdding] = useState({ course: '', term: '' })
  const [addError, setAddError] = useState<string | null>(null)
  const [over, setOver] = useState<string | null>(null)
  const latest = useRef(plan)
  const pending = useRef<{ patch: Patch; message: string } | null>(null)
  const running = useRef(false)
  const dragged = useRef<number | null>(null)
  const focusAfter = useRef<string | null>(null)
  const board = useRef<HTMLDivElement>(null)
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => { if (focus) heading.current?.focus() }, [focus])

  const terms = boardTerms(entries, kept)
  const byId = new Map(courses.map((c) => [c._id, c]))
  const codeOf = (id: string) => byId.get(id)?.course_code ?? id

  // A change from the keyboard leaves the focus where the person can go on: the moved card, or the
  // column a course left.
  useEffect(() => {
    const selector = focusAfter.current
    focusAfter.current = null
    if (selector) board.current?.querySelector<HTMLElement>(selector)?.focus()
  }, [entries])

  async function flush() {
    if (running.current) return
    running.current = true
    setSaving(true)
    while (pending.current) {
      const { patch, message } = pending.current
      pending.current = null
      try {
        const saved = await api('put', '/api/student-plans/{id}', {
          path: { id: plan._id },
          body: {
            _version: latest.current._version,
            ...(patch.plan_name === undefined ? {} : { plan_name: patch.plan_name }),
            ...(patch.target_degree === undefined ? {} : { target_degree: patch.target_degree }),
            ...(patch.planned_courses ? { planned_courses: patch.planned_courses.map(({ course, term, status }) => ({ course, term, status })) } : {}),
          },
        })
        latest.current = saved
        setApproved(Boolean(saved.approved_at))
        setWarnings(saved.warnings)
        setVersion(saved._version)
        onSaved(saved)
        if (!pending.current) setSaid(`${message} Saved${saved.warnings.length ? `, with ${warningCount(saved.warnings.length)}` : ''}.`)
      } catch (error) {
        pending.current = null
        // The board goes back to the plan as the server has it: read again, since a refusal is most
        // often someone else's change (a 409), after which the version the board holds is stale.
        const server = await api('get', '/api/student-plans/{id}', { path: { id: plan.student } })
          .then((answer) => answer.items.find((p) => p._id === plan._id) ?? latest.current, () => latest.current)
        latest.current = server
        onSaved(server)
        setApproved(Boolean(server.approved_at))
        setWarnings(server.warnings)
        setVersion(server._version)
        setEntries(entriesOf(server))
        setName(server.plan_name)
        setDegree(server.target_degree)
        setSaid('')
        setFailure(`${message} Not saved: ${messageOf(error)}`)
      }
    }
    running.current = false
    setSaving(false)
  }

  function change(patch: Patch, message: string) {
    setFailure(null)
    setSaid(`${message} Saving…`)
    pending.current = { patch: { ...pending.current?.patch, ...patch }, message }
    void flush()
  }

  function changeCourses(next: Entry[], message: string) {
    setKept(terms)
    setEntries(next)
    change({ planned_courses: next }, message)
  }

  function move(key: number, term: string, fromKeyboard: boolean) {
    const entry = entries.find((e) => e.key === key)
    if (!entry || entry.term === term) return
    if (fromKeyboard) focusAfter.current = `[data-card="${key}"] select.move`
    changeCourses(moveEntry(entries, key, term), `${codeOf(entry.course)} moved from ${entry.term} to ${term}.`)
  }

  function remove(entry: Entry) {
    focusAfter.current = `[data-term="${entry.term}"] h3`
    changeCourses(entries.filter((e) => e.key !== entry.key), `${codeOf(entry.course)} removed from ${entry.term}.`)
  }

  function setStatus(entry: Entry, status: Status) {
    changeCourses(entries.map((e) => (e.key === entry.key ? { ...e, status } : e)), `${codeOf(entry.course)} in ${entry.term} marked ${status}.`)
  }

  function addTerm(event: FormEvent) {
    event.preventDefault()
    const term = newTerm.trim().toUpperCase()
    if (!termPattern.test(term)) {
      setTermError('A term is the year’s last two digits and a season letter, W, S, U or F: 27S.')
      return
    }
    setTermError(null)
    setNewTerm('')
    setKept([...terms, term])
    setAdding({ ...adding, term })
    setSaid(terms.includes(term) ? `${term} is already on the plan.` : `${term} added: move or add courses to it.`)
  }

  function addCourse(event: FormEvent) {
    event.preventDefault()
    const term = terms.includes(adding.term) ? adding.term : terms.at(-1) ?? ''
    if (!adding.course || !term) {
      setAddError(!term ? 'Add a term first.' : 'Choose a course to add.')
      return
    }
    setAddError(null)
    changeCourses([...entries, { key: nextKey++, course: adding.course, term, status: 'planned' }], `${codeOf(adding.course)} added to ${term}.`)
    setAdding({ course: '', term })
  }

  function saveDetails(event: FormEvent) {
    event.preventDefault()
    change({ plan_name: name, target_degree: degree }, 'Name and degree changed.')
  }

  function dragOver(event: DragEvent<HTMLElement>, term: string) {
    if (dragged.current === null) return
    event.preventDefault()
    event.dataTransfer.dropEffect = 'move'
    if (over !== term) setOver(term)
  }

  function drop(event: DragEvent<HTMLElement>, term: string) {
    const key = dragged.current
    if (key === null) return
    event.preventDefault()
    dragged.current = null
    setOver(null)
    move(key, term, false)
  }

  const addTermTo = terms.includes(adding.term) ? adding.term : terms.at(-1) ?? ''
  return (
    <section aria-labelledby="editing" className="planner">
      <h2 id="editing" ref={heading} tabIndex={-1}>Edit {plan.plan_name}</h2>
      <form onSubmit={saveDetails} className="plan-details" noValidate>
        <span>
          <label htmlFor="plan-name">Plan name</label>
          <input id="plan-name" maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
        </span>
        <span>
          <label htmlFor="plan-degree">Degree</label>
          <select id="plan-degree" value={degree} onChange={(event) => setDegree(event.target.value)}>
            {degrees.map((d) => <option key={d._id} value={d._id}>{d.name} ({d.degree_type})</option>)}
          </select>
        </span>
        <button type="submit">Save name and degree</button>
      </form>
      {approved && <p className="note">This plan is approved: a change voids the approval, and the plan then needs a new review.</p>}
      <p className="hint">Drag a course to another term, or use its “Move” choice and button. Each change is saved at once.</p>
      <p role="status" className="plan-status">{said}</p>
      {failure && <Alert>{failure}</Alert>}
      <div className="terms" ref={board} aria-busy={saving}>
        {terms.length === 0 && <p>No terms yet: add the first term below.</p>}
        {terms.map((term) => {
          const here = entries.filter((e) => e.term === term)
          const credits = here.reduce((sum, e) => sum + (byId.get(e.course)?.credits ?? 0), 0)
          return (
            <section key={term} data-term={term} aria-label={`Term ${term}`} className={over === term ? 'term over' : 'term'}
              onDragOver={(event) => dragOver(event, term)} onDragLeave={() => setOver((o) => (o === term ? null : o))} onDrop={(event) => drop(event, term)}>
              <h3 tabIndex={-1}>{term}</h3>
              <p className="term-credits">{here.length === 1 ? '1 course' : `${here.length} courses`}, {credits} credits</p>
              {termWarnings(warnings, term).map((w) => <p key={w.kind} className="warning term-warning">{w.message}</p>)}
              {here.length === 0 ? <p className="empty">No courses: drag one here or move one to {term}.</p> : (
                <ul className="cards" aria-label={`Courses in ${term}`}>
                  {here.map((entry) => (
                    <Card key={entry.key} entry={entry} course={byId.get(entry.course)} warnings={warningsOn(warnings, entry)} terms={terms}
                      onMove={(to) => move(entry.key, to, true)} onStatus={(s) => setStatus(entry, s)} onRemove={() => remove(entry)}
                      onDrag={(on) => { dragged.current = on ? entry.key : null; if (!on) setOver(null) }} />
                  ))}
                </ul>
              )}
            </section>
          )
        })}
      </div>
      <div className="plan-forms">
        <form onSubmit={addCourse} noValidate aria-labelledby="add-course-heading">
          <h3 id="add-course-heading">Add a course</h3>
          <label htmlFor="add-course">Course</label>
          <select id="add-course" value={adding.course} aria-invalid={addError === 'Choose a course to add.' || undefined} aria-describedby={addError ? 'add-course-error' : undefined}
            onChange={(event) => setAdding({ ...adding, course: event.target.value })}>
            <option value="">Choose a course</option>
            {courses.map((c) => <option key={c._id} value={c._id}>{c.course_code}: {c.title}</option>)}
          </select>
          {terms.length > 0 && (
            <>
              <label htmlFor="add-term">Term</label>
              <select id="add-term" value={addTermTo} onChange={(event) => setAdding({ ...adding, term: event.target.value })}>
                {terms.map((t) => <option key={t} value={t}>{t}</option>)}
              </select>
            </>
          )}
          {addError && <p id="add-course-error" role="alert" className="alert">{addError}</p>}
          <div className="actions"><button type="submit">Add course</button></div>
        </form>
        <form onSubmit={addTerm} noValidate aria-labelledby="add-term-heading">
          <h3 id="add-term-heading">Add a term</h3>
          <label htmlFor="new-term">Term, e.g. 27S</label>
          <input id="new-term" size={5} maxLength={3} autoComplete="off" value={newTerm} aria-invalid={termError ? true : undefined} aria-describedby={termError ? 'new-term-error' : undefined}
            onChange={(event) => setNewTerm(event.target.value)} />
          {termError && <p id="new-term-error" role="alert" className="alert">{termError}</p>}
          <div className="actions"><button type="submit">Add term</button></div>
        </form>
      </div>
      <Projection student={plan.student} plan={plan._id} version={version} />
    </section>
  )
}
