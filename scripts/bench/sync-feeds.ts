/**
 * The outside systems of `npm run bench:sync`, generated and served over real HTTP on 127.0.0.1: a
 * OneRoster 1.2 REST provider (client credentials, limit/offset paging, dateLastModified deltas) and
 * OpenAlex (authors and their works by cursor).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

type Row = Record<string, unknown>
export type Feed = Record<'academicSessions' | 'courses' | 'classes' | 'users' | 'enrollments', Row[]>

export interface FeedSize {
  readonly users: number
  readonly classes: number
  readonly enrollments: number
}

const modified = '2025-08-01T12:00:00Z'
const pad = (n: number) => String(n).padStart(5, '0')

/**
 * One term of a campus: a teacher per 25 users, an aide per 100, the rest students (a fifth graduate);
 * a course per four classes; each class's teacher enrolled, the other enrollments students spread
 * over distinct classes.
 */
export function campusFeed(size: FeedSize): Feed {
  const teachers = Math.floor(size.users / 25)
  const aides = Math.floor(size.users / 100)
  const courses = Math.ceil(size.classes / 4)
  const base = { status: 'active', dateLastModified: modified }
  const user = (n: number, role: string, extra: Row = {}): Row => ({
    ...base, sourcedId: `U${pad(n)}`, enabledUser: 'true', givenName: `Given${pad(n)}`, familyName: `Family${pad(n)}`,
    identifier: `net${pad(n)}`, email: `u${pad(n)}@campus.example.edu`, roles: [{ roleType: 'primary', role }], ...extra,
  })
  const users: Row[] = []
  for (let n = 0; n < size.users; n++) {
    if (n < teachers) users.push(user(n, 'teacher'))
    else if (n < teachers + aides) users.push(user(n, 'aide'))
    else users.push(user(n, 'student', { grades: [n % 5 === 0 ? 'GR' : 'UG'] }))
  }
  const students = size.users - teachers - aides
  const enrollments: Row[] = []
  const enroll = (userN: number, classN: number, role: string) =>
    enrollments.push({ ...base, sourcedId: `E${enrollments.length}`, role, ...(role === 'teacher' ? { primary: 'true' } : {}), user: { sourcedId: `U${pad(userN)}` }, class: { sourcedId: `K${pad(classN)}` } })
  for (let k = 0; k < size.classes; k++) enroll(k % teachers, k, 'teacher')
  const perStudent = Math.ceil((size.enrollments - size.classes) / students)
  for (let s = 0; s < students && enrollments.length < size.enrollments; s++) {
    for (let j = 0; j < perStudent && enrollments.length < size.enrollments; j++) enroll(teachers + aides + s, (s + j * Math.floor(size.classes / perStudent)) % size.classes, 'student')
  }
  return {
    academicSessions: [{ ...base, sourcedId: 'T25F', title: '25F', type: 'term', startDate: '2025-08-25', endDate: '2025-12-15' }],
    courses: Array.from({ length: courses }, (_, c) => ({ ...base, sourcedId: `C${pad(c)}`, title: `Course ${c}`, courseCode: `BEN ${1000 + c}` })),
    classes: Array.from({ length: size.classes }, (_, k) => ({
      ...base, sourcedId: `K${pad(k)}`, title: `Class ${k}`, classCode: String(k % 4 + 1).padStart(2, '0'), course: { sourcedId: `C${pad(Math.floor(k / 4))}` }, terms: [{ sourcedId: 'T25F' }],
    })),
    users,
    enrollments,
  }
}

export interface Served {
  readonly url: string
  /** Requests answered so far. */
  requests: number
  close(): Promise<void>
}

function send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers })
  response.end(JSON.stringify(body))
}

async function serve(handle: (request: IncomingMessage, response: ServerResponse, url: URL) => void): Promise<Served> {
  const served = { url: '', requests: 0, close: async () => {} }
  const server = createServer((request, response) => {
    served.requests++
    request.resume().on('end', () => handle(request, response, new URL(request.url ?? '/', 'http://127.0.0.1')))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  served.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  served.close = () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()) })
  return served
}

/** The feed as a OneRoster REST provider; any client credentials are accepted. */
export function oneRosterServer(feed: Feed): Promise<Served> {
  return serve((_request, response, url) => {
    if (url.pathname === '/token') return send(response, 200, { access_token: 'bench', expires_in: 3600 })
    const collection = url.pathname.split('/').pop() as keyof Feed
    if (!(collection in feed)) return send(response, 404, {})
    const since = /^dateLastModified>'(.+)'$/.exec(url.searchParams.get('filter') ?? '')?.[1]
    const rows = since === undefined ? feed[collection] : feed[collection].filter((row) => Date.parse(String(row.dateLastModified)) > Date.parse(since))
    const offset = Number(url.searchParams.get('offset') ?? 0)
    const limit = Number(url.searchParams.get('limit') ?? 100)
    send(response, 200, { [collection]: rows.slice(offset, offset + limit) }, { 'x-total-count': String(rows.length) })
  })
}

/** OpenAlex with `authors` authors (A1…), each with `perAuthor` works on one page. */
export function openAlexServer(authors: number, perAuthor: number): Promise<Served> {
  const works = (author: number) => Array.from({ length: perAuthor }, (_, k) => {
    const n = author * 1000 + k
    return {
      id: `https://openalex.org/W${n}`, doi: `https://doi.org/10.5555/bench.${n}`, title: `Benchmark work ${n}`, publication_year: 2000 + (k % 25),
      cited_by_count: k, primary_location: { source: { display_name: 'Journal of Benchmarks' } },
      authorships: [{ author: { id: `https://openalex.org/A${author}`, display_name: `Author ${author}` } }],
    }
  })
  return serve((_request, response, url) => {
    if (url.pathname.startsWith('/authors/')) {
      const id = url.pathname.slice('/authors/'.length)
      return send(response, 200, { id: `https://openalex.org/${id}`, display_name: id })
    }
    const author = Number(/^author\.id:A(\d+)$/.exec(url.searchParams.get('filter') ?? '')?.[1])
    if (!Number.isInteger(author) || author < 1 || author > authors) return send(response, 200, { meta: { count: 0, next_cursor: null }, results: [] })
    send(response, 200, { meta: { count: perAuthor, next_cursor: null }, results: works(author) })
  })
}
