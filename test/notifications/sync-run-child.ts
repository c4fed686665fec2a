/**
 * A campus sync run in a process of its own, for outcome-kill.test.ts: the service is built as `npm
 * start` builds it (from the environment), and a run of the sample package's courses is made with the
 * real SyncRun write and the real event carried in it; only the publishing after the write never comes.
 * Once the record has landed the process prints `landed <SyncRun id>` and waits, to be SIGKILLed there:
 * the moment between the run record's write and its event's that the outbox exists for.
 */
import { runCampusSync } from '../../src/campus-sync/runner.js'
import type { SyncEvent } from '../../src/campus-sync/outcomes.js'
import { heldAfterLanding, quietContext } from './held-run.js'
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'

const app = await buildApp(loadConfig())
const events = { carry: async (event: SyncEvent) => heldAfterLanding(await app.outcomes.syncs.carry(event)) }
await runCampusSync(
  { records: app.records, schema: app.schema, enrollments: app.enrollments, auditLog: app.auditLog, secrets: app.secrets, events },
  { kind: 'courses' }, quietContext,
)
console.log('finished without stopping')
