import { api, ApiError } from '../api/client'
import { domains, type Domain } from '../lib/domains'
import type { Me } from '../session/me'
import { kindOf, type RequestEntity } from './request-kinds'

export interface Row { readonly domain: Domain; readonly entity: RequestEntity }
export interface Listed { readonly rows: Row[]; readonly failures: { domain: Domain; error: string }[] }

/** Requests still under way: not yet approved, rejected or withdrawn. */
export function isOpen(entity: RequestEntity): boolean {
  return entity.status === 'draft' || entity.status === 'submitted' || entity.status === 'revision_requested'
}

export function titleOf(domain: Domain, entity: RequestEntity, planNames: ReadonlyMap<string, string> = new Map()): string {
  const kind = kindOf(domain.key)!
  const value = (Object.fromEntries(Object.entries(entity)) as Record<string, unknown>)[kind.titleField]
  const text = typeof value === 'string' ? value : entity._id
  return kind.domain === 'major-plans' ? `Plan: ${planNames.get(text) ?? text}` : text
}

/**
 * Where the caller's own requests are, and the filter naming them. A student's list of any domain holds
 * their own requests (and any they are asked to decide, which students seldom are), so it needs no
 * filter. Anyone else owns requests only as a fellowship's applicant or a nomination's nominator, both
 * Persons; the student-owned domains' filters take student ids only, and a caller linked to no Person
 * owns none.
 */
function ownLists(me: Pick<Me, 'role' | 'personId'>): { domain: Domain; query: Record<string, string> }[] {
  if (me.role === 'student') return domains.map((domain) => ({ domain, query: {} }))
  const person = me.personId
  if (!person) return []
  return domains.flatMap((domain) => {
    const owner = kindOf(domain.key)!.owner
    return owner === 'student' ? [] : [{ domain, query: { [owner]: person } }]
  })
}

/** The caller's requests in every domain they can own, side by side; a domain that fails is reported, the others shown. */
export async function ownRequests(me: Pick<Me, 'role' | 'personId'>): Promise<Listed> {
  type Answer = { domain: Domain; items: RequestEntity[] } | { domain: Domain; error: string }
  const answers = await Promise.all(ownLists(me).map(async ({ domain, query }): Promise<Answer> => {
    try {
      const page = await api('get', domain.base, { query: { limit: 200, ...query } })
      return { domain, items: page.items }
    } catch (error) {
      return { domain, error: error instanceof ApiError ? error.message : String(error) }
    }
  }))
  const rows: Row[] = []
  const failures: { domain: Domain; error: string }[] = []
  for (const answer of answers) {
    if ('error' in answer) failures.push({ domain: answer.domain, error: answer.error })
    else for (const entity of answer.items) rows.push({ domain: answer.domain, entity })
  }
  rows.sort((a, b) => Date.parse(b.entity._updated_at) - Date.parse(a.entity._updated_at))
  return { rows, failures }
}

/** The names of the plans the caller's major-plan requests review, read from their student's plans. */
export async function planNamesOf(rows: readonly Row[]): Promise<Map<string, string>> {
  const review = rows.find((r) => r.domain.key === 'major-plans')?.entity
  if (!review || !('plan' in review)) return new Map()
  const plans = await api('get', '/api/student-plans/{id}', { path: { id: review.student } }).catch(() => ({ items: [] }))
  return new Map(plans.items.map((p) => [p._id, p.plan_name]))
}
