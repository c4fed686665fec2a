/**
 * Titles of pending requests as people read them. The service titles a major plan by its plan's name
 * and student ("Major plan: Four years — Una Under"), and a plan with no name by its id ("Plan
 * StudentPlan/sample-plan-05"); the inbox, held to seven requests, cannot look such a plan up, so that
 * title names whoever submitted it instead, and the approval page names the plan and the student. A
 * title the service gives in words is shown as it is.
 */
import type { DomainKey } from '../lib/domains.js'

const planIdTitle = /^Plan StudentPlan\/\S+$/

/** The title of an inbox row. */
export function inboxTitle(row: { readonly domain: DomainKey; readonly title: string; readonly submitter: string; readonly submitter_name: string | null }): string {
  if (row.domain !== 'major-plans' || !planIdTitle.test(row.title)) return row.title
  return `Major plan from ${row.submitter_name ?? row.submitter}`
}

/** A major plan's title on its approval page: "Major plan: Four years — Una Under", with what is known. */
export function majorPlanTitle(planName: string | undefined, studentName: string | undefined): string {
  return `Major plan${planName ? `: ${planName}` : ''}${studentName ? ` — ${studentName}` : ''}`
}
