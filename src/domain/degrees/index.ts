export { auditDegree, compareAudits, DEFAULT_MAX_STATES } from './audit.js'
export { checkGroups, checkRule, type CatalogCourse, type GroupDraft, type RuleDraft } from './check-rules.js'
export { firstFit } from './first-fit.js'
export type * from './types.js'
