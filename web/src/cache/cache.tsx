import { useState } from 'react'
import { api } from '../api/client'
import { useLoad } from '../hooks/use-load'
import { messageOf } from '../lib/errors'
import { Alert, Loaded, Title } from '../components/ui'

const clearings = [
  { label: 'Clear people', path: '/api/admin/cache/clear/people' },
  { label: 'Clear courses', path: '/api/admin/cache/clear/courses' },
  { label: 'Clear all', path: '/api/admin/cache/clear/all' },
] as const

export default function Cache() {
  const [version, setVersion] = useState(0)
  const stats = useLoad(() => api('get', '/api/admin/cache/stats'), [], version)
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null)
  const [busy, setBusy] = useState(false)

  async function clear(clearing: (typeof clearings)[number]) {
    setBusy(true)
    setOutcome(null)
    try {
      const answer = await api('post', clearing.path)
      setOutcome({ ok: true, text: `${answer.message} (${answer.keysDeleted} ${answer.keysDeleted === 1 ? 'entry' : 'entries'} removed)` })
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) })
    } finally {
      setBusy(false)
      setVersion((v) => v + 1)
    }
  }

  return (
    <>
      <Title>Cache</Title>
      <section aria-labelledby="cache-state">
        <h2 id="cache-state">State</h2>
        <Loaded state={stats}>{(statsData) => (
          <dl>
            <dt>Entries</dt><dd data-testid="cache-keys">{statsData.keys}</dd>
            <dt>Memory</dt><dd data-testid="cache-memory">{statsData.memory}</dd>
          </dl>
        )}</Loaded>
      </section>
      <section aria-labelledby="cache-actions">
        <h2 id="cache-actions">Clear</h2>
        <div className="actions">
          {clearings.map((c) => <button key={c.path} type="button" disabled={busy} onClick={() => { void clear(c) }}>{c.label}</button>)}
        </div>
        {outcome && (outcome.ok ? <p role="status">{outcome.text}</p> : <Alert>{outcome.text}</Alert>)}
      </section>
    </>
  )
}
