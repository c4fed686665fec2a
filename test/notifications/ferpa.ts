/**
 * The FERPA check every message the suite sends passes through (docs/notifications.md): the test SMTP server
 * and webhook receivers run it on each email and payload they receive. A message may name ids, the type, an
 * entity's title and a link; it must hold no grade, GPA, transcript line, approver's comment or token. Tests
 * write comments with `commentMarker` in them so a leaked comment is found.
 */
export const commentMarker = 'PRIVATE-COMMENT'

const forbidden: readonly [RegExp, string][] = [
  [new RegExp(commentMarker), "an approver's comment"],
  [/\bgpa\b/i, 'a GPA'],
  [/\bgrade[sd]?\b\s*[:=]/i, 'a grade'],
  [/"grade"|"grade_points"|"credits_earned"/i, 'a grade field'],
  [/\btranscript\b/i, 'a transcript'],
  [/\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]+/, 'a JWT'],
  [/\badks_[A-Za-z0-9]{8,}/, 'an API key'],
  [/\bwhsec_[A-Za-z0-9+/=]{8,}/, 'a webhook secret'],
]

/** What in `text` no notification may carry; empty when it is clean. */
export function ferpaViolations(text: string): string[] {
  return forbidden.filter(([pattern]) => pattern.test(text)).map(([, what]) => what)
}
