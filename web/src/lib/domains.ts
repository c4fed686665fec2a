import type { components } from '../api/schema.js'

/** The API's name of a workflow domain, as workflow instances and notifications carry it. */
type ApiDomain = components['schemas']['WorkflowInstance']['domain']

/**
 * The six approval domains (docs/workflows.md), the app's one table of them: the app's path segment,
 * the API's name, a label, and the API's paths. Every list of domains in the app is read from here.
 */
export const domains = [
  { key: 'thesis', api: 'honors_thesis', label: 'Honors thesis', base: '/api/thesis/requests', pending: '/api/thesis/pending-approvals' },
  { key: 'independent-research', api: 'independent_research', label: 'Independent research', base: '/api/independent-research/requests', pending: '/api/independent-research/pending-approvals' },
  { key: 'fellowships', api: 'fellowships', label: 'Fellowship', base: '/api/fellowships/applications', pending: '/api/fellowships/pending-approvals' },
  { key: 'award-nominations', api: 'award_nominations', label: 'Award nomination', base: '/api/award-nominations/nominations', pending: '/api/award-nominations/pending-approvals' },
  { key: 'major-plans', api: 'major_plans', label: 'Major plan', base: '/api/major-plan-approvals', pending: '/api/major-plan-approvals/pending-approvals' },
  { key: 'graduate-milestones', api: 'graduate_milestones', label: 'Graduate milestone', base: '/api/graduate-milestones', pending: '/api/graduate-milestones/pending-approvals' },
] as const satisfies readonly { key: string; api: ApiDomain; label: string; base: string; pending: string }[]

export type Domain = (typeof domains)[number]
export type DomainKey = Domain['key']

export function domainOf(key: string): Domain | undefined {
  return domains.find((d) => d.key === key)
}

/** The API's workflow domains to the app's path segments; a domain the API adds fails the type check here. */
export const domainKeyOf = Object.fromEntries(domains.map((d) => [d.api, d.key])) as Record<ApiDomain, DomainKey>

type Unlisted = Exclude<ApiDomain, Domain['api']>
/** Fails the type check, naming the domain, when the API has one the table lacks. */
export const everyApiDomainListed: [Unlisted] extends [never] ? true : Unlisted = true
