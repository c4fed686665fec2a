import type { Test } from 'tap'
import { fixtureServer, readBody, sendJson } from '../helpers/fixture-server.js'
import type { CampusSyncConfig } from '../../src/campus-sync/config.js'
import { runCampusSync, type CampusSyncRequest, type SyncDeps, type SyncResult } from '../../src/campus-sync/runner.js'
import type { TestApp } from '../helpers/app.js'

const rosteringPath = '/ims/oneroster/rostering/v1p2/'
export type Row = Record<string, unknown>
export type Feed = Record<'academicSessions' | 'courses' | 'classes' | 'users' | 'enrollments', Row[]>

const at = (day: number) => `2025-09-${String(day).padStart(2, '0')}T10:00:00Z`

/** A small campus: one term, two courses and classes, a teacher, a staff member and two students. */
export function campus(): Feed {
  const user = (id: string, role: string, extra: Row = {}) => ({
    sourcedId: id, status: 'active', dateLastModified: at(1), enabledUser: 'true', givenName: `Given-${id}`, familyName: `Family-${id}`,
    identifier: `net-${id}`, email: `${id}@campus.example.edu`, roles: [{ roleType: 'primary', role }], ...extra,
  })
  return {
    academicSessions: [{ sourcedId: 'T1', status: 'active', dateLastModified: at(1), title: '25F', type: 'term', startDate: '2025-08-25', endDate: '2025-12-15' }],
    courses: [
      { sourcedId: 'C1', status: 'active', dateLastModified: at(1), title: 'Intro to Computing', courseCode: 'CSX 101' },
      { sourcedId: 'C2', status: 'active', dateLastModified: at(2), title: 'Data Structures', courseCode: 'CSX 201' },
    ],
    classes: [
      { sourcedId: 'K1', status: 'active', dateLastModified: at(1), title: 'CSX 101-01', classCode: 'CSX101-01', course: { sourcedId: 'C1' }, terms: [{ sourcedId: 'T1' }] },
      { sourcedId: 'K2', status: 'active', dateLastModified: at(1), title: 'CSX 201-02', classCode: '02', course: { sourcedId: 'C2' }, terms: [{ sourcedId: 'T1' }] },
    ],
    users: [user('F1', 'teacher'), user('A1', 'aide'), user('S1', 'student', { grades: ['UG'] }), user('S2', 'student', { grades: ['GR'] })],
    enrollments: [
      { sourcedId: 'E1', status: 'active', dateLastModified: at(1), role: 'teacher', primary: 'true', user: { sourcedId: 'F1' }, class: { sourcedId: 'K1' } },
      { sourcedId: 'E2', status: 'active', dateLastModified: at(1), role: 'student', user: { sourcedId: 'S1' }, class: { sourcedId: 'K1' } },
      { sourcedId: 'E3', status: 'active', dateLastModified: at(1), role: 'student', user: { sourcedId: 'S2' }, class: { sourcedId: 'K2' } },
    ],
  }
}

export interface Provider {
  readonly url: string
  readonly feed: Feed
  readonly requests: URL[]
  readonly tokenRequests: number
  /** Tokens the provider accepts; a test empties it to play an expiry. */
  readonly valid: Set<string>
  /** Answers HTTP 500 for a collection from an offset on. */
  failAt?: { collection: string; offset: number }
}

/** A OneRoster 1.2 REST provider over real HTTP: OAuth client credentials, limit/offset paging, dateLastModified filters. */
export async function provider(t: Test, feed: Feed = campus()): Promise<Provider> {
  const state: { -readonly [K in keyof Provider]: Provider[K] } = { url: '', feed, requests: [], tokenRequests: 0, valid: new Set() }
  state.url = await fixtureServer(t, async (request, response, url) => {
    if (url.pathname === '/token') {
      await readBody(request)
      if (request.headers.authorization !== `Basic ${Buffer.from('cid:s3cret').toString('base64')}`) return sendJson(response, 401, { error: 'invalid_client' })
      const token = `tok-${++state.tokenRequests}`
      state.valid.add(token)
      return sendJson(response, 200, { access_token: token, expires_in: 3600 })
    }
    const collection = url.pathname.slice(rosteringPath.length) as keyof Feed
    if (!url.pathname.startsWith(rosteringPath) || !(collection in state.feed)) return sendJson(response, 404, {})
    state.requests.push(url)
    if (!state.valid.has((request.headers.authorization ?? '').replace('Bearer ', ''))) return sendJson(response, 401, {})
    const offset = Number(url.searchParams.get('offset'))
    const limit = Number(url.searchParams.get('limit'))
    if (state.failAt?.collection === collection && offset >= state.failAt.offset) return sendJson(response, 500, { imsx_codeMajor: 'failure' })
    const since = /^dateLastModified>'(.+)'$/.exec(url.searchParams.get('filter') ?? '')?.[1]
    const rows = state.feed[collection].filter((row) => since === undefined || Date.parse(String(row.dateLastModified)) > Date.parse(since))
    sendJson(response, 200, { [collection]: rows.slice(offset, offset + limit) }, { 'x-total-count': String(rows.length) })
  })
  return state
}

export function restConfig(p: Provider, extra: Partial<CampusSyncConfig> = {}): CampusSyncConfig {
  return { source: { type: 'oneroster-rest', url: p.url, tokenUrl: `${p.url}/token`, clientId: 'cid', clientSecret: 's3cret' }, terms: [], deletePolicy: 'deactivate', maxDeactivatePercent: 10, ...extra }
}

export function syncDeps(test: TestApp, config?: CampusSyncConfig): SyncDeps {
  const { app } = test
  return { records: app.records, schema: app.schema, enrollments: app.enrollments, auditLog: app.auditLog, secrets: app.secrets, ...(config ? { config } : {}), sourceOptions: { pageSize: 2, timeoutMs: 30_000 } }
}

export const jobContext = (signal: AbortSignal = new AbortController().signal) => ({
  signal, progress: async () => {}, log: { info: () => {}, error: () => {} },
})

/**
 * Every run of these tests is checked for its accounting: per kind, created + updated + unchanged +
 * deactivated + skipped + errors is the rows the feed delivered, and the run says so.
 */
export async function sync(deps: SyncDeps, request: CampusSyncRequest): Promise<SyncResult> {
  return assertAccounted(await runCampusSync(deps, request, jobContext()))
}

export function assertAccounted<R extends Pick<SyncResult, 'by_kind' | 'accounted' | 'rows'>>(result: R): R {
  let rows = 0
  for (const [kind, k] of Object.entries(result.by_kind)) {
    const sum = k.created + k.updated + k.unchanged + k.deactivated + k.skipped + k.errors
    if (sum !== k.rows) throw new Error(`${kind}: ${k.rows} rows but ${sum} accounted for (${JSON.stringify(k)})`)
    rows += k.rows
  }
  if (rows !== result.rows || result.accounted !== true) throw new Error(`the run does not say its rows are accounted for: ${JSON.stringify(result)}`)
  return result
}

/** A kind's counts as the run reports them, rows first. */
export const kindCounts = (rows: number, counts: Partial<Record<'created' | 'updated' | 'unchanged' | 'deactivated' | 'absent' | 'skipped' | 'errors', number>>) => ({
  rows, created: 0, updated: 0, unchanged: 0, deactivated: 0, absent: 0, skipped: 0, errors: 0, ...counts,
})

/** A complete sync: courses, sections and people, in that order. */
export async function fullPass(deps: SyncDeps, extra: Partial<CampusSyncRequest> = {}): Promise<SyncResult[]> {
  const results: SyncResult[] = []
  for (const kind of ['courses', 'sections', 'people'] as const) results.push(await sync(deps, { kind, ...extra }))
  return results
}

export const catalogCollections = ['courses', 'sections', 'people', 'enrollments', 'audit_log', 'sync_watermarks']

export function writes(test: TestApp): Record<string, number> {
  return Object.fromEntries(catalogCollections.map((name) => [name, test.app.store.writeCounts!.of(name)]))
}

export const counts = (r: SyncResult) => ({ created: r.created, updated: r.updated, unchanged: r.unchanged, deactivated: r.deactivated, skipped: r.skipped, errors: r.errors.length, status: r.status })
