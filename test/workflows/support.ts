import type { Test } from 'tap'
import type { Principal } from '../../src/auth/principal.js'
import type { Role } from '../../src/auth/permissions.js'
import { userIdForEmail } from '../../src/auth/tokens.js'
import type { WorkflowService } from '../../src/workflows/service.js'
import { buildTestApp } from '../helpers/app.js'
import { testActor } from '../helpers/actor.js'

/** A signed-in user as the auth plugin establishes one (each call a fresh object, as each request gets). */
export function principal(email: string, role: Role): Principal {
  return { kind: 'user', userId: userIdForEmail(email), email, role, permissions: new Set(), groups: [] }
}

/** The owner's API key: the same user, reaching through a key. */
export function keyPrincipal(email: string, role: Role): Principal {
  return { ...principal(email, role), kind: 'api-key', apiKey: { id: 'ApiKey/k', prefix: 'adks_abcdefg' } }
}

export const emails = {
  admin: 'ada@dept.edu', admin2: 'abe@dept.edu',
  una: 'una@dept.edu', gina: 'gina@dept.edu',
  fay: 'fay@dept.edu', fred: 'fred@dept.edu', gus: 'gus@dept.edu',
  c1: 'c1@dept.edu', c2: 'c2@dept.edu', c3: 'c3@dept.edu',
  stu: 'stu@dept.edu',
} as const
type Who = keyof typeof emails
const roles: Record<Who, Role> = {
  admin: 'admin', admin2: 'admin', una: 'student', gina: 'student', fay: 'faculty', fred: 'faculty', gus: 'faculty',
  c1: 'faculty', c2: 'faculty', c3: 'faculty', stu: 'staff',
}

/**
 * A department on a fresh embedded store: Una (undergraduate, advised by Fay and Fred), Gina (graduate,
 * advised by Fay, committee C1–C3), Gus (faculty, unrelated), Stu (staff), two admins with Person
 * records. C1–C3 also sit on the fellowship and awards committees (groups of their users).
 */
export async function workflowDepartment(t: Test, env: Record<string, string> = {}) {
  const testApp = await buildTestApp(t, env)
  const { app } = testApp
  const records = app.records
  const user = async (who: Who) => records.create('User', { email: emails[who], role: roles[who], affiliation: [] }, { actor: testActor, key: userIdForEmail(emails[who]).slice('User/'.length) })
  const person = async (type: string, who: Who, extra: object = {}) =>
    (await records.create(type, { first_name: who, last_name: 'X', email: emails[who], ...extra }, { actor: testActor }))._id
  for (const who of Object.keys(emails) as Who[]) await user(who)
  const admin = await person('Staff', 'admin')
  const admin2 = await person('Staff', 'admin2')
  const fay = await person('Faculty', 'fay')
  const fred = await person('Faculty', 'fred')
  const gus = await person('Faculty', 'gus')
  const c1 = await person('Faculty', 'c1')
  const c2 = await person('Faculty', 'c2')
  const c3 = await person('Faculty', 'c3')
  const stu = await person('Staff', 'stu')
  const una = await person('UndergraduateStudent', 'una', { advisors: [fay, fred] })
  const gina = await person('GraduateStudent', 'gina', { advisors: [fay], committee: [c1, c2, c3] })
  const committeeUsers = [emails.c1, emails.c2, emails.c3].map(userIdForEmail)
  for (const name of ['Fellowship committee', 'Awards committee']) {
    await records.create('Group', { name, permissions: [], members: committeeUsers }, { actor: testActor })
  }
  const as = (who: Who) => principal(emails[who], roles[who])
  const workflows: WorkflowService = app.workflows
  /** `app.inject` over HTTP as one of the department. */
  const http = (who: Who) => testApp.as(emails[who], roles[who])
  return { app, records, workflows, as, http, config: testApp.config, ids: { admin, admin2, fay, fred, gus, c1, c2, c3, stu, una, gina } }
}

export type Department = Awaited<ReturnType<typeof workflowDepartment>>

/** Resolves to the error the promise rejected with, or fails the test. */
export async function rejection(t: Test, promise: Promise<unknown>): Promise<Error & { statusCode?: number }> {
  try {
    await promise
  } catch (error) {
    return error as Error & { statusCode?: number }
  }
  t.fail('expected a rejection')
  return new Error('resolved')
}
