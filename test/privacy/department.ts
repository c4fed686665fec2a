import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import type { AppOptions } from '../../src/app.js'
import { userIdForEmail } from '../../src/auth/tokens.js'
import type { AuditEntry } from '../../src/privacy/audit-entry.js'
import { auditCollection } from '../../src/privacy/audit-log.js'
import { buildTestApp, type TestApp } from '../helpers/app.js'

export type Inject = (options: InjectOptions) => Promise<LightMyRequestResponse>

/** Every kind of caller the access rule tells apart, with the user id its audit entries carry. */
export const callerKinds = ['student', 'advisor', 'instructor', 'otherStudent', 'faculty', 'staff', 'admin', 'apiKey', 'anonymous'] as const
export type CallerKind = (typeof callerKinds)[number]

export const emails = {
  admin: 'admin@dept.edu',
  student: 'una@dept.edu',
  advisor: 'fay@dept.edu',
  instructor: 'ian@dept.edu',
  otherStudent: 'otto@dept.edu',
  faculty: 'gus@dept.edu',
  staff: 'stu@dept.edu',
} as const

export const path = (id: string) => encodeURIComponent(id)

/**
 * `inject` over a real HTTP/1.1 connection, so header names reach the server spelled as given (`inject`
 * lower-cases them, and the API key header must be spelled X-API-Key).
 */
function overHttp(app: FastifyInstance): Inject {
  let listening: Promise<number> | undefined
  const port = () => (listening ??= app.listen({ port: 0, host: '127.0.0.1' }).then(() => (app.server.address() as AddressInfo).port))
  return async (opts) => {
    const payload = opts.payload === undefined ? undefined : JSON.stringify(opts.payload)
    const headers = { ...(opts.headers as Record<string, string>), ...(payload ? { 'Content-Type': 'application/json' } : {}) }
    const at = await port()
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: at, method: opts.method ?? 'GET', path: String(opts.url), headers, agent: false }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          const body = Buffer.concat(chunks).toString('utf8')
          resolve({ statusCode: res.statusCode!, headers: res.headers, body, json: () => JSON.parse(body) } as unknown as LightMyRequestResponse)
        })
      })
      req.on('error', reject)
      req.end(payload)
    })
  }
}

/**
 * A small department built through the API: Una (an undergraduate advised by Fay) and Otto (another
 * student, advised by Gus); Una's declared major is a degree whose one rule asks for MATH 150 and CS 201. Ian teaches CS 101's fall section but advises no one; Stu is staff. Una has
 * three enrollments. `callers` makes requests as each kind of caller; `apiKey` uses the admin's own key.
 */
export async function department(t: Test, env: Record<string, string> = {}, options: AppOptions = {}) {
  const setup: TestApp = await buildTestApp(t, env, options)
  const { app, as } = setup
  const admin = as(emails.admin, 'admin')
  const post = async (url: string, payload: object) => {
    const res = await admin({ method: 'POST', url, payload })
    if (res.statusCode !== 201) throw new Error(`POST ${url} answered ${res.statusCode}: ${res.body}`)
    return res.json() as { id?: string; _id?: string; key?: string }
  }
  const person = async (body: object) => (await post('/api/people', body)).id!
  const degree = (await post('/api/degrees', { name: 'Computer Science', degree_type: 'BS' }))._id!
  const fay = await person({ type: 'Faculty', first_name: 'Fay', last_name: 'Advisor', email: emails.advisor })
  const ian = await person({ type: 'Faculty', first_name: 'Ian', last_name: 'Instructor', email: emails.instructor })
  const gus = await person({ type: 'Faculty', first_name: 'Gus', last_name: 'Other', email: emails.faculty })
  const una = await person({ type: 'UndergraduateStudent', first_name: 'Una', last_name: 'Under', email: emails.student, advisors: [fay], declared_majors: [degree] })
  const otto = await person({ type: 'UndergraduateStudent', first_name: 'Otto', last_name: 'Else', email: emails.otherStudent, advisors: [gus] })
  await person({ type: 'Staff', first_name: 'Stu', last_name: 'Staff', email: emails.staff })
  const cs101 = (await post('/api/courses', { course_code: 'CS 101', title: 'Programming', credits: 4 }))._id!
  const math150 = (await post('/api/courses', { course_code: 'MATH 150', title: 'Calculus', credits: 3 }))._id!
  const cs201 = (await post('/api/courses', { course_code: 'CS 201', title: 'Data Structures', credits: 3 }))._id!
  const core = (await post('/api/requirement-rules', { name: 'Core', rule_type: 'all_of', courses: [math150, cs201] }))._id!
  await post('/api/requirement-groups', { name: 'Core courses', degree, order: 1, rules: [core] })
  const section = (await post('/api/sections', { course: cs101, term: '25F', section_number: '01', instructors: [ian] }))._id!
  const enrollment = (await post('/api/enrollments', { student: una, course: cs101, section, term: '25F', status: 'completed', grade: 'A-' }))._id!
  await post('/api/enrollments', { student: una, course: math150, term: '25F', status: 'completed', credits: 3, grade: 'B+' })
  await post('/api/enrollments', { student: una, course: cs201, term: '26S', status: 'enrolled', credits: 3 })
  const key = (await post('/api/api-keys', { name: 'reader', permissions: ['read_people', 'read_courses'] })).key!
  const keyed = overHttp(app)

  const callers: Record<CallerKind, Inject> = {
    student: as(emails.student, 'student'),
    advisor: as(emails.advisor, 'faculty'),
    instructor: as(emails.instructor, 'faculty'),
    otherStudent: as(emails.otherStudent, 'student'),
    faculty: as(emails.faculty, 'faculty'),
    staff: as(emails.staff, 'staff'),
    admin,
    apiKey: (opts) => keyed({ ...opts, headers: { ...opts.headers, 'X-API-Key': key } }),
    anonymous: (opts) => app.inject(opts),
  }
  const userIds: Record<CallerKind, string | null> = {
    ...(Object.fromEntries(Object.entries(emails).map(([kind, email]) => [kind, userIdForEmail(email)])) as Record<keyof typeof emails, string>),
    apiKey: userIdForEmail(emails.admin),
    anonymous: null,
  }
  const audit = app.store.collection<AuditEntry & { _id: string }>(auditCollection)
  /** Every audit entry, oldest first. */
  const auditEntries = () => audit.find({}, { sort: [['_id', 1]] })
  return { ...setup, admin, callers, userIds, audit, auditEntries, ids: { fay, ian, gus, una, otto, cs101, math150, cs201, section, enrollment, degree } }
}
