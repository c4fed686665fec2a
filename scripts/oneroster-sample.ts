/**
 * Writes the sample department's OneRoster CSV package (the campus sync's default source):
 *   npx tsx scripts/oneroster-sample.ts [directory]     (default: sample/oneroster)
 * test/campus-sync/sample-package.test.ts checks the committed package is what this writes.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { samplePackagePath } from '../src/campus-sync/config.js'
import { generateSampleDepartment } from './sample/index.js'
import { csvText, oneRosterPackage } from './sample/oneroster.js'

const dir = process.argv[2] ?? samplePackagePath
await mkdir(dir, { recursive: true })
for (const [name, file] of Object.entries(oneRosterPackage(generateSampleDepartment(1)))) await writeFile(join(dir, name), csvText(file))
console.log(`wrote the sample OneRoster package to ${dir}`)
