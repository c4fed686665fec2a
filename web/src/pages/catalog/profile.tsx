import { useState, type FormEvent } from 'react'
import { api, ApiError } from '../../api/client'
import type { components } from '../../api/schema'
import { useMe } from '../../shell'
import { Alert, Loading, messageOf, Title, useLoad } from '../../ui'
import { PersonLink } from './links'
import { changesOf, draftOf, emptyDraft, ProfileFields, updateOf, type Draft } from './profile-fields'

type Person = components['schemas']['Person']
type Update = components['schemas']['PersonUpdate']
type Outcome = { readonly ok: boolean; readonly text: string } | null

/** Sends an edit of the caller's Person; the outcome to show, and the record the server answers, if it saved. */
async function send(id: string, body: Update): Promise<{ outcome: Outcome; saved?: Person }> {
  try {
    return { outcome: { ok: true, text: 'Saved.' }, saved: await api('put', '/api/people/{id}', { path: { id }, body }) }
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
    const { outcome, saved } = await send(person._id, updateOf(person, draft))
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
      const fresh = await api('get', '/api/people/{id}', { path: { id: person._id } })
      setPerson(fresh)
      setDraft(draftOf(fresh))
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) })
    }
  }

  return (
    <form onSubmit={(event) => { void save(event) }} aria-label="Your profile" noValidate>
      <p>{person.first_name} {person.last_name}{person.email && `, ${person.email}`} (<PersonLink id={person._id}>your public page</PersonLink>). Your name and email come from the department's records.</p>
      <ProfileFields draft={draft} setDraft={setDraft} faculty={person.type === 'Faculty'} />
      <div className="actions">
        <button type="submit" disabled={busy}>Save</button>
        <button type="button" onClick={() => { void reload() }}>Reload</button>
      </div>
      <OutcomeNote outcome={outcome} />
    </form>
  )
}

/**
 * The profile of a record the server does not show its owner (an undergraduate's, DESIGN 6.1), which
 * they may still edit: the fields start empty and only those filled in are sent.
 */
function BlindEditor({ id, refusal }: { id: string; refusal: string }) {
  const [draft, setDraft] = useState<Draft>(emptyDraft)
  const [outcome, setOutcome] = useState<Outcome>(null)
  const [busy, setBusy] = useState(false)

  async function save(event: FormEvent) {
    event.preventDefault()
    const changes = changesOf(draft)
    if (Object.keys(changes).length === 0) {
      setOutcome({ ok: false, text: 'Nothing to save: fill in the fields to change.' })
      return
    }
    setBusy(true)
    setOutcome(null)
    setOutcome((await send(id, changes)).outcome)
    setBusy(false)
  }

  return (
    <form onSubmit={(event) => { void save(event) }} aria-label="Your profile" noValidate>
      <Alert>{refusal}</Alert>
      <p>The server does not show you your own record, so its current values are not shown here. You may still change your profile: fill in the fields to change; those left empty keep what your record holds.</p>
      <ProfileFields draft={draft} setDraft={setDraft} faculty={false} />
      <div className="actions">
        <button type="submit" disabled={busy}>Save</button>
      </div>
      <OutcomeNote outcome={outcome} />
    </form>
  )
}

type Own = { readonly person: Person } | { readonly refusal: string }

/** The caller's Person, or the server's refusal to show it (which leaves its profile editable). */
async function ownPerson(id: string): Promise<Own> {
  try {
    return { person: await api('get', '/api/people/{id}', { path: { id } }) }
  } catch (error) {
    if (error instanceof ApiError && (error.status === 403 || error.status === 404)) return { refusal: error.message }
    throw error
  }
}

/**
 * The caller's own Person, as the server links it (`personId` of GET /api/auth/me, DESIGN 5.1); the
 * server checks again, on saving, that the record is the caller's own.
 */
export default function Profile() {
  const { personId } = useMe()
  const own = useLoad(() => (personId ? ownPerson(personId) : Promise.resolve(null)), [personId])
  return (
    <>
      <Title>Your profile</Title>
      {own.state === 'loading' && <Loading />}
      {own.state === 'failed' && <Alert>{own.error}</Alert>}
      {own.state === 'ready' && !own.data && <p>You have no profile: no department record is linked to your account.</p>}
      {own.state === 'ready' && own.data && personId && ('person' in own.data ? <Editor initial={own.data.person} /> : <BlindEditor id={personId} refusal={own.data.refusal} />)}
    </>
  )
}
