import type { CompiledSchema } from '../schema/index.js'

// The field a validation sentence names first: `'url' must be a valid uri`, `'authors[2]' must be string`.
const namedField = /^'([a-z_]+)(?:[.[][^']*)?'/

export interface Usable {
  readonly fields: Record<string, unknown>
  /** One sentence per field left out, naming it and why. */
  readonly warnings: string[]
  /** Set when what is wrong cannot be left out (the title): the work is not written. */
  readonly refusal?: string
}

/**
 * The fields of a work as the record service would take them: a field whose value it would refuse (a
 * landing page that is no URI, a DOI longer than the schema allows) is left out with a warning, so one
 * unusable field never loses the whole work. On create only optional fields may go; an update may leave
 * out any field, which then keeps the value it had.
 */
export function usableFields(schema: CompiledSchema, className: string, variant: 'create' | 'update', input: Readonly<Record<string, unknown>>): Usable {
  const cls = schema.class(className)!
  const fields = { ...input }
  const warnings: string[] = []
  for (let left = Object.keys(fields).length; ; left--) {
    const problem = schema.validators.problem(className, variant, fields)
    if (problem === undefined) return { fields, warnings }
    const field = namedField.exec(problem)?.[1]
    const optional = variant === 'update' || cls.properties.some((p) => p.name === field && p.kind === 'optional')
    if (left === 0 || field === undefined || !(field in fields) || !optional) return { fields, warnings, refusal: problem }
    delete fields[field]
    warnings.push(`${problem}; imported without it`)
  }
}
