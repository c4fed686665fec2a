import type { Test } from 'tap'
import type { AppOptions } from '../../src/app.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import type { Inject } from '../helpers/records.js'
import { privatePrefix, sharedRedisUrl } from './redis.js'

export type Adapter = 'memory' | 'redis'
export const adapters: readonly Adapter[] = ['memory', 'redis']

export interface Department extends TestApp {
  readonly admin: Inject
  readonly ids: { advisor: string; other: string; grad: string; undergrad: string; staff: string; course: string; publication: string }
  /** The environment that points another instance at the same cache. */
  readonly cacheEnv: Record<string, string>
}

export const personUrl = (id: string, suffix = '') => `/api/people/${encodeURIComponent(id)}${suffix}`
export const courseUrl = (id: string) => `/api/courses/${encodeURIComponent(id)}`

/** The cache environment for an adapter: the shared Redis under a prefix private to the test, or none. */
export async function cacheEnv(t: Test, adapter: Adapter): Promise<Record<string, string>> {
  if (adapter === 'memory') return {}
  const { prefix } = await privatePrefix(t)
  // These tests assert on what the cache holds, not on its failure policy (outage.test.ts has that): the
  // longest timeout the setting allows keeps a machine with both cores busy from turning hits into bypasses.
  return { CACHE_REDIS_URL: sharedRedisUrl, CACHE_KEY_PREFIX: prefix, CACHE_TIMEOUT_MS: '30000' }
}

/** A small department on a fresh app using the given cache adapter. */
export async function department(t: Test, adapter: Adapter, env: Record<string, string> = {}, options: AppOptions = {}): Promise<Department> {
  const shared = await cacheEnv(t, adapter)
  const setup = await buildTestApp(t, { ...shared, ...env }, options)
  const admin = setup.as('admin@dept.edu', 'admin')
  const create = async (url: string, body: Record<string, unknown>) => {
    const res = await admin({ method: 'POST', url, payload: body })
    if (res.statusCode !== 201) throw new Error(`${url}: ${res.statusCode} ${res.body}`)
    return (res.json().id ?? res.json()._id) as string
  }
  const advisor = await create('/api/people', { type: 'Faculty', first_name: 'Fay', last_name: 'Advisor', email: 'fay@dept.edu', title: 'Professor' })
  const other = await create('/api/people', { type: 'Faculty', first_name: 'Gus', last_name: 'Other', email: 'gus@dept.edu' })
  const grad = await create('/api/people', { type: 'GraduateStudent', first_name: 'Gina', last_name: 'Grad', email: 'gina@dept.edu', advisors: [advisor] })
  const undergrad = await create('/api/people', { type: 'UndergraduateStudent', first_name: 'Una', last_name: 'Under', email: 'una@dept.edu', advisors: [advisor] })
  const staff = await create('/api/people', { type: 'Staff', first_name: 'Stu', last_name: 'Staff', email: 'stu@dept.edu' })
  const course = await create('/api/courses', { course_code: 'CS 101', title: 'Introduction to Programming' })
  const publication = await create('/api/publications', { title: 'Graphs of Students', authors: ['G. Grad', 'F. Advisor'], dept_authors: [grad, advisor] })
  return { ...setup, admin, ids: { advisor, other, grad, undergrad, staff, course, publication }, cacheEnv: shared }
}
