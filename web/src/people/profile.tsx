import { useState, type FormEvent } from 'react'
import { api, ApiError } from '../api/client'
import type { components } from '../api/schema'
import { useLoad } from '../hooks/use-load'
import { messageOf } from '../lib/errors'
import { Alert, Loaded, Title } from '../components/ui'
import { PersonLink } from '../components/links'
import { draftOf, ProfileFields, updateOf } from './profile-fields'

type Person = components['schemas']['Person']
type Update = components['schemas']['OwnPersonUpdate']
type Outcome = { readonly ok: boolean; readonly text: string } | null

/** Sends an edit of the caller's own record; the outcome to show, and the record the server answers, if it saved. */
async function send(body: Update): Promise<{ outcome: Outcome; saved?: Person }> {
  try {
    return { outcome: { ok: true, text: 'Saved.' }, saved: await api('put', '/api/auth/me/person', { body }) }
  } catch (error) {
    return { outcome: { ok: false, text: messageOf(error) } }
  }
}

function OutcomeNote({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null
  return outcome.ok ? <p role="status">{outcome.text}</p> : <Alert>{outcome.text}</Alert>
}

function Editor({ initial }: { initial: Person }) {
  const [person, setPerson] = useState(initial)
  const [draft, setDraft] = useState(() => draftOf(initial))
  const [outcome, setOutcome] = useState<Outcome>(null)
  const [busy, setBusy] = useState(false)

  async function save(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setOutcome(null)
    const { outcome, saved } = await send(updateOf(person, draft))
    if (saved) {
      setPerson(saved)
      setDraft(draftOf(saved))
    }
    setOutcome(outcome)
    setBusy(false)
  }

  async function reload() {
    setOutcome(null)
    try {
      const fresh = await api('get', '/api/auth/me/person', {})
      setPerson(fresh)
      setDraft(draftOf(fresh))
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) })
    }
  }

  // An undergraduate's public page is for admins only (docs/privacy.md), so no link leads them to a refusal.
  const publicPage = person.type !== 'UndergraduateStudent'
  return (
    <form onSubmit={(event) => { void save(event) }} aria-label="Your profile" noValidate>
      <p>
        {person.first_name} {person.last_name}{person.email && `, ${person.email}`}
        {publicPage && <> (<PersonLink id={person._id}>your public page</PersonLink>)</>}. Your name and email come from the department's records.
      </p>
      <ProfileFields draft={draft} setDraft={setDraft} faculty={person.type === 'Faculty'} />
      <div className="actions">
        <button type="submit" disabled={busy}>Save</button>
        <button type="button" onClick={() => { void reload() }}>Reload</button>
      </div>
      <OutcomeNote outcome={outcome} />
    </form>
  )
}

/** The caller's own record from the self route (docs/auth.md), or null when no record is linked to them. */
async function ownPerson(): Promise<Person | null> {
  try {
    return await api('get', '/api/auth/me/person', {})
  } catch (error) {
    if (error instanceof ApiError && error.code === 'ADKS_PERSON_NOT_LINKED') return null
    throw error
  }
}

/**
 * The caller's own Person with its current values, whatever its kind: GET /api/auth/me/person serves it
 * to undergraduates too, whose record GET /api/people/:id keeps for admins.
 */
export default function Profile() {
  const own = useLoad(ownPerson, [])
  return (
    <>
      <Title>Your profile</Title>
      <Loaded state={own}>{(data) => !data && <p>You have no profile: no department record is linked to your account.</p>}</Loaded>
      {own.state === 'ready' && own.data && <Editor initial={own.data} />}
    </>
  )
}
