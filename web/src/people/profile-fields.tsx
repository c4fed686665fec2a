import type { components } from '../api/schema'

type Person = components['schemas']['Person']
type Update = components['schemas']['OwnPersonUpdate']

/** The fields a profile offers, each a line or, for lists, a line per entry; the server decides what may change. */
const singles = [['office', 'Office'], ['phone', 'Phone'], ['website', 'Website'], ['profile_image', 'Photo address']] as const
const facultySingles = [['area', 'Research area']] as const
type Single = (typeof singles)[number][0] | (typeof facultySingles)[number][0]

export interface Draft {
  readonly singles: Readonly<Record<string, string>>
  readonly bio: string
  readonly education: string
  readonly interests: string
}

export function draftOf(person: Person): Draft {
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
export function updateOf(person: Person, draft: Draft): Update {
  const faculty = person.type === 'Faculty'
  const fields = faculty ? [...singles, ...facultySingles] : singles
  const update: Record<string, unknown> = { _version: person._version, bio: draft.bio.trim() || null, education: lines(draft.education) }
  for (const [field] of fields) update[field] = draft.singles[field]?.trim() || null
  if (faculty) update.research_interests = lines(draft.interests)
  return update as Update
}

/** The profile's fields, labelled; a faculty member's add their research. */
export function ProfileFields({ draft, setDraft, faculty }: { draft: Draft; setDraft: (draft: Draft) => void; faculty: boolean }) {
  const single = (field: string, value: string) => setDraft({ ...draft, singles: { ...draft.singles, [field]: value } })
  return (
    <>
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
    </>
  )
}
