import { createServer } from 'node:net'
import type { Browser, Page } from 'playwright-core'
import type { Test } from 'tap'
import { signInLink } from '../../src/auth/custom-token.js'
import { signingKeys } from '../../src/auth/keys.js'
import type { Role } from '../../src/auth/permissions.js'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'
import { people, workflowDepartment, type Department, type Name } from '../routes/workflows/support.js'
import { newPage } from './browser.js'
import { ensureWebBuilt } from './build.js'

/** A free loopback port, so PUBLIC_URL (where sign-in redirects lead) can name it before the app starts. */
async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

export interface Served {
  /** http://127.0.0.1:<port>, the app's PUBLIC_URL. */
  readonly base: string
  /** A one-time sign-in link, as `npm run token -- EMAIL --role ROLE --link` prints it. */
  link(email: string, role?: Role): Promise<string>
}

/**
 * The real service with the built web app, listening on a loopback port that is its PUBLIC_URL.
 * `build` makes the app in-process on that configuration (buildTestApp, or a department on top of it).
 */
export async function serve<T extends TestApp>(build: (env: Record<string, string>) => Promise<T>, env: Record<string, string> = {}): Promise<T & Served> {
  const webDir = await ensureWebBuilt()
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  const built = await build({ PUBLIC_URL: base, WEB_DIR: webDir, ...env })
  await built.app.listen({ port, host: '127.0.0.1' })
  const keys = await signingKeys(built.config)
  const link = async (email: string, role?: Role) => signInLink(keys, built.config, { sub: userIdForEmail(email), email, ...(role ? { role_grant: role } : {}) })
  return { ...built, base, link }
}

export const servedApp = (t: Test, env: Record<string, string> = {}) => serve((e) => buildTestApp(t, e), env)

export interface WebDepartment extends Department, Served {
  /** Una's degree, with one group of two rules; she has completed one of its courses. */
  readonly groupName: string
  /** A sign-in link for one of the department's people. */
  linkFor(name: Name): Promise<string>
}

/**
 * The workflow suites' department (test/routes/workflows/support.ts), served with the web app, and a
 * degree audit for Una: "Core" needs CS 101 and CS 102 (she passed CS 101) and one of CS 201 or CS 202.
 */
export async function webDepartment(t: Test): Promise<WebDepartment> {
  const d = await serve((env) => workflowDepartment(t, env))
  const post = async (url: string, payload: object) => {
    const res = await d.admin({ method: 'POST', url, payload })
    if (res.statusCode !== 201) throw new Error(`POST ${url} answered ${res.statusCode}: ${res.body}`)
    return (res.json()._id ?? res.json().id) as string
  }
  const course = (code: string) => post('/api/courses', { course_code: code, title: `Course ${code}`, credits: 3 })
  const [cs101, cs102, cs201, cs202] = [await course('CS 101'), await course('CS 102'), await course('CS 201'), await course('CS 202')]
  const both = await post('/api/requirement-rules', { name: 'Introduction', rule_type: 'all_of', courses: [cs101, cs102] })
  const either = await post('/api/requirement-rules', { name: 'One systems course', rule_type: 'n_of', count: 1, courses: [cs201, cs202] })
  const groupName = 'Core'
  await post('/api/requirement-groups', { name: groupName, degree: d.degree, order: 1, rules: [both, either] })
  await post('/api/enrollments', { student: d.ids.una, course: cs101, term: '25F', status: 'completed', grade: 'A' })
  return { ...d, groupName, linkFor: (name: Name) => d.link(people[name].email, people[name].role) }
}

/**
 * Opens pages as the department's people: each in a fresh context of `browser`, signed in through a
 * link (landing on the dashboard), then at `to` when given.
 */
export function signInAs(browser: Browser, d: WebDepartment) {
  return async (t: Test, name: Name, to?: string): Promise<Page> => {
    const page = await newPage(t, browser)
    await page.goto(await d.linkFor(name))
    await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
    if (to) await page.goto(`${d.base}${to}`)
    return page
  }
}
