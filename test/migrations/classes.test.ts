import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { MigrationRefused } from '../../src/migrations/apply.js'
import { ClassOperationRefused, codeNamedClasses } from '../../src/migrations/classes.js'
import { applyOperation, type Models } from '../../src/migrations/operations.js'
import { revisionsCollection } from '../../src/history/revision.js'
import { compileSchema } from '../../src/schema/index.js'
import { RecordService } from '../../src/records/service.js'
import { generateSampleDepartment } from '../../scripts/sample/index.js'
import { seedSampleWorkflows } from '../../scripts/sample/workflow-seed.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'
import { editedSchema, migration, seededDataDir, type Definition } from './schema-edits.js'

/** ResearchCenter becomes Center wherever the schema names it: its definition and the labs' reference. */
function renameCenter(byId: Map<string, Definition>): void {
  const center = byId.get('ResearchCenter')!
  center['@id'] = 'Center'
  const metadata = center['@metadata'] as Record<string, unknown>
  metadata.path = '/api/centers'
  const lab = byId.get('Lab')!
  lab.research_center = { '@type': 'Optional', '@class': 'Center' }
}

t.test('a class rename carries ids, references and history: ResearchCenter becomes Center', async (t) => {
  const dataDir = await seededDataDir(t)
  const before = await buildTestApp(t, { DATA_DIR: dataDir })
  const centers = await before.app.store.collection('research_centers').find({})
  const labsWithCenter = (await before.app.store.collection('labs').find({})).filter((lab) => typeof lab.research_center === 'string')
  t.equal(centers.length, 3, 'the sample has three centers')
  t.ok(labsWithCenter.length > 0, 'and labs that name one')
  const firstCenter = centers[0]!
  // A change before the rename, so the moved history holds more than the record's creation.
  const admin = before.as('ada@dept.edu', 'admin')
  const edited = await admin({ method: 'PUT', url: `/api/research-centers/${firstCenter._id}`, headers: { 'if-match': `"${firstCenter._version}"` }, payload: { ...Object.fromEntries(Object.entries(firstCenter).filter(([k]) => !k.startsWith('_') || k === '_id')), description: 'Edited before the rename' } })
  t.equal(edited.statusCode, 200, `an edit before the rename (${edited.body.slice(0, 200)})`)
  await before.app.close()

  const schemaDir = await editedSchema(t, renameCenter)
  await migration(schemaDir, '0001-centers', [{ op: 'rename_class', from: 'ResearchCenter', to: 'Center' }])
  const { app, as } = await buildTestApp(t, { DATA_DIR: dataDir, SCHEMA_DIR: schemaDir, BACKUP_DIR: await tempDir(t) })
  const moved = await app.store.collection('research_centers').find({})
  t.same(moved.map((c) => c._id).sort(), centers.map((c) => c._id.replace('ResearchCenter/', 'Center/')).sort(), 'every center has its id under the new name')
  t.ok(moved.every((c) => c.type === 'Center'), 'and the new type')
  const labs = await app.store.collection('labs').find({})
  t.same(labs.filter((lab) => typeof lab.research_center === 'string').map((lab) => [lab._id, lab.research_center]).sort(),
    labsWithCenter.map((lab) => [lab._id, String(lab.research_center).replace('ResearchCenter/', 'Center/')]).sort(), 'every lab names its center by the new id')

  const reader = as('ada@dept.edu', 'admin')
  const newId = firstCenter._id.replace('ResearchCenter/', 'Center/')
  const got = await reader({ method: 'GET', url: `/api/centers/${newId}` })
  t.equal(got.statusCode, 200, 'the center is served under its new path and id')
  t.equal(got.json().description, 'Edited before the rename', 'with its content')
  const history = await reader({ method: 'GET', url: `/api/centers/${newId}/history` })
  t.equal(history.statusCode, 200)
  const entries = history.json().items as Array<{ version: number; actor: string }>
  t.same(entries.map((e) => e.version), [3, 2, 1], 'its history came along: creation, the edit, the move')
  t.equal(entries[0]!.actor, 'migration:0001-centers', 'the move is the migration\'s')
  t.equal(await app.store.collection(revisionsCollection).count({ record: firstCenter._id }), 0, 'no revision is left under the old id')
  const lab = labsWithCenter[0]!
  const labHistory = await reader({ method: 'GET', url: `/api/labs/${lab._id}/history` })
  t.equal((labHistory.json().items as Array<{ actor: string }>)[0]!.actor, 'migration:0001-centers', 'each lab that followed has a revision by the migration')
  const filtered = await reader({ method: 'GET', url: `/api/labs?research_center=${encodeURIComponent(newId)}` })
  t.ok(filtered.json().items.length > 0 || !labsWithCenter.some((l) => l.research_center === firstCenter._id), 'filtering labs by the new id finds them')
})

t.test('a class the code names refuses to be renamed or deleted, saying why, and nothing changes', async (t) => {
  const dataDir = await seededDataDir(t)
  const schemaDir = await editedSchema(t, (_byId, files) => {
    // Lab becomes ResearchGroup wherever the files name it.
    for (const [name, definitions] of files) files.set(name, JSON.parse(JSON.stringify(definitions).replaceAll('"Lab"', '"ResearchGroup"')) as Definition[])
  })
  await migration(schemaDir, '0001-labs', [{ op: 'rename_class', from: 'Lab', to: 'ResearchGroup' }])
  const refused = await buildTestApp(t, { DATA_DIR: dataDir, SCHEMA_DIR: schemaDir }).then(() => null, (error: unknown) => error)
  t.ok(refused instanceof ClassOperationRefused, `refused (${String(refused)})`)
  t.match(String(refused), /rename_class Lab: the service's own code reads and writes Lab records by that name/)
  const { app } = await buildTestApp(t, { DATA_DIR: dataDir })
  t.equal(await app.store.collection('labs').count({ type: 'Lab' }), 10, 'every lab is as it was')
})

t.test('deleting a class: refused while records refer to it; with the reference dropped first, its records go to the trash', async (t) => {
  const dataDir = await seededDataDir(t)
  const withoutCenters = (byId: Map<string, Definition>, files: Map<string, Definition[]>) => {
    files.set('research.json', files.get('research.json')!.filter((d) => d['@id'] !== 'ResearchCenter'))
    byId.delete('ResearchCenter')
  }
  const stillReferenced = await editedSchema(t, (byId, files) => {
    withoutCenters(byId, files)
    byId.get('Lab')!.research_center = { '@type': 'Optional', '@class': 'xsd:string' }
  })
  await migration(stillReferenced, '0001-no-centers', [{ op: 'delete_class', class: 'ResearchCenter' }])
  const refused = await buildTestApp(t, { DATA_DIR: dataDir, SCHEMA_DIR: stillReferenced }).then(() => null, (error: unknown) => error)
  t.ok(refused instanceof MigrationRefused, `refused (${String(refused)})`)
  t.match(String(refused), /records? invalid \(Lab\/.*'research_center' still refers to ResearchCenter\/.*, whose class delete_class removes/)

  const schemaDir = await editedSchema(t, (byId, files) => {
    withoutCenters(byId, files)
    const lab = byId.get('Lab')!
    delete lab.research_center
    delete (lab['@documentation'] as { '@properties': Record<string, string> })['@properties'].research_center
    delete ((lab['@metadata'] as Record<string, unknown>).filters as Record<string, string>).research_center
  })
  await migration(schemaDir, '0001-no-centers', [
    { op: 'delete_property', class: 'Lab', property: 'research_center' },
    { op: 'delete_class', class: 'ResearchCenter' },
  ])
  const { app, as } = await buildTestApp(t, { DATA_DIR: dataDir, SCHEMA_DIR: schemaDir, BACKUP_DIR: await tempDir(t) })
  t.equal(await app.store.collection('research_centers').count({}), 0, 'the centers are gone')
  t.notOk((await app.store.collection('labs').find({})).some((lab) => 'research_center' in lab), 'and no lab names one')
  const trash = await as('ada@dept.edu', 'admin')({ method: 'GET', url: '/api/admin/trash' })
  t.equal(trash.statusCode, 200, 'the trash still answers')
  const trashed = await app.store.collection(revisionsCollection).find({ type: 'ResearchCenter', op: 'delete' })
  t.equal(trashed.length, 3, 'each center\'s deletion is in its history, by the migration')
  t.ok(trashed.every((r) => r.actor === 'migration:0001-no-centers'))
})

t.test('an enum value mapped across workflow records', async (t) => {
  const dataDir = await seededDataDir(t)
  const before = await buildTestApp(t, { DATA_DIR: dataDir })
  await seedSampleWorkflows({ store: before.app.store, records: new RecordService(before.app.store, before.app.schema), schema: before.app.schema }, generateSampleDepartment(1).catalog, new Date())
  const mentoring = await before.app.store.collection('graduate_milestones').count({ milestone_type: 'mentoring_form' })
  await before.app.close()
  t.ok(mentoring > 0, `the sample has mentoring forms (${mentoring})`)
  const schemaDir = await editedSchema(t, (byId) => {
    const type = byId.get('MilestoneType')!
    type['@value'] = (type['@value'] as string[]).map((v) => (v === 'mentoring_form' ? 'mentoring_agreement' : v))
  })
  await migration(schemaDir, '0001-mentoring', [{ op: 'replace_enum_value', enum: 'MilestoneType', from: 'mentoring_form', to: 'mentoring_agreement' }])
  const { app } = await buildTestApp(t, { DATA_DIR: dataDir, SCHEMA_DIR: schemaDir, BACKUP_DIR: await tempDir(t) })
  t.equal(await app.store.collection('graduate_milestones').count({ milestone_type: 'mentoring_form' }), 0, 'no milestone keeps the old value')
  t.equal(await app.store.collection('graduate_milestones').count({ milestone_type: 'mentoring_agreement' }), mentoring, 'each has the new one')
  t.equal(await app.store.collection(revisionsCollection).count({ actor: 'migration:0001-mentoring' }), mentoring, 'with a revision each')
})

t.test('an enum mapping reaches values inside subdocuments, at any depth', async (t) => {
  const schema = await compileSchema('schema')
  const models: Models = { was: schema.model, is: schema.model }
  const workflow = { _id: 'Workflow/x', type: 'Workflow', stages: [{ name: 'Advisor', approver_role: 'advisor', policy: 'all' }, { name: 'Admins', approver_role: 'department_admin', policy: 'any' }] }
  const mapped = applyOperation(workflow, { op: 'map_enum_values', enum: 'ApprovalPolicy', values: { any: 'quorum' } }, models)!
  t.same((mapped.stages as Array<{ policy: string }>).map((s) => s.policy), ['all', 'quorum'], 'the stage subdocuments\' values are mapped')
  t.equal(applyOperation(mapped, { op: 'map_enum_values', enum: 'ApprovalPolicy', values: { any: 'quorum' } }, models), mapped, 'and again changes nothing')
})

t.test('the classes the code names are all listed as such', async (t) => {
  const schema = await compileSchema('schema')
  const named = new Set<string>()
  const walk = async (dir: string): Promise<void> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) await walk(path)
      // The list itself, and the generated types (every class), are not the code naming a class.
      else if (entry.name.endsWith('.ts') && !path.includes('generated') && !path.endsWith(join('migrations', 'classes.ts'))) {
        for (const match of (await readFile(path, 'utf8')).matchAll(/['"`]([A-Z][A-Za-z]+)(?=['"`/])/g)) {
          if (schema.model.classes.has(match[1]!)) named.add(match[1]!)
        }
      }
    }
  }
  await walk('src')
  t.same([...named].filter((name) => !codeNamedClasses.has(name)), [], 'every class named in src/ is in codeNamedClasses')
  t.same([...codeNamedClasses].filter((name) => !named.has(name)), [], 'and the list names no other')
})
