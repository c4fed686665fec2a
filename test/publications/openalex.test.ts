import t, { type Test } from 'tap'
import { OpenAlexClient } from '../../src/publications/openalex/client.js'
import { OpenAlexBudgetError, OpenAlexError } from '../../src/publications/openalex/errors.js'
import type { OpenAlexOptions } from '../../src/publications/openalex/transport.js'
import { fixtureServer, sendJson, type Handler } from '../helpers/fixture-server.js'

const work = (n: number) => ({ id: `https://openalex.org/W${n}`, title: `Work ${n}`, publication_year: 2020 + (n % 5), cited_by_count: n })

/** OpenAlex played over HTTP; `requests` records each URL asked for, `handler` answers it. */
async function openalex(t: Test, handler: Handler) {
  const requests: URL[] = []
  const sleeps: number[] = []
  const url = await fixtureServer(t, (request, response, url) => {
    requests.push(url)
    return handler(request, response, url)
  })
  const client = (extra: OpenAlexOptions = {}) =>
    new OpenAlexClient({ baseUrl: url, apiKey: 'k3y', mailto: 'ops@dept.example.edu', baseDelayMs: 10, random: () => 0.5, sleep: async (ms) => void sleeps.push(ms), ...extra })
  return { url, requests, sleeps, client }
}

/** Three cursor pages of works for author A5. */
function worksPages(url: URL, response: Parameters<Handler>[1], headers: (cursor: string) => Record<string, string> = () => ({})): void {
  const pages: Record<string, { results: object[]; next: string | null }> = {
    '*': { results: [work(1), work(2)], next: 'c2' },
    c2: { results: [work(3), work(4)], next: 'c3' },
    c3: { results: [work(5)], next: null },
  }
  const cursor = url.searchParams.get('cursor') ?? ''
  const page = pages[cursor]
  if (!page) return sendJson(response, 400, { error: 'bad cursor' })
  sendJson(response, 200, { meta: { count: 5, next_cursor: page.next }, results: page.results }, headers(cursor))
}

async function collectWorks(client: OpenAlexClient, author: string, cursor?: string) {
  const pages: { cursor: string; ids: string[] }[] = []
  try {
    for await (const page of client.works(author, { cursor })) pages.push({ cursor: page.cursor, ids: page.works.map((w) => w.id.replace('https://openalex.org/', '')) })
  } catch (error) {
    return { pages, error }
  }
  return { pages, error: undefined }
}

t.test('works come by cursor across three pages, with per_page, select, api_key and mailto on every request', async (t) => {
  const api = await openalex(t, (_req, res, url) => worksPages(url, res))
  const { pages, error } = await collectWorks(api.client(), 'https://openalex.org/A5')
  t.equal(error, undefined)
  t.same(pages, [{ cursor: '*', ids: ['W1', 'W2'] }, { cursor: 'c2', ids: ['W3', 'W4'] }, { cursor: 'c3', ids: ['W5'] }])
  t.equal(api.requests.length, 3)
  for (const url of api.requests) {
    t.same([url.pathname, url.searchParams.get('filter'), url.searchParams.get('per_page'), url.searchParams.get('api_key'), url.searchParams.get('mailto')], ['/works', 'author.id:A5', '100', 'k3y', 'ops@dept.example.edu'])
    t.match(url.searchParams.get('select'), /^id,doi,title,.*authorships/)
  }
})

t.test('without a key or mailto configured, none is sent', async (t) => {
  const api = await openalex(t, (_req, res, url) => worksPages(url, res))
  await collectWorks(api.client({ apiKey: undefined, mailto: undefined }), 'A5')
  t.same(api.requests.map((url) => [url.searchParams.has('api_key'), url.searchParams.has('mailto')]), [[false, false], [false, false], [false, false]])
})

t.test('a 429 with Retry-After waits that long, then succeeds', async (t) => {
  let calls = 0
  const api = await openalex(t, (_req, res, url) => (++calls === 2 ? sendJson(res, 429, { error: 'slow down' }, { 'retry-after': '2' }) : worksPages(url, res)))
  const { pages, error } = await collectWorks(api.client(), 'A5')
  t.equal(error, undefined)
  t.same(pages.map((p) => p.cursor), ['*', 'c2', 'c3'])
  t.same(api.sleeps, [2000])
  t.same(api.requests.map((url) => url.searchParams.get('cursor')), ['*', 'c2', 'c2', 'c3'])
})

t.test('5xx answers are retried with exponential backoff and jitter; a lasting one fails after maxAttempts', async (t) => {
  let calls = 0
  const flaky = await openalex(t, (_req, res, url) => (++calls <= 2 ? sendJson(res, calls === 1 ? 503 : 502, {}) : worksPages(url, res)))
  t.equal((await collectWorks(flaky.client(), 'A5')).error, undefined)
  t.same(flaky.sleeps, [7.5, 15], 'steps of 10 then 20 ms, half fixed and half jittered (random 0.5)')

  const down = await openalex(t, (_req, res) => sendJson(res, 500, {}))
  const { error } = await collectWorks(down.client({ maxAttempts: 3 }), 'A5')
  t.type(error, OpenAlexError)
  t.match(error, { message: 'OpenAlex still failing after 3 tries: HTTP 500' })
  t.equal(down.requests.length, 3)
})

t.test('a Retry-After longer than the longest allowed wait fails instead of stalling', async (t) => {
  const api = await openalex(t, (_req, res) => sendJson(res, 429, {}, { 'retry-after': '7200' }))
  const { error } = await collectWorks(api.client({ maxDelayMs: 60_000 }), 'A5')
  t.match(error, { message: 'OpenAlex asked to wait 7200 s, longer than allowed' })
  t.same(api.sleeps, [])
})

t.test('the run stops cleanly when the budget headers say the day is spent, with the cursor to resume from', async (t) => {
  const api = await openalex(t, (_req, res, url) => worksPages(url, res, (cursor) => ({ 'x-ratelimit-limit-usd': '1', 'x-ratelimit-remaining-usd': cursor === 'c2' ? '0' : '0.5' })))
  const now = Date.UTC(2026, 10, 25, 15, 30)
  const { pages, error } = await collectWorks(api.client({ now: () => now }), 'A5')
  t.same(pages.map((p) => p.cursor), ['*', 'c2'], 'the page that spent the budget is still delivered')
  t.type(error, OpenAlexBudgetError)
  t.match(error, { cursor: 'c3', resetsAt: new Date(Date.UTC(2026, 10, 26)) })
  t.equal(api.requests.length, 2, 'no request is sent once the budget is spent')

  const resumed = await openalex(t, (_req, res, url) => worksPages(url, res))
  t.same((await collectWorks(resumed.client(), 'A5', 'c3')).pages.map((p) => p.cursor), ['c3'])
})

t.test('a 429 that says the budget is spent is not retried', async (t) => {
  const api = await openalex(t, (_req, res) => sendJson(res, 429, { error: 'Rate limit exceeded' }, { 'x-ratelimit-remaining': '0', 'retry-after': '1' }))
  const { error } = await collectWorks(api.client(), 'A5')
  t.type(error, OpenAlexBudgetError)
  t.match(error, { cursor: '*' })
  t.equal(api.requests.length, 1)
  t.same(api.sleeps, [])
})

t.test('a merged author: the 301 is followed within OpenAlex and the new id reported', async (t) => {
  const api = await openalex(t, (_req, res, url) => {
    if (url.pathname === '/authors/A1') return sendJson(res, 301, {}, { location: '/authors/A2' })
    if (url.pathname === '/authors/A2') return sendJson(res, 200, { id: 'https://openalex.org/A2', display_name: 'Ada Lovelace', orcid: null })
    sendJson(res, 404, {})
  })
  const resolved = await api.client().author({ openalexId: 'https://openalex.org/a1' })
  t.match(resolved, { id: 'A2', merged: true, author: { display_name: 'Ada Lovelace' } })
  t.same(api.requests.map((url) => [url.pathname, url.searchParams.get('api_key')]), [['/authors/A1', 'k3y'], ['/authors/A2', 'k3y']])
  const same = await api.client().author({ openalexId: 'A2' })
  t.equal(same.merged, false)
  await t.rejects(api.client().author({ openalexId: 'A404' }), new OpenAlexError('OpenAlex has no /authors/A404', 404))
})

t.test('a redirect off the OpenAlex origin is not followed', async (t) => {
  const api = await openalex(t, (_req, res) => sendJson(res, 301, {}, { location: 'http://169.254.169.254/latest/meta-data' }))
  await t.rejects(api.client().author({ openalexId: 'A1' }), { message: /will not be followed/, status: 301 })
  t.equal(api.requests.length, 1)
})

t.test('an author known only by ORCID is resolved with /authors/orcid:', async (t) => {
  const api = await openalex(t, (_req, res, url) =>
    url.pathname === '/authors/orcid:0000-0002-1825-009X' ? sendJson(res, 200, { id: 'https://openalex.org/A77', orcid: 'https://orcid.org/0000-0002-1825-009X' }) : sendJson(res, 404, {}),
  )
  t.match(await api.client().author({ orcid: 'https://orcid.org/0000-0002-1825-009x' }), { id: 'A77', merged: false })
  await t.rejects(api.client().author({ orcid: 'not-an-orcid' }), TypeError)
  t.equal(api.requests.length, 1)
})

t.test('a batch of 120 ids goes out as requests of 50, 50 and 20', async (t) => {
  const api = await openalex(t, (_req, res, url) => {
    const ids = (url.searchParams.get('filter') ?? '').replace(/^openalex:/, '').split('|')
    sendJson(res, 200, { meta: { count: ids.length }, results: ids.map((id) => ({ id: `https://openalex.org/${id}`, cited_by_count: Number(id.slice(1)) })) })
  })
  const ids = Array.from({ length: 120 }, (_, i) => (i % 2 ? `W${i + 1}` : `https://openalex.org/W${i + 1}`))
  const batches: number[][] = []
  for await (const batch of api.client().worksByIds([...ids, 'W1', 'junk'])) batches.push(batch.map((w) => w.cited_by_count ?? -1))
  t.same(batches.map((b) => b.length), [50, 50, 20])
  t.same(batches.flat(), Array.from({ length: 120 }, (_, i) => i + 1), 'every id once, duplicates and junk dropped')
  t.same(api.requests.map((url) => [url.searchParams.get('per_page'), url.searchParams.get('select')]), [['50', 'id,doi,cited_by_count'], ['50', 'id,doi,cited_by_count'], ['50', 'id,doi,cited_by_count']])
  t.match(api.requests[0]!.searchParams.get('filter'), /^openalex:W1\|W2\|W3\|/)
})

t.test('a timeout is retried like a 5xx', async (t) => {
  let calls = 0
  const api = await openalex(t, (_req, res, url) => {
    if (++calls === 1) return // never answers
    worksPages(url, res)
  })
  const { pages, error } = await collectWorks(api.client({ timeoutMs: 300 }), 'A5')
  t.equal(error, undefined)
  t.equal(pages.length, 3)
  t.equal(api.sleeps.length, 1)
})
