import { useEffect, useState, type KeyboardEvent } from 'react'
import { api } from '../api/client'
import { useLoad } from '../hooks/use-load'
import { Alert, Loading } from './ui'

/** Matches offered at once; more words narrow the search. */
const limit = 10
/** Typing pauses this long before a search is sent, so each key press is not a request. */
const settleMs = 250

interface Props {
  /** Distinguishes the picker's fields' ids on the page. */
  readonly id: string
  /** The field's label, e.g. "Find a delegate". */
  readonly label: string
  /** The choice's group name, e.g. "Delegate to". */
  readonly legend: string
  readonly chosen: string
  readonly onChoose: (id: string) => void
}

/**
 * Finds people by name through the API's people search and lets one be chosen, by radio button, so the
 * choice is made with the keyboard as with the mouse. Whom the search shows, the server decides.
 */
export function PersonPicker({ id, label, legend, chosen, onChoose }: Props) {
  const [typed, setTyped] = useState('')
  const [query, setQuery] = useState('')
  useEffect(() => {
    const timer = setTimeout(() => setQuery(typed.trim()), settleMs)
    return () => clearTimeout(timer)
  }, [typed])
  const found = useLoad(() => (query.length >= 2 ? api('get', '/api/search/people', { query: { q: query, limit } }) : Promise.resolve(null)), [query])

  // Enter searches at once, and does not submit the form around the picker.
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return
    event.preventDefault()
    setQuery(typed.trim())
  }

  return (
    <div className="picker">
      <label htmlFor={`${id}-search`}>{label}</label>
      <input id={`${id}-search`} type="search" autoComplete="off" value={typed} onChange={(event) => setTyped(event.target.value)} onKeyDown={onKeyDown} />
      {found.state === 'loading' && query.length >= 2 && <Loading />}
      {found.state === 'failed' && <Alert>{found.error}</Alert>}
      {found.state === 'ready' && found.data && (found.data.results.length === 0 ? <p>No one matches “{found.data.query}”.</p> : (
        <fieldset>
          <legend>{legend}</legend>
          <ul>
            {found.data.results.map((person) => (
              <li key={person._id}>
                <label className="check">
                  <input type="radio" name={`${id}-choice`} value={person._id} checked={chosen === person._id} onChange={() => onChoose(person._id)} />
                  {' '}{person.label}{person.detail && ` (${person.detail})`}
                </label>
              </li>
            ))}
          </ul>
        </fieldset>
      ))}
    </div>
  )
}
