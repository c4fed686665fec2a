import { internalFields } from '../records/derived.js'
import type { CompiledSchema } from '../schema/index.js'
import type { Store } from '../store/port.js'
import type { SchemaChange } from './changes.js'

/** A change with what it does to the stored records. */
export interface CheckedChange extends SchemaChange {
  readonly breaks: number
  /** Up to five ids of records it breaks, with what the new schema says of the first. */
  readonly examples: readonly string[]
  readonly problem?: string
}

const exampleCount = 5
const batch = 1000

/** A stored record as the record schema sees it: without the fields the store keeps beside it. */
function asServed(doc: Record<string, unknown>): Record<string, unknown> {
  const record = { ...doc }
  for (const field of internalFields) delete record[field]
  return record
}

/** The property a validator's message names (`missing required field 'x'`, `'x' must be ...`), if any. */
function fieldOf(problem: string): string | undefined {
  return /'([A-Za-z_][A-Za-z0-9_]*)'/.exec(problem)?.[1]
}

/**
 * Checks the changes that are not compatible against the stored records: a record breaks when the
 * stored schema (`was`) accepts it and the files' (`is`) do not. Records the stored schema already
 * refused are none of these changes' doing. Each broken record counts against the changes of its class
 * whose property the new schema's complaint names, or all of them when it names none of theirs.
 */
export async function checkChanges(store: Store, was: CompiledSchema, is: CompiledSchema, changes: readonly SchemaChange[]): Promise<CheckedChange[]> {
  const checked = changes.map((change) => ({ ...change, breaks: 0, examples: [] as string[], problem: undefined as string | undefined }))
  const classes = new Set(checked.filter((c) => !c.compatible).flatMap((c) => c.classes))
  for (const name of classes) {
    const cls = was.class(name) ?? is.class(name)
    const collection = cls?.metadata.collection
    if (!collection) continue
    const mine = checked.filter((c) => !c.compatible && c.classes.includes(name))
    let after = ''
    for (;;) {
      const docs = await store.collection(collection).find({ type: name, _id: { $gt: after } }, { sort: [['_id', 1]], limit: batch })
      for (const doc of docs) {
        const record = asServed(doc)
        if (was.class(name) && was.validators.problem(name, 'record', record)) continue
        const problem = is.class(name) ? is.validators.problem(name, 'record', record) : `the class ${name} is gone`
        if (!problem) continue
        const field = fieldOf(problem)
        const named = mine.filter((c) => field !== undefined && c.property === field)
        for (const change of named.length ? named : mine) {
          change.breaks++
          if (change.examples.length < exampleCount) change.examples.push(doc._id)
          change.problem ??= problem
        }
      }
      if (docs.length < batch) break
      after = docs[docs.length - 1]!._id
    }
  }
  return checked
}

/** The report start-up stops with: each change that breaks records, how many, examples and the way out. */
export function changeReport(checked: readonly CheckedChange[]): string {
  const breaking = checked.filter((c) => c.breaks > 0)
  const lines = [`the class schema changed in ${breaking.length === 1 ? 'a way' : 'ways'} that would leave stored records invalid:`]
  for (const change of breaking) {
    lines.push(`  ${change.text}: breaks ${change.breaks} record${change.breaks === 1 ? '' : 's'} (${change.examples.join(', ')}${change.breaks > change.examples.length ? ', …' : ''})${change.problem ? `; ${change.problem}` : ''}`)
    if (change.remedy) lines.push(`    resolve with a migration in schema/migrations/: ${change.remedy}`)
  }
  lines.push('Nothing was changed. See docs/schemas.md, "Changing the schema"; `npm run schema:plan` shows this without starting.')
  return lines.join('\n')
}
