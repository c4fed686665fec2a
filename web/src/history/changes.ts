import type { components } from '../api/schema.js'

type Permission = components['schemas']['Permission']

/**
 * The record routes that keep a history (docs/history.md), each with the permission its restore needs: the
 * one the class schema names for writing the resource (`@metadata.permissions.write`). /api/schemas does
 * not serve it, so it is copied here: test/web/history-logic.test.ts holds it to the class schema, and a
 * route losing its history breaks the web type check (pages/history/routes.ts). It only decides whether
 * "Restore version N" is offered: the server decides the restore, and its refusal is shown.
 */
export const writePermissions = {
  '/api/academic-programs': 'write_courses',
  '/api/courses': 'write_courses',
  '/api/degrees': 'write_courses',
  '/api/groups': 'manage_groups',
  '/api/labs': 'write_labs',
  '/api/people': 'write_people',
  '/api/publications': 'write_publications',
  '/api/requirement-groups': 'write_courses',
  '/api/requirement-rules': 'write_courses',
  '/api/research-centers': 'write_labs',
  '/api/resources': 'write_resources',
  '/api/sections': 'write_courses',
} as const satisfies Record<string, Permission>

/** A record route that keeps a history, e.g. /api/courses. */
export type RecordRoute = keyof typeof writePermissions

/** A record's history entry's op, in words ("Version 3: updated"). */
export const opWords = {
  create: 'created',
  update: 'updated',
  deactivate: 'deactivated',
  delete: 'deleted',
} as const satisfies Record<'create' | 'update' | 'deactivate' | 'delete', string>

function words(name: string): string {
  const text = name.replace(/^_+/, '').replace(/_/g, ' ')
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/**
 * A change's JSON Pointer (RFC 6901) in words: `/course_code` is "Course code", `/members/2` "Members,
 * item 3", `/address/street` "Address, street". The pointer's own escapes (`~1` for `/`, `~0` for `~`)
 * are undone first, so a key holding a slash reads as written.
 */
export function fieldOf(pointer: string): string {
  const parts = pointer.split('/').slice(1).map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (parts.length === 0) return 'The whole record'
  const [first, ...rest] = parts
  return [words(first!), ...rest.map((part) => (/^\d+$/.test(part) ? `item ${Number(part) + 1}` : words(part).toLowerCase()))].join(', ')
}

/**
 * A value before or after a change, as text: absent (the field was added, or removed) and null (set
 * empty) are told apart, since a restore brings back exactly one of them.
 */
export function valueText(value: unknown, present: boolean): string {
  if (!present) return '(none)'
  if (value === null) return '(empty)'
  if (typeof value === 'string') return value === '' ? '(empty text)' : value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  return JSON.stringify(value)
}
