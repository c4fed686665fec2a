import type { WorkflowDomainKey } from '../workflows/registry.js'

/** Each domain's segment in the web app's approval pages (web/src/lib/inbox.ts). */
const webDomains: Readonly<Record<WorkflowDomainKey, string>> = {
  honors_thesis: 'thesis', independent_research: 'independent-research', fellowships: 'fellowships',
  award_nominations: 'award-nominations', major_plans: 'major-plans', graduate_milestones: 'graduate-milestones',
}

/** Where the web app shows an entity of a domain, to its approvers and to its submitter alike. */
export function entityLink(domain: WorkflowDomainKey, entityId: string): string {
  return `/approvals/${webDomains[domain]}/${encodeURIComponent(entityId)}`
}

/** Absolute: a path of the web app joined to where the web app is served. */
export function absoluteLink(frontendUrl: string, link: string): string {
  return `${frontendUrl.replace(/\/+$/, '')}${link}`
}
