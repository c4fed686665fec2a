import { useEffect, useRef, useState } from 'react'
import { api } from '../api/client'
import { revertOpWords, revertReportOf, type RevertReport } from './revert-report'
import { ScrollRegion } from '../components/scroll-region'
import { when } from '../lib/dates'
import { messageOf } from '../lib/errors'
import { Alert, Loading, Pending } from '../components/ui'
import { JobBar } from '../components/job-bar'
import { useJob } from '../hooks/use-job'
import { running } from '../hooks/use-polled'

/** One revert job: its dry run first, then, once confirmed, the real one. */
interface Stage {
  readonly dryRun: boolean
  readonly jobId: string
}

const records = (n: number) => (n === 1 ? '1 record' : `${n} records`)

function summary(report: RevertReport): string {
  const { reverted, conflicts, errors, dryRun, runId } = report
  const left = conflicts.length ? `; ${records(conflicts.length)} changed by someone else since the run ${dryRun ? 'would be' : 'were'} left as they are` : ''
  const refused = errors.length ? `; ${records(errors.length)} refused` : ''
  if (dryRun) return `The revert would put back ${records(reverted)}${left}${refused}.`
  return `Reverted ${records(reverted)}${left}${refused}.${runId ? ` The revert is run ${runId}.` : ''}`
}

function Report({ report }: { report: RevertReport }) {
  const { changes, conflicts, errors, dryRun, reverted } = report
  return (
    <>
      {changes.length > 0 && (
        <ScrollRegion label={dryRun ? 'What the revert would change' : 'What the revert changed'}>
          <table>
            <caption>{dryRun ? 'What the revert would change' : 'What the revert changed'}</caption>
            <thead><tr><th scope="col">Record</th><th scope="col">Becomes</th></tr></thead>
            <tbody>{changes.map((c) => <tr key={c.id}><td>{c.id}</td><td>{revertOpWords[c.op]}</td></tr>)}</tbody>
          </table>
        </ScrollRegion>
      )}
      {reverted > changes.length && <p>{`${reverted - changes.length} more are not listed.`}</p>}
      {conflicts.length > 0 && (
        <ScrollRegion label="Changed since the run: left as they are">
          <table>
            <caption>Changed since the run: left as they are</caption>
            <thead><tr><th scope="col">Record</th><th scope="col">Changed by</th><th scope="col">When</th></tr></thead>
            <tbody>{conflicts.map((c) => <tr key={c.id}><td>{c.id}</td><td>{c.changedBy}</td><td><time dateTime={c.at}>{when(c.at)}</time></td></tr>)}</tbody>
          </table>
        </ScrollRegion>
      )}
      {errors.length > 0 && (
        <ScrollRegion label="Refused">
          <table>
            <caption>Refused</caption>
            <thead><tr><th scope="col">Record</th><th scope="col">Why</th></tr></thead>
            <tbody>{errors.map((e) => <tr key={e.id}><td>{e.id}</td><td>{e.message}</td></tr>)}</tbody>
          </table>
        </ScrollRegion>
      )}
    </>
  )
}

/** Queues a revert of `run`, or its dry run; the stage to follow. */
async function queueRevert(run: string, dryRun: boolean): Promise<Stage> {
  const { jobId } = await api('post', '/api/campus-sync/runs/{id}/revert', { path: { id: run }, body: { dryRun } })
  return { dryRun, jobId }
}

/** A revert job followed until it ends, then its report; a dry run's offers the real revert. */
function Followed({ stage, confirm, close, ended }: { stage: Stage; confirm: () => void; close: () => void; ended: () => void }) {
  const job = useJob(stage.jobId, () => { if (!stage.dryRun) ended() })
  const done = job.state === 'ready' && !running(job.data)
  if (job.state !== 'ready') return <Pending state={job} />
  const report = done ? revertReportOf(job.data.result) : null
  return (
    <>
      <h3>{`${stage.dryRun ? 'Dry run' : 'Revert'}: ${job.data.state}`}</h3>
      <JobBar job={job.data} />
      {job.data.error && <Alert>{job.data.error}</Alert>}
      {report && <p role="status">{summary(report)}</p>}
      {report && <Report report={report} />}
      {report && (
        <div className="actions">
          {stage.dryRun && <button type="button" onClick={confirm}>Confirm revert</button>}
          <button type="button" onClick={close}>{stage.dryRun ? 'Cancel' : 'Close'}</button>
        </div>
      )}
    </>
  )
}

/**
 * Reverting a run (docs/history.md): a dry run first, whose report says which records would go back and which
 * were changed since by someone else (left as they are); "Confirm revert" then runs it for real.
 */
export function SyncRevert({ run, close, ended }: { run: string; close: () => void; ended: () => void }) {
  const [stage, setStage] = useState<Stage | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)

  function start(dryRun: boolean) {
    setProblem(null)
    queueRevert(run, dryRun).then(setStage, (error: unknown) => setProblem(messageOf(error)))
  }

  // Opened for a run: the dry run is queued at once.
  useEffect(() => {
    heading.current?.focus()
    queueRevert(run, true).then(setStage, (error: unknown) => setProblem(messageOf(error)))
  }, [run])

  return (
    <section aria-labelledby="sync-revert">
      <h2 id="sync-revert" ref={heading} tabIndex={-1}>{`Revert run ${run}`}</h2>
      {problem && <Alert>{problem}</Alert>}
      {!stage && !problem && <Loading />}
      {stage && <Followed key={stage.jobId} stage={stage} confirm={() => start(false)} close={close} ended={ended} />}
      {problem && <div className="actions"><button type="button" onClick={close}>Close</button></div>}
    </section>
  )
}
