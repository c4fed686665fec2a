import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { generateSampleDepartment } from '../../scripts/sample/index.js'
import { csvText, oneRosterPackage } from '../../scripts/sample/oneroster.js'
import { seedDepartment } from '../../scripts/sample/seed-store.js'
import { RecordService } from '../../src/records/service.js'
import { defaultSyncConfig, samplePackagePath } from '../../src/campus-sync/config.js'
import { buildTestApp } from '../helpers/app.js'
import { fullPass, syncDeps, writes } from './support.js'

t.test('the committed sample package is what scripts/oneroster-sample.ts writes', async (t) => {
  for (const [name, file] of Object.entries(oneRosterPackage(generateSampleDepartment(1)))) {
    t.equal(await readFile(join(samplePackagePath, name), 'utf8'), csvText(file), name)
  }
})

t.test('with nothing configured, a complete sync of the sample package onto the seeded store adopts every record', async (t) => {
  const test = await buildTestApp(t)
  // As `npm run seed` writes it: through a record service of its own, without the app's write checks.
  await seedDepartment(new RecordService(test.app.store, test.app.schema), generateSampleDepartment(1))
  t.equal(defaultSyncConfig.source.type === 'oneroster-csv' && defaultSyncConfig.source.path, samplePackagePath)
  const deps = { ...syncDeps(test), sourceOptions: {} }
  const first = await fullPass(deps)
  for (const result of first) {
    t.equal(result.status, 'completed', result.kind)
    t.same(result.errors, [], `${result.kind}: no row errors`)
    t.equal(result.created, 0, `${result.kind}: everything matched what the seed wrote`)
    t.equal(result.deactivated, 0)
  }
  t.equal(first[2]!.by_kind.person?.updated, 410, 'every person adopted by campus id')
  t.ok((first[2]!.by_kind.enrollment?.updated ?? 0) > 0, 'current enrollments adopted')
  const before = writes(test)
  const second = await fullPass(deps)
  for (const result of second) t.same([result.created, result.updated, result.deactivated, result.errors.length], [0, 0, 0, 0], result.kind)
  t.same(writes(test), before, 'the second pass writes nothing')
})
