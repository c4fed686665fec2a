import { useState, type FormEvent } from 'react'
import { api } from '../api/client'
import type { components, operations } from '../api/schema'
import { useLoad } from '../hooks/use-load'
import { messageOf } from '../lib/errors'
import { Alert, Loaded } from '../components/ui'

type Config = components['schemas']['CampusSyncConfig']
type Update = operations['updateCampusSyncConfig']['requestBody']['content']['application/json']
type SourceType = Config['source']['type']

interface Draft {
  type: SourceType
  url: string
  tokenUrl: string
  path: string
  clientId: string
  /** Empty: the stored secret is kept. */
  secret: string
  removeSecret: boolean
  terms: string
  deletePolicy: Config['delete_policy']
  maxDeactivatePercent: string
}

function draftOf(config: Config): Draft {
  const { source } = config
  return {
    type: source.type, url: source.url ?? '', tokenUrl: source.token_url ?? '', path: source.path ?? '', clientId: source.client_id ?? '',
    secret: '', removeSecret: false, terms: config.terms.join(', '), deletePolicy: config.delete_policy,
    maxDeactivatePercent: String(config.max_deactivate_percent),
  }
}

/** The form as the PUT body; the server validates it and names the field it refuses. */
function bodyOf(d: Draft): Update {
  const text = (value: string) => (value.trim() ? value.trim() : undefined)
  const secret = d.removeSecret ? null : text(d.secret)
  return {
    source: {
      type: d.type,
      ...(d.type === 'oneroster-rest'
        ? { url: text(d.url), token_url: text(d.tokenUrl), client_id: text(d.clientId), ...(secret !== undefined ? { client_secret: secret } : {}) }
        : { path: text(d.path) }),
    },
    terms: d.terms.split(',').map((term) => term.trim()).filter(Boolean),
    delete_policy: d.deletePolicy,
    max_deactivate_percent: Number(d.maxDeactivatePercent),
  }
}

type Outcome = { ok: boolean; text: string } | null

function ConfigForm({ config, saved, setOutcome }: { config: Config; saved: () => void; setOutcome: (outcome: Outcome) => void }) {
  const [draft, setDraft] = useState(() => draftOf(config))
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft({ ...draft, [key]: value })
  const input = (key: 'url' | 'tokenUrl' | 'path' | 'clientId' | 'secret' | 'terms', label: string, type = 'text') => (
    <>
      <label htmlFor={`sync-${key}`}>{label}</label>
      <input id={`sync-${key}`} type={type} autoComplete="off" value={draft[key]} onChange={(event) => set(key, event.target.value)} />
    </>
  )

  async function save(event: FormEvent) {
    event.preventDefault()
    setOutcome(null)
    try {
      await api('put', '/api/campus-sync/config', { body: bodyOf(draft) })
      setOutcome({ ok: true, text: 'Configuration saved.' })
      saved()
    } catch (error) {
      setOutcome({ ok: false, text: messageOf(error) })
    }
  }

  return (
    <form onSubmit={(event) => { void save(event) }} aria-labelledby="sync-config">
      <p>{config.configured ? 'Configured.' : 'Not configured: the sample package is synced.'}</p>
      <label htmlFor="sync-type">Source</label>
      <select id="sync-type" value={draft.type} onChange={(event) => set('type', event.target.value as SourceType)}>
        <option value="oneroster-rest">OneRoster REST (oneroster-rest)</option>
        <option value="oneroster-csv">OneRoster CSV package (oneroster-csv)</option>
      </select>
      {draft.type === 'oneroster-rest'
        ? (
          <>
            {input('url', 'Feed URL', 'url')}
            {input('tokenUrl', 'Token URL', 'url')}
            {input('clientId', 'Client id')}
            {input('secret', `Client secret (${config.source.client_secret}; leave empty to keep it)`, 'password')}
            <label className="check">
              <input type="checkbox" checked={draft.removeSecret} onChange={(event) => set('removeSecret', event.target.checked)} /> Remove the stored secret
            </label>
          </>
        )
        : input('path', 'Package path on the server')}
      {input('terms', 'Terms (comma-separated codes; empty for every term)')}
      <label htmlFor="sync-policy">Delete policy</label>
      <select id="sync-policy" value={draft.deletePolicy} onChange={(event) => set('deletePolicy', event.target.value as Draft['deletePolicy'])}>
        <option value="deactivate">deactivate</option>
        <option value="keep">keep</option>
      </select>
      <label htmlFor="sync-max">Most records a run may deactivate (percent)</label>
      <input id="sync-max" type="number" min={0} max={100} value={draft.maxDeactivatePercent} onChange={(event) => set('maxDeactivatePercent', event.target.value)} />
      <div className="actions"><button type="submit">Save configuration</button></div>
    </form>
  )
}

/** The configuration as the API answers it, and its edit. */
export function SyncConfig({ changed }: { changed: () => void }) {
  const [version, setVersion] = useState(0)
  const config = useLoad(() => api('get', '/api/campus-sync/config'), [], version)
  const [outcome, setOutcome] = useState<Outcome>(null)
  return (
    <section aria-labelledby="sync-config">
      <h2 id="sync-config">Configuration</h2>
      <Loaded state={config}>{(data) => (
        <ConfigForm key={version} config={data} setOutcome={setOutcome} saved={() => { setVersion((v) => v + 1); changed() }} />
      )}</Loaded>
      {outcome && (outcome.ok ? <p role="status">{outcome.text}</p> : <Alert>{outcome.text}</Alert>)}
    </section>
  )
}
