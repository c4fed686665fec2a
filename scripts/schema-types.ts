/**
 * Writes src/schema/generated/records.ts, the record types of the class schema:
 *   npm run schema:types
 * Run it after changing schema/*.json; test/schema/record-types.test.ts fails until the file is current.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { buildModel } from '../src/schema/check.js'
import { loadSchemaFiles } from '../src/schema/load.js'
import { recordTypesFile, renderRecordTypes } from '../src/schema/record-types.js'

const root = fileURLToPath(new URL('..', import.meta.url))
const model = buildModel(await loadSchemaFiles(join(root, 'schema')))
await writeFile(join(root, recordTypesFile), renderRecordTypes(model))
console.log(`wrote ${recordTypesFile}`)
