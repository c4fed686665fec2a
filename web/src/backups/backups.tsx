import { useRef, useState } from 'react'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { backupOutcomeOf, everyText, outcomeText, type BackupList } from './text'
import { when } from '../lib/dates'
import { messageOf } from '../lib/errors'
import { Alert, Pending, Title } from '../components/ui'
import { BackupRun } from './backup-run'
import { BackupTable } from './backup-table'
import { usePolled } from '../hooks/use-polled'

type Job = components['schemas']['Job']
type Outcome = { readonly ok: boolean; readonly text: string } | null

function Told({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null
  return outcome.ok ? <p role="status">{outcome.text}</p> : <Alert>{outcome.text}</Alert>
}

function Settings({ list }: { list: BackupList }) {
  const { dir, keep, every } = list.settings
  const often = everyText(every)
  const next = list.next_run
  return (
    <p className="backup-settings">
      {'Backups are written to '}<code>{dir}</code>{keep === 1 ? '; only the newest is kept. ' : `; the newest ${keep} are kept. `}
      {often
        ? <>{`A backup is made ${often}`}{next && <>{', next '}<time dateTime={next}>{when(next)}</time></>}.</>
        : 'No backup is scheduled (BACKUP_EVERY is 0).'}
    </p>
  )
}

function endedText(job: Job): Outcome {
  if (job.state !== 'completed') return { ok: false, text: `The backup failed: ${job.error ?? job.state}` }
  const outcome = backupOutcomeOf(job.result)
  return { ok: true, text: outcome ? outcomeText(outcome) : 'The backup is made.' }
}

/**
 * /admin/backups (docs/operations.md, "Backups and restore"): the files of BACKUP_DIR with what the service knows of each, the schedule,
 * "Back up now" followed live to its end, and verifying a file. Admins only, as the API decides.
 */
export default function Backups() {
  // Never polled: taken for its reload, which keeps the table (and focus in it) on screen while it reads.
  const [list, reload] = usePolled(() => api('get', '/api/admin/backups'), [], () => false)
  const [jobId, setJobId] = useState<string | null>(null)
  const [made, setMade] = useState<Outcome>(null)
  const [verifying, setVerifying] = useState<string | null>(null)
  const [verified, setVerified] = useState<Outcome>(null)
  const told = useRef<HTMLDivElement>(null)

  // A backup already under way when the page loads (the schedule's, another admin's) is followed too.
  // Taken up once, while rendering: a list read again while the job ends still names it, and is not
  // followed a second time.
  const pending = list.state === 'ready' ? list.data.running_job : null
  const [taken, setTaken] = useState<string | null>(null)
  if (pending && pending !== taken) {
    setTaken(pending)
    setJobId((current) => current ?? pending)
  }

  async function start() {
    setMade(null)
    try {
      // While one waits or runs the API answers with that job, so a second press follows the same one.
      const { jobId: id } = await api('post', '/api/admin/backups')
      setJobId(id)
    } catch (error) {
      setMade({ ok: false, text: messageOf(error) })
    }
  }

  function ended(job: Job) {
    setJobId(null)
    setMade(endedText(job))
    reload()
  }

  async function verify(file: string) {
    setVerifying(file)
    setVerified(null)
    try {
      await api('post', '/api/admin/backups/{file}/verify', { path: { file } })
      setVerified({ ok: true, text: `${file} verified: the key opens it and every checksum matches.` })
    } catch (error) {
      setVerified({ ok: false, text: messageOf(error) })
    } finally {
      setVerifying(null)
      reload()
      // The pressed button is disabled while it works: the reader is taken to what happened instead.
      told.current?.focus()
    }
  }

  if (list.state !== 'ready') return <Pending title="Backups" state={list} />
  return (
    <>
      <Title>Backups</Title>
      <Settings list={list.data} />
      <section aria-labelledby="backup-now">
        <h2 id="backup-now">Back up now</h2>
        <button type="button" onClick={() => { void start() }}>Back up now</button>
        {jobId && <BackupRun key={jobId} jobId={jobId} ended={ended} />}
        <Told outcome={made} />
      </section>
      <section aria-labelledby="backup-files">
        <h2 id="backup-files">Backup files</h2>
        <div ref={told} tabIndex={-1}><Told outcome={verified} /></div>
        {list.data.items.length === 0
          ? <p>No backups yet.</p>
          : <BackupTable items={list.data.items} verify={(file) => { void verify(file) }} verifying={verifying} />}
      </section>
    </>
  )
}
