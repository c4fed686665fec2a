import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { storedSchema } from '../../src/migrations/state.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'

t.test('an instance of the old schema refuses writes once another has moved the store on, and keeps serving reads', async (t) => {
  const old = await buildTestApp(t)
  const admin = old.as('ada@dept.edu', 'admin')
  const created = await admin({ method: 'POST', url: '/api/research-centers', payload: { name: 'Robotics Center' } })
  t.equal(created.statusCode, 201, `the old instance writes while the store is on its schema (${created.body})`)

  // A second instance on the same store, built from schema files with one compatible change.
  const schemaDir = await tempDir(t)
  await cp('schema', schemaDir, { recursive: true })
  const file = join(schemaDir, 'research.json')
  const definitions = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>[]
  const lab = definitions.find((d) => d['@id'] === 'ResearchCenter')!
  lab.motto = { '@type': 'Optional', '@class': 'xsd:string' }
  ;(lab['@documentation'] as { '@properties': Record<string, string> })['@properties'].motto = 'The lab\'s motto'
  await writeFile(file, JSON.stringify(definitions))
  const fresh = await buildTestApp(t, { SCHEMA_DIR: schemaDir }, { store: old.app.store })
  t.equal((await storedSchema(old.app.store))?.hash, fresh.app.schema.hash, 'the new instance moved the store to its schema')

  const refused = await admin({ method: 'PUT', url: `/api/research-centers/${encodeURIComponent(created.json()._id)}`, payload: { description: 'Robots' } })
  t.equal(refused.statusCode, 503, 'the old instance refuses a write')
  t.equal(refused.json().code, 'ADKS_SCHEMA_CHANGED')
  t.equal((await admin({ method: 'GET', url: `/api/research-centers/${encodeURIComponent(created.json()._id)}` })).statusCode, 200, 'and still serves reads')
  const written = await fresh.as('ada@dept.edu', 'admin')({ method: 'PUT', url: `/api/research-centers/${encodeURIComponent(created.json()._id)}`, payload: { motto: 'Build it' } })
  t.equal(written.statusCode, 200, 'the new instance writes, the new property included')
})
