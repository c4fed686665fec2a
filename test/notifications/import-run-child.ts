/**
 * A publication import in a process of its own, for outcome-kill.test.ts: the service is built as `npm
 * start` builds it (from the environment, OpenAlex at OPENALEX_URL), a faculty member with an OpenAlex
 * author id is written, and their works are imported with the real PublicationImportRun write and the
 * real event carried in it; only the publishing after the write never comes. Once the record has landed
 * the process prints `landed <PublicationImportRun id>` and waits, to be SIGKILLed there.
 */
import { buildApp } from '../../src/app.js'
import { loadConfig } from '../../src/config.js'
import { runPublicationImport } from '../../src/publications/import.js'
import { OpenAlexClient } from '../../src/publications/openalex/client.js'
import type { ImportEvent } from '../../src/publications/outcomes.js'
import { heldAfterLanding, quietContext } from './held-run.js'

const app = await buildApp(loadConfig())
const actor = { id: 'seed', name: 'Test set-up', via: 'test' }
const ada = await app.records.create('Faculty', { first_name: 'Ada', last_name: 'Author', email: process.env.AUTHOR_EMAIL!, bibliography_source_id: 'A1' }, { actor })
console.log(`author ${ada._id}`)
const events = { carry: (event: ImportEvent) => heldAfterLanding(app.outcomes.imports.carry(event)) }
await runPublicationImport(
  { records: app.records, schema: app.schema, openalex: new OpenAlexClient(app.config.openalex), invalidate: () => {}, events },
  { personId: ada._id }, quietContext,
)
console.log('finished without stopping')
