import type { EventType } from '../../domain/notifications/events.js'

/**
 * The emails' words (docs/notifications.md): logic-less `{{name}}` templates kept in code, one per event
 * type, each a subject, a plain-text line and the same line in HTML. They say what happened or awaits and
 * link to it; the reader signs in to see the rest, so no template has a slot for a comment, a grade or a
 * token. Values are made single-line before they go anywhere (a title with CR/LF must not become a header),
 * and escaped in the HTML part.
 */
export interface Rendered {
  readonly subject: string
  readonly text: string
  readonly html: string
}

export type Vars = Readonly<Record<string, string>>

interface EventTemplate {
  /** `{{title}}` and `{{stage}}` are known; every template links to `{{link}}` below its line. */
  readonly subject: string
  readonly line: string
}

export const eventTemplates: Readonly<Record<EventType, EventTemplate>> = {
  'workflow.submitted': { subject: 'Submitted: {{title}}', line: '"{{title}}" was submitted for approval.' },
  'workflow.stage_activated': { subject: 'Awaiting your decision: {{title}}', line: '"{{title}}" awaits your decision at {{stage}}.' },
  'workflow.decided': { subject: 'A decision on {{title}}', line: 'A decision was recorded on "{{title}}" at {{stage}}.' },
  'workflow.revision_requested': { subject: 'Revision requested: {{title}}', line: 'A revision of "{{title}}" was requested.' },
  'workflow.approved': { subject: 'Approved: {{title}}', line: '"{{title}}" was approved.' },
  'workflow.rejected': { subject: 'Not approved: {{title}}', line: '"{{title}}" was not approved.' },
  'workflow.withdrawn': { subject: 'Withdrawn: {{title}}', line: '"{{title}}" was withdrawn.' },
  'workflow.delegated': { subject: 'Delegated to you: {{title}}', line: 'A decision on "{{title}}" at {{stage}} was delegated to you.' },
  'workflow.due_soon': { subject: 'Due soon: {{title}}', line: 'Your decision on "{{title}}" at {{stage}} is due soon.' },
  'workflow.overdue': { subject: 'Overdue: {{title}}', line: 'The decision on "{{title}}" at {{stage}} is overdue.' },
  'job.failed': { subject: 'A job failed: {{title}}', line: 'A background job failed: {{title}}.' },
  'sync.refused': { subject: 'Campus sync refused: {{title}}', line: 'A campus sync was refused: {{title}}.' },
  'sync.completed': { subject: 'Campus sync completed: {{title}}', line: 'A campus sync completed: {{title}}.' },
  'publications.imported': { subject: 'New works to review: {{title}}', line: 'New works were imported for you to review: {{title}}.' },
  'record.restored': { subject: 'Record restored: {{title}}', line: 'A record was restored: {{title}}.' },
  'sync.reverted': { subject: 'Run reverted: {{title}}', line: 'A run was reverted: {{title}}.' },
  'backup.completed': { subject: 'Backup made: {{title}}', line: 'A backup was made: {{title}}.' },
  'backup.failed': { subject: 'Backup failed: {{title}}', line: 'A backup failed: {{title}}.' },
}

const eventText = '{{line}}\n\nOpen it: {{link}}\n\n{{footer}}\n'
const eventHtml = '<p>{{line}}</p>\n<p><a href="{{link}}">Open it</a></p>\n<p style="color:#666">{{footer}}</p>\n'

/** The digest: a header line, then one item line per entry of each non-empty section. */
export const digestTemplates = {
  subject: 'Your {{frequency}} digest: {{summary}}',
  awaitingHeading: 'Awaiting your decision ({{awaiting}})',
  newsHeading: 'Other updates ({{news}})',
  awaitingItem: { text: '- {{title}}: {{stage}}, {{due}}\n  {{link}}', html: '<li><a href="{{link}}">{{title}}</a>: {{stage}}, {{due}}</li>' },
  newsItem: { text: '- {{what}}\n  {{link}}', html: '<li><a href="{{link}}">{{what}}</a></li>' },
} as const

export const footer = 'You get these emails as your notification preferences say; change them in the web app.'

/** Control characters (CR, LF, tabs, escapes) and line separators become spaces: a value is one line. */
export function oneLine(value: string, max = 300): string {
  return value.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').replace(/ {2,}/g, ' ').trim().slice(0, max)
}

export function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

/**
 * `{{name}}` replaced by its value, escaped by `escape`; a name without a value is a fault of the
 * templates (they are in code), not of the data, so it throws.
 */
export function fill(template: string, vars: Vars, escape: (value: string) => string = (v) => v): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = vars[name]
    if (value === undefined) throw new Error(`the email template names {{${name}}}, which has no value`)
    return escape(value)
  })
}

/** Values for one event's email: single-line, the stage worded, the link absolute. */
export function eventVars(event: { title: string; stage?: string | undefined }, link: string): Vars {
  return {
    title: oneLine(event.title) || 'an item',
    stage: event.stage ? `the ${oneLine(event.stage, 60)} stage` : 'its current stage',
    link: oneLine(link, 2000),
    footer,
  }
}

export function renderEvent(type: EventType, vars: Vars): Rendered {
  const template = eventTemplates[type]
  const textLine = fill(template.line, vars)
  const htmlLine = fill(template.line, vars, escapeHtml)
  return {
    subject: oneLine(fill(template.subject, vars), 250),
    text: fill(eventText, { ...vars, line: textLine }),
    // The line is escaped already; the outer template's other values are escaped here.
    html: fill(eventHtml, { link: escapeHtml(vars.link!), footer: escapeHtml(footer), line: htmlLine }),
  }
}

export interface DigestEntry {
  readonly title: string
  readonly link: string
  readonly stage: string
  readonly due: string
}

export interface NewsEntry {
  /** The event's subject line, e.g. "Approved: Tides". */
  readonly what: string
  readonly link: string
}

/**
 * The digest subject's counts in words: an empty part is left out (no "0 other updates"), news is
 * "other" only beside something awaiting, and a count of one is singular.
 */
export function digestSummary(awaiting: number, news: number): string {
  const parts: string[] = []
  if (awaiting > 0) parts.push(`${awaiting} awaiting your decision`)
  if (news > 0) parts.push(`${news} ${awaiting > 0 ? 'other ' : ''}${news === 1 ? 'update' : 'updates'}`)
  return parts.join(', ') || 'nothing new'
}

/** A digest's message; the caller sends none when both lists are empty. */
export function renderDigest(frequency: string, awaiting: readonly DigestEntry[], news: readonly NewsEntry[]): Rendered {
  const counts = { frequency, awaiting: String(awaiting.length), news: String(news.length), summary: digestSummary(awaiting.length, news.length) }
  const textParts: string[] = []
  const htmlParts: string[] = []
  const section = <T extends object>(heading: string, item: { text: string; html: string }, entries: readonly T[]) => {
    if (!entries.length) return
    const values = entries.map((entry) => Object.fromEntries(Object.entries(entry).map(([k, v]) => [k, oneLine(String(v), 2000)])) as Vars)
    textParts.push(`${fill(heading, counts)}\n\n${values.map((v) => fill(item.text, v)).join('\n')}`)
    htmlParts.push(`<h3>${fill(heading, counts, escapeHtml)}</h3>\n<ul>\n${values.map((v) => fill(item.html, v, escapeHtml)).join('\n')}\n</ul>`)
  }
  section(digestTemplates.awaitingHeading, digestTemplates.awaitingItem, awaiting)
  section(digestTemplates.newsHeading, digestTemplates.newsItem, news)
  return {
    subject: oneLine(fill(digestTemplates.subject, counts), 250),
    text: `${textParts.join('\n\n')}\n\n${footer}\n`,
    html: `${htmlParts.join('\n')}\n<p style="color:#666">${escapeHtml(footer)}</p>\n`,
  }
}
