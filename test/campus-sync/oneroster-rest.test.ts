import type { IncomingMessage, ServerResponse } from 'node:http'
import t, { type Test } from 'tap'
import { OneRosterFetchError } from '../../src/campus-sync/oneroster/errors.js'
import type { Collection, Page } from '../../src/domain/campus-sync/model.js'
import { OneRosterRestClient } from '../../src/campus-sync/oneroster/rest.js'
import { fixtureServer, readBody, sendJson } from '../helpers/fixture-server.js'

const rosteringPath = '/ims/oneroster/rostering/v1p2/'

function user(n: number) {
  return {
    sourcedId: `u${n}`, status: 'active', dateLastModified: `2025-0${n}-01T00:00:00Z`, enabledUser: 'true',
    givenName: `Given${n}`, familyName: `Family${n}`, email: `u${n}@example.edu`, identifier: `net${n}`,
    roles: [{ roleType: 'primary', role: n === 1 ? 'teacher' : 'student', org: { sourcedId: 'org1', type: 'org' } }],
    grades: ['13'], $where: 'ignored',
  }
}

interface Provider {
  readonly url: string
  readonly tokenRequests: string[]
  readonly pageRequests: URL[]
  /** Tokens the provider accepts; tests revoke them to play an expiry. */
  readonly valid: Set<string>
}

/**
 * A OneRoster provider: /token issues tok-1, tok-2, ... for client id "cid" and secret "s3cret";
 * the users collection serves `rows` users. `page` may replace the answer of a page request.
 */
async function provider(
  t: Test,
  options: { rows: number; totalHeader?: boolean; expiresIn?: number; page?: (url: URL, response: ServerResponse, request: IncomingMessage) => boolean },
): Promise<Provider> {
  const state = { tokenRequests: [] as string[], pageRequests: [] as URL[], valid: new Set<string>() }
  const url = await fixtureServer(t, async (request, response, url) => {
    if (url.pathname === '/token') {
      const body = await readBody(request)
      state.tokenRequests.push(`${request.headers.authorization ?? ''} ${body}`)
      if (request.headers.authorization !== `Basic ${Buffer.from('cid:s3cret').toString('base64')}`) return sendJson(response, 401, { error: 'invalid_client' })
      const token = `tok-${state.tokenRequests.length}`
      state.valid.add(token)
      return sendJson(response, 200, { access_token: token, token_type: 'bearer', expires_in: options.expiresIn ?? 3600 })
    }
    if (!url.pathname.startsWith(rosteringPath)) return sendJson(response, 404, {})
    state.pageRequests.push(url)
    if (!state.valid.has((request.headers.authorization ?? '').replace('Bearer ', ''))) return sendJson(response, 401, { imsx_codeMajor: 'failure' })
    if (options.page?.(url, response, request)) return
    const limit = Number(url.searchParams.get('limit'))
    const offset = Number(url.searchParams.get('offset'))
    const all = Array.from({ length: options.rows }, (_, i) => user(i + 1))
    sendJson(response, 200, { users: all.slice(offset, offset + limit) }, options.totalHeader ? { 'x-total-count': String(all.length) } : {})
  })
  return { url, ...state }
}

function client(p: Provider, extra: Partial<ConstructorParameters<typeof OneRosterRestClient>[0]> = {}) {
  return new OneRosterRestClient({ baseUrl: `${p.url}/`, tokenUrl: `${p.url}/token`, clientId: 'cid', clientSecret: 's3cret', pageSize: 2, timeoutMs: 30_000, ...extra })
}

async function collect<C extends Collection>(pages: AsyncGenerator<Page<C>>): Promise<{ pages: Page<C>[]; error?: unknown }> {
  const seen: Page<C>[] = []
  try {
    for await (const page of pages) seen.push(page)
  } catch (error) {
    return { pages: seen, error }
  }
  return { pages: seen }
}

t.test('pages through a collection by limit and offset, reading X-Total-Count', async (t) => {
  const p = await provider(t, { rows: 5, totalHeader: true })
  const { pages, error } = await collect(client(p).pages('users'))
  t.equal(error, undefined)
  t.same(pages.map((page) => [page.offset, page.rows.map((row) => row.sourcedId), page.total]), [
    [0, ['u1', 'u2'], 5], [2, ['u3', 'u4'], 5], [4, ['u5'], 5],
  ])
  t.same(p.pageRequests.map((url) => [url.pathname, url.searchParams.get('limit'), url.searchParams.get('offset'), url.searchParams.get('filter')]), [
    [`${rosteringPath}users`, '2', '0', null], [`${rosteringPath}users`, '2', '2', null], [`${rosteringPath}users`, '2', '4', null],
  ])
  const first = pages[0]!.rows[0]!
  t.match(first, { row: 1, sourcedId: 'u1', status: 'active', enabledUser: true, givenName: 'Given1', identifier: 'net1', grades: ['13'] })
  t.same(first.roles, [{ role: 'teacher', roleType: 'primary', orgSourcedId: 'org1' }])
  t.notOk('$where' in first, 'fields outside the row model are dropped')
  t.equal(pages[2]!.rows[0]!.row, 5, 'row numbers run on across pages')
})

t.test('without X-Total-Count, a short or empty page ends the collection', async (t) => {
  const short = await provider(t, { rows: 5 })
  t.same((await collect(client(short).pages('users'))).pages.map((page) => page.rows.length), [2, 2, 1])
  t.equal(short.pageRequests.length, 3)
  const even = await provider(t, { rows: 4 })
  t.same((await collect(client(even).pages('users'))).pages.map((page) => page.rows.length), [2, 2, 0])
})

t.test('the token is fetched once with HTTP Basic client credentials and reused', async (t) => {
  const p = await provider(t, { rows: 5, totalHeader: true })
  await collect(client(p, { scope: 'https://purl.imsglobal.org/spec/or/v1p2/scope/roster.readonly' }).pages('users'))
  t.equal(p.tokenRequests.length, 1)
  t.match(p.tokenRequests[0], /^Basic Y2lkOnMzY3JldA== grant_type=client_credentials&scope=https%3A%2F%2Fpurl/)
})

t.test('a delta run sends the dateLastModified filter; a watermark that is not a timestamp is refused', async (t) => {
  const p = await provider(t, { rows: 1 })
  await collect(client(p).pages('users', { since: '2025-03-01T12:00:00.000Z' }))
  t.equal(p.pageRequests[0]!.searchParams.get('filter'), "dateLastModified>'2025-03-01T12:00:00.000Z'")
  const bad = await collect(client(p).pages('users', { since: "2025' OR '1'='1" }))
  t.type(bad.error, TypeError)
  t.equal(p.pageRequests.length, 1, 'nothing was sent for the bad watermark')
})

t.test('a rejected token is renewed once and the page asked again', async (t) => {
  const p = await provider(t, { rows: 5, totalHeader: true })
  const c = client(p)
  const pages = c.pages('users')
  const first = await pages.next()
  t.same(first.value?.rows.map((row: { sourcedId: string }) => row.sourcedId), ['u1', 'u2'])
  p.valid.clear() // the provider expires every token it issued
  const rest = await collect(pages)
  t.equal(rest.error, undefined)
  t.same(rest.pages.map((page) => page.offset), [2, 4])
  t.equal(p.tokenRequests.length, 2)
  t.same(p.pageRequests.map((url) => url.searchParams.get('offset')), ['0', '2', '2', '4'])
})

t.test('a token the provider keeps rejecting fails after one renewal, naming the collection and offset', async (t) => {
  const p = await provider(t, { rows: 5, page: (_url, response) => (sendJson(response, 401, {}), true) })
  const { pages, error } = await collect(client(p).pages('users'))
  t.same(pages, [])
  t.type(error, OneRosterFetchError)
  t.match(error, { collection: 'users', offset: 0, failure: 'auth', status: 401 })
  t.equal(p.tokenRequests.length, 2)
  t.equal(p.pageRequests.length, 2)
})

t.test('a token near its expiry is renewed before use', async (t) => {
  const p = await provider(t, { rows: 5, totalHeader: true, expiresIn: 120 })
  let now = 1_000_000
  const pages = client(p, { now: () => now }).pages('users')
  await pages.next()
  now += 61_000 // past expires_in less the 60 s margin
  await collect(pages)
  t.equal(p.tokenRequests.length, 2)
  t.same(p.pageRequests.length, 3, 'no request went out with the old token')
})

t.test('bad client credentials fail at the token endpoint', async (t) => {
  const p = await provider(t, { rows: 1 })
  const { error } = await collect(client(p, { clientSecret: 'wrong' }).pages('users'))
  t.match(error, { collection: 'token', failure: 'auth', status: 401 })
})

t.test('a 500 mid-way fails after the earlier pages were yielded', async (t) => {
  const p = await provider(t, { rows: 5, totalHeader: true, page: (url, response) => url.searchParams.get('offset') === '2' && (sendJson(response, 500, {}), true) })
  const { pages, error } = await collect(client(p).pages('users'))
  t.same(pages.map((page) => page.offset), [0])
  t.type(error, OneRosterFetchError)
  t.match(error, { collection: 'users', offset: 2, failure: 'http', status: 500, message: 'OneRoster users at offset 2: provider answered HTTP 500' })
})

t.test('a page that never comes times out after the earlier pages were yielded', async (t) => {
  const p = await provider(t, { rows: 5, totalHeader: true, page: (url) => url.searchParams.get('offset') === '4' })
  const { pages, error } = await collect(client(p, { timeoutMs: 300 }).pages('users'))
  t.same(pages.map((page) => page.offset), [0, 2])
  t.match(error, { collection: 'users', offset: 4, failure: 'timeout' })
})

t.test('a page over the size cap is refused', async (t) => {
  const p = await provider(t, { rows: 5, totalHeader: true })
  const { pages, error } = await collect(client(p, { maxPageBytes: 200 }).pages('users'))
  t.same(pages, [])
  t.match(error, { collection: 'users', offset: 0, failure: 'too-large' })
})

t.test('an answer without the collection array is reported, not read as empty', async (t) => {
  const p = await provider(t, { rows: 5, page: (_url, response) => (sendJson(response, 200, { people: [] }), true) })
  t.match((await collect(client(p).pages('users'))).error, { failure: 'bad-answer', message: /no "users" array/ })
})

t.test('only http and https feed URLs are accepted', async (t) => {
  for (const baseUrl of ['file:///etc/passwd', 'gopher://127.0.0.1:70/', 'not a url']) {
    t.throws(() => new OneRosterRestClient({ baseUrl, tokenUrl: 'https://idp.example/token', clientId: 'a', clientSecret: 'b' }), TypeError, baseUrl)
  }
})
