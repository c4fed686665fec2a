import { useState, type FormEvent } from 'react'
import { useLoad } from '../hooks/use-load'
import { messageOf } from '../lib/errors'
import { Alert, Loaded } from '../components/ui'
import { frequencies, readPreferences, savePreferences, type Frequency } from './preferences-api'

const labels: Readonly<Record<Frequency, string>> = {
  immediate: 'Immediately',
  daily: 'Daily digest',
  weekly: 'Weekly digest',
  off: 'Off',
}

const hints: Readonly<Record<Frequency, string>> = {
  immediate: 'One email for each notification.',
  daily: 'One email a day listing what still awaits you; none when nothing does.',
  weekly: 'The same, once a week.',
  off: 'No email: notifications are only shown here.',
}

const saved: Readonly<Record<Frequency, string>> = {
  immediate: 'Saved: you are emailed about each notification.',
  daily: 'Saved: you get a daily digest.',
  weekly: 'Saved: you get a weekly digest.',
  off: 'Saved: you get no email.',
}

/** The caller's email preference (GET|PUT /api/notifications/preferences), chosen from four. */
export function EmailPreferences() {
  const current = useLoad(readPreferences, [])
  const [choice, setChoice] = useState<Frequency | null>(null)
  const [saving, setSaving] = useState(false)
  const [outcome, setOutcome] = useState<{ saved: Frequency } | { error: string } | null>(null)
  const chosen = choice ?? (current.state === 'ready' ? current.data.email : null)

  async function save(event: FormEvent) {
    event.preventDefault()
    if (!chosen) return
    setSaving(true)
    setOutcome(null)
    try {
      const answer = await savePreferences(chosen)
      setChoice(answer.email)
      setOutcome({ saved: answer.email })
    } catch (error) {
      setOutcome({ error: messageOf(error) })
    } finally {
      setSaving(false)
    }
  }

  return (
    <section aria-labelledby="email-heading">
      <h2 id="email-heading">Email</h2>
      <Loaded state={current}>{(data) => (
        <form onSubmit={(event) => { void save(event) }}>
          <fieldset>
            <legend>Email me about notifications</legend>
            {frequencies.map((f) => (
              <div key={f} className="choice">
                <input type="radio" id={`email-${f}`} name="email" value={f} aria-describedby={`email-${f}-hint`} checked={chosen === f} onChange={() => { setChoice(f); setOutcome(null) }} />
                <label htmlFor={`email-${f}`}>{labels[f]}</label>
                <span id={`email-${f}-hint`} className="kind">{hints[f]}</span>
              </div>
            ))}
          </fieldset>
          {data.default && choice === null && <p>You have not chosen yet: this is the default for your role.</p>}
          <div className="actions"><button type="submit" disabled={saving}>Save</button></div>
          <p role="status">{saving ? 'Saving…' : outcome && 'saved' in outcome ? saved[outcome.saved] : ''}</p>
          {outcome && 'error' in outcome && <Alert>{outcome.error}</Alert>}
        </form>
      )}</Loaded>
    </section>
  )
}
