import { useState, type FormEvent } from 'react'
import { api } from '../../api/client'
import type { components } from '../../api/schema'
import { useMe } from '../../shell'
import { Alert, Loading, messageOf, Title, useLoad } from '../../ui'
import { PersonLink } from './links'

type Person = components['schemas']['Person']
type Update = components['schemas']['PersonUpdate']

/** The fields a profile offers, each a line or, for lists, a line per entry; the server decides what may change. */
const singles = [['office', 'Office'], ['phone', 'Phone'], ['website', 'Website'], ['profile_image', 'Photo address']] as const
const facultySingles = [['area', 'Research area']] as const
type Single = (typeof singles)[number][0] | (typeof facultySingles)[number][0]

interface Draft {
  readonly singles: Readonly<Record<string, string>>
  readonly bio: string
  readonly education: string
  readonly interests: string
}

function draftOf(person: Person): Draft {
  const all: Single[] = [...singles.map(([f]) => f), ...facultySingles.map(([f]) => f)]
  return {
    singles: Object.fromEntries(all.map((field) => [field, person[field] ?? ''])),
    bio: person.bio ?? '',
    education: person.education.join('\n'),
    interests: (person.research_interests ?? []).join('\n'),
  }
}

const lines = (text: string) => text.split('\n').map((line) => line.trim()).filter(Boolean)

/** The edit as the API takes it: an emptied field is removed (null), and the version read is sent back. */
function updateOf(person: Person, draft: Draft): Update {
  const faculty = person.type === 'Faculty'
  const fields = faculty ? [...singles, ...facultySingles] : singles
  const update: Record<string, unknown> = { _version: person._version, bio: draft.bio.trim() || null, education: lines(draft.education) }
  for (const [field] of fields) update[field] = draft.singles[field]?.trim() || null
  if (faculty) update.research_interests = lines(draft.interests)
  return update as Update
}

function Editor({ initial }: { initial: Person }) {
  const [person, setPerson] = useState(initial)
  const [draft, setDraft] = useState(() => draftOf(initial))
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null)
  const [busy, setBusy] = useState(false)
  const faculty = person.type === 'Faculty'
  const single = (field: string, value: string) => setDraft({ ...draft, singles: { ...draft.singles, [field]: value } })

  async function save(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setOutcome(null)
    try {
      const saved = await api('put', '/api/people/{id}', { path: { id: person._id }, body: updateOf(person, draft) })
      setPerson(saved)
      setDraft(draftOf(saved))
      setOutcome({ ok: true, text: 'Saved.' })
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) })
    } finally {
      setBusy(false)
    }
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
      <label htmlFor="profile-bio">Biography</label>
      <textarea id="profile-bio" maxLength={10000} value={draft.bio} onChange={(event) => setDraft({ ...draft, bio: event.target.value })} />
      <label htmlFor="profile-education">Education (one degree a line)</label>
      <textarea id="profile-education" value={draft.education} onChange={(event) => setDraft({ ...draft, education: event.target.value })} />
      {[...singles, ...(faculty ? facultySingles : [])].map(([field, label]) => (
        <div key={field}>
          <label htmlFor={`profile-${field}`}>{label}</label>
          <input id={`profile-${field}`} type={field === 'website' || field === 'profile_image' ? 'url' : 'text'} value={draft.singles[field] ?? ''} onChange={(event) => single(field, event.target.value)} />
        </div>
      ))}
      {faculty && (
        <>
          <label htmlFor="profile-interests">Research interests (one a line)</label>
          <textarea id="profile-interests" value={draft.interests} onChange={(event) => setDraft({ ...draft, interests: event.target.value })} />
        </>
      )}
      <div className="actions">
        <button type="submit" disabled={busy}>Save</button>
        <button type="button" onClick={() => { void reload() }}>Reload</button>
      </div>
      {outcome && (outcome.ok ? <p role="status">{outcome.text}</p> : <Alert>{outcome.text}</Alert>)}
    </form>
  )
}

/**
 * The caller's own Person, as the server links it (`personId` of GET /api/auth/me, DESIGN 5.1); the
 * server checks again, on saving, that the record is the caller's own.
 */
export default function Profile() {
  const { personId } = useMe()
  const person = useLoad(() => (personId ? api('get', '/api/people/{id}', { path: { id: personId } }) : Promise.resolve(null)), [personId])
  return (
    <>
      <Title>Your profile</Title>
      {person.state === 'loading' && <Loading />}
      {person.state === 'failed' && <Alert>{person.error}</Alert>}
      {person.state === 'ready' && (person.data ? <Editor initial={person.data} /> : <p>You have no profile: no department record is linked to your account.</p>)}
    </>
  )
}
