import { fileURLToPath } from 'node:url'
import t from 'tap'
import ts from 'typescript'
import { buildModel } from '../../src/schema/check.js'
import { loadSchemaFiles, type RawFile } from '../../src/schema/load.js'
import { recordTypesFile, renderRecordTypes } from '../../src/schema/record-types.js'

// Type-checking the whole of src/ twice takes tens of seconds on a busy machine.
t.setTimeout(600_000)

const root = fileURLToPath(new URL('../../', import.meta.url))

/** The schema with one property of one class renamed everywhere the class's definition names it. */
function renamed(files: readonly RawFile[], className: string, from: string, to: string): RawFile[] {
  return files.map((file) => ({
    ...file,
    definitions: file.definitions.map((def) => def['@id'] === className
      ? JSON.parse(JSON.stringify(def).replaceAll(`"${from}"`, `"${to}"`)) as RawFile['definitions'][number]
      : def),
  }))
}

/** The type errors of src/ with the generated record types replaced by `records`, as file: message lines. */
function typeErrors(records: string, oldProgram?: ts.Program): { errors: string[]; program: ts.Program } {
  const config = ts.getParsedCommandLineOfConfigFile(`${root}tsconfig.json`, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!
  const generated = `${root}${recordTypesFile}`
  const host = ts.createCompilerHost(config.options)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, languageVersion, ...rest) => fileName === generated
    ? ts.createSourceFile(fileName, records, languageVersion)
    : getSourceFile(fileName, languageVersion, ...rest)
  const program = ts.createProgram({
    rootNames: config.fileNames.filter((name) => name.startsWith(`${root}src/`)), options: config.options, host, ...(oldProgram ? { oldProgram } : {}),
  })
  const errors = ts.getPreEmitDiagnostics(program).map((d) =>
    `${d.file ? d.file.fileName.slice(root.length) : '(no file)'}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`)
  return { errors, program }
}

t.test('renaming a schema field a service reads breaks the type check in that service', async (t) => {
  const files = await loadSchemaFiles(`${root}schema`)
  const asIs = typeErrors(renderRecordTypes(buildModel(files)))
  t.same(asIs.errors, [], 'the schema as it is: src/ type-checks')

  // Definitions (src/workflows/definitions.ts) read a Workflow's `version` to number the next one.
  const { errors } = typeErrors(renderRecordTypes(buildModel(renamed(files, 'Workflow', 'version', 'revision'))), asIs.program)
  t.ok(errors.some((e) => e.startsWith('src/workflows/definitions.ts: ') && e.includes("'version'")), 'Workflow.version renamed: an error where the service reads it', { errors })
  t.ok(errors.every((e) => !e.startsWith(`${recordTypesFile}: `)), 'the regenerated types themselves are sound', { errors })
})
