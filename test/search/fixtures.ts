import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'
import type { AppOptions } from '../../src/app.js'
import type { Permission } from '../../src/auth/permissions.js'
import { buildTestApp } from '../helpers/app.js'

/**
 * Every role holds every catalog read today, so a caller holding only some is made by narrowing the
 * signed-in principal to the permissions named in this test-only header, before access is checked.
 */
export const narrowedPermissions = 'x-test-permissions'
const narrowing = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (request) => {
    const names = request.headers[narrowedPermissions]
    if (typeof names === 'string' && request.principal) {
      request.principal = { ...request.principal, permissions: new Set(names.split(',').filter(Boolean) as Permission[]) }
    }
  })
})

/** A small department: faculty, staff, both kinds of student, three courses and a lab. */
export async function searchDepartment(t: Test, env: Record<string, string> = {}, options: AppOptions = {}) {
  const setup = await buildTestApp(t, env, { ...options, plugins: [...(options.plugins ?? []), narrowing] })
  const admin = setup.as('admin@dept.edu', 'admin')
  const post = async (url: string, payload: Record<string, unknown>) => {
    const res = await admin({ method: 'POST', url, payload })
    t.equal(res.statusCode, 201, `created ${JSON.stringify(payload).slice(0, 60)}`)
    const body = res.json()
    return (body.id ?? body._id) as string
  }
  const person = (payload: Record<string, unknown>) => post('/api/people', payload)
  const ids = {
    jose: await person({ type: 'Faculty', first_name: 'José', last_name: 'Núñez', email: 'jnunez@dept.edu', title: 'Associate Professor' }),
    anna: await person({ type: 'Faculty', first_name: 'Anna', last_name: 'Müller', email: 'amuller@dept.edu' }),
    uma: await person({ type: 'Faculty', first_name: 'Uma', last_name: 'Underwood', email: 'uunderwood@dept.edu' }),
    sam: await person({ type: 'Staff', first_name: 'Sam', last_name: 'Stafford', email: 'sstafford@dept.edu', title: 'Department Administrator' }),
    gina: '', una: '',
  }
  ids.gina = await person({ type: 'GraduateStudent', first_name: 'Gina', last_name: 'Grad', email: 'gina@dept.edu', advisors: [ids.jose] })
  ids.una = await person({ type: 'UndergraduateStudent', first_name: 'Una', last_name: 'Under', email: 'una@dept.edu' })
  const course = (code: string, title: string, description?: string) => post('/api/courses', { course_code: code, title, ...(description ? { description } : {}), credits: 4 })
  const courses = {
    intro: await course('CS 101', 'Introduction to Programming', 'First steps in programming with Python.'),
    data: await course('CS 201', 'Data Structures'),
    linear: await course('MATH 220', 'Linear Algebra', 'Vectors, matrices and data.'),
  }
  const lab = await post('/api/labs', { name: 'Graph Mining Lab', pi: ids.jose, description: 'Studies large graphs, networks and the data structures behind them.' })
  return { ...setup, admin, ids, courses, lab }
}

export interface Answer {
  query: string
  total: number
  results: { kind: string; _id: string; label: string; detail: string; score: number }[]
}

export interface KeyAnswer {
  readonly statusCode: number
  json(): any
}

/**
 * GETs as the holder of an API key, over real HTTP/1.1: `inject` lower-cases header names, and the
 * service accepts the key only under its exact name X-API-Key.
 */
export async function keyClient(app: FastifyInstance, key: string): Promise<(url: string) => Promise<KeyAnswer>> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return (path) => new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, agent: false, headers: { 'X-API-Key': key } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        resolve({ statusCode: res.statusCode!, json: () => JSON.parse(text) })
      })
    })
    req.on('error', reject)
    req.end()
  })
}
