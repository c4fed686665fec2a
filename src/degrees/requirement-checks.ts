import { checkGroups, checkRule, type CatalogCourse, type RuleDraft } from '../domain/degrees/index.js'
import { ValidationFailed } from '../errors.js'
import type { RecordService } from '../records/service.js'
import type { ClassDef, CompiledSchema } from '../schema/index.js'

/** Every course of the catalog, as the rule checker needs it. */
export async function loadCatalog(records: RecordService, course: ClassDef): Promise<CatalogCourse[]> {
  const courses = await records.find(course, {})
  return courses.map((c) => ({ _id: c._id, course_code: String(c.course_code), credits: typeof c.credits === 'number' ? c.credits : null }))
}

function refuse(problems: readonly string[]): void {
  if (problems.length) throw new ValidationFailed(problems.join(' '))
}

/**
 * Requirement rules and groups are checked against the course catalog on every write, by whoever writes
 * them (API, seed, sync): a rule no student could ever meet, or one that would be misread, is refused
 * with the checker's sentences. Only schemas that hold these classes get the checks.
 */
export function installRequirementChecks(records: RecordService, schema: CompiledSchema): void {
  const [course, rule, group] = ['Course', 'RequirementRule', 'RequirementGroup'].map((name) => schema.class(name))
  if (!course || !rule || !group) return

  records.addCheck(rule.name, async (record, { id }) => {
    refuse(checkRule({ ...record, _id: id }, await loadCatalog(records, course)))
  })

  records.addCheck(group.name, async (record, { id }) => {
    const ids = Array.isArray(record.rules) ? record.rules.map(String) : []
    const found = new Map((await records.find(rule, { _id: { $in: ids } })).map((r) => [r._id, r]))
    // Missing rules were already refused by the reference check; the ones found are checked again, since
    // the catalog may have changed since they were written.
    const rules = ids.map((ruleId) => found.get(ruleId)).filter((r) => r !== undefined) as RuleDraft[]
    refuse(checkGroups([{ _id: id, name: record.name, rules }], await loadCatalog(records, course)))
  })
}
