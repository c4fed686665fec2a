import { cp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Test } from 'tap'
import { RecordService } from '../../src/records/service.js'
import { generateSampleDepartment } from '../../scripts/sample/index.js'
import { seedDepartmentInBulk } from '../../scripts/sample/seed-bulk.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'

export type Definition = Record<string, unknown>

/** Adds a property to a class, documented as every property must be. */
export function addProperty(cls: Definition, name: string, type: unknown): void {
  cls[name] = type
  const documentation = cls['@documentation'] as { '@properties': Record<string, string> }
  documentation['@properties'][name] = `The ${name.replace(/_/g, ' ')}`
}

/** A copy of the schema directory with `edit` applied to its definitions. */
export async function editedSchema(t: Test, edit: (byId: Map<string, Definition>, files: Map<string, Definition[]>) => void): Promise<string> {
  const dir = await tempDir(t)
  await cp('schema', dir, { recursive: true })
  const files = new Map<string, Definition[]>()
  const byId = new Map<string, Definition>()
  for (const name of ['people.json', 'academics.json', 'research.json', 'workflows.json']) {
    const definitions = JSON.parse(await readFile(join(dir, name), 'utf8')) as Definition[]
    files.set(name, definitions)
    for (const definition of definitions) byId.set(String(definition['@id']), definition)
  }
  edit(byId, files)
  for (const [name, definitions] of files) await writeFile(join(dir, name), JSON.stringify(definitions, null, 2))
  return dir
}

/** The sample department in a data directory of its own, the service closed again. */
export async function seededDataDir(t: Test): Promise<string> {
  const dataDir = await tempDir(t)
  const { app } = await buildTestApp(t, { DATA_DIR: dataDir })
  // A service of its own, as the seed uses: the app's also checks requirement rules against courses as they arrive.
  await seedDepartmentInBulk(new RecordService(app.store, app.schema), generateSampleDepartment(1))
  await app.close()
  return dataDir
}

/** Writes a migration file into the schema copy's migrations directory. */
export async function migration(schemaDir: string, name: string, operations: unknown[]): Promise<void> {
  await mkdir(join(schemaDir, 'migrations'), { recursive: true })
  await writeFile(join(schemaDir, 'migrations', `${name}.json`), JSON.stringify({ operations }))
}
