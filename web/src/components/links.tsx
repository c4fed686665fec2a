import type { ReactNode } from 'react'
import { Link } from 'react-router'

/** Record pages in the app, ids URL-encoded as the API's paths carry them (docs/web.md). */
export const personPath = (id: string) => `/people/${encodeURIComponent(id)}`
export const coursePath = (id: string) => `/courses/${encodeURIComponent(id)}`
/** A record's admin page, or its class's list without an id. */
export const recordsPath = (cls: string, id?: string) => `/admin/records/${encodeURIComponent(cls)}${id === undefined ? '' : `/${encodeURIComponent(id)}`}`

/** An address from a record, linked only when it is http(s): a `javascript:` value stays text. */
export function ExternalLink({ href, children }: { href: string; children: ReactNode }) {
  return /^https?:\/\//i.test(href) ? <a href={href} rel="noreferrer">{children}</a> : <>{children}</>
}

export function PersonLink({ id, children }: { id: string; children: ReactNode }) {
  return <Link to={personPath(id)}>{children}</Link>
}

/** The API's person types, in words. */
export const personTypes: Readonly<Record<string, string>> = {
  Faculty: 'Faculty',
  Staff: 'Staff',
  UndergraduateStudent: 'Undergraduate student',
  GraduateStudent: 'Graduate student',
}
