import { useState, type FormEvent } from 'react'
import { api } from '../api/client'
import { useLoad } from '../hooks/use-load'
import { Alert, Loading } from '../components/ui'
import { milestoneTypes, type Field, type RequestKind } from './request-kinds'

interface Option { readonly value: string; readonly label: string }

/** The choices of the fields that pick a record, read once for the form. */
async function optionsFor(fields: readonly Field[]): Promise<Record<string, Option[]>> {
  const kinds = new Set(fields.map((f) => f.kind))
  const [faculty, students, advisees] = await Promise.all([
    kinds.has('faculty') ? api('get', '/api/people/faculty-options') : null,
    kinds.has('student') ? api('get', '/api/people', { query: { type: 'Student', limit: 200 } }) : null,
    // Lists leave students out for all but admins (docs/privacy.md): an advisor's are their advisees.
    kinds.has('advisee') ? api('get', '/api/advisees', { query: { limit: 200 } }) : null,
  ])
  return {
    faculty: faculty?.items.map((f) => ({ value: f._id, label: f.label })) ?? [],
    student: students?.items.map((p) => ({ value: p._id, label: `${p.first_name} ${p.last_name}` })) ?? [],
    advisee: advisees?.items.map((p) => ({ value: p._id, label: `${p.first_name} ${p.last_name}` })) ?? [],
    milestone: milestoneTypes.map((m) => ({ value: m, label: m.replace(/_/g, ' ') })),
  }
}

export interface Action {
  readonly label: string
  readonly run: (values: Readonly<Record<string, string>>) => void
}

/**
 * A request's fields, labelled, with the choices of those that pick a record. Each action button acts
 * on the values as entered; the first is the form's submit (Enter).
 */
export function RequestForm({ kind, initial, actions, busy, idPrefix }: {
  kind: RequestKind
  initial: Readonly<Record<string, string>>
  actions: readonly Action[]
  busy: boolean
  idPrefix: string
}) {
  const options = useLoad(() => optionsFor(kind.fields), [kind])
  const [values, setValues] = useState<Record<string, string>>(initial)
  if (options.state === 'loading') return <Loading />
  const choices = options.state === 'ready' ? options.data : {}

  function submit(event: FormEvent) {
    event.preventDefault()
    actions[0]?.run(values)
  }

  return (
    <form onSubmit={submit}>
      {options.state === 'failed' && <Alert>{options.error}</Alert>}
      {kind.fields.map((field) => {
        const id = `${idPrefix}-${field.name}`
        const value = values[field.name] ?? ''
        const set = (next: string) => setValues({ ...values, [field.name]: next })
        const label = field.optional ? `${field.label} (optional)` : field.label
        const picks = choices[field.kind]
        return (
          <div key={field.name}>
            <label htmlFor={id}>{label}</label>
            {field.kind === 'textarea' ? <textarea id={id} required={!field.optional} maxLength={10000} value={value} onChange={(event) => set(event.target.value)} />
              : picks ? (
                <select id={id} required={!field.optional} value={value} onChange={(event) => set(event.target.value)}>
                  <option value="">{field.optional ? 'None' : `Choose: ${field.label.toLowerCase()}`}</option>
                  {picks.map((o) => <option key={o.value} value={o.value}>{o.label}</option>)}
                </select>
              )
              : <input id={id} required={!field.optional} type={field.kind === 'text' ? 'text' : field.kind} step={field.kind === 'number' ? 'any' : undefined} value={value} onChange={(event) => set(event.target.value)} />}
          </div>
        )
      })}
      <div className="actions">
        {actions.map((action, i) => (
          <button key={action.label} type={i === 0 ? 'submit' : 'button'} disabled={busy} onClick={i === 0 ? undefined : (event) => {
            // The other actions still need the fields the browser checks.
            if (event.currentTarget.form?.reportValidity()) action.run(values)
          }}>{action.label}</button>
        ))}
      </div>
    </form>
  )
}
