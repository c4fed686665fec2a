import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import type { JobView } from '../../../src/jobs/port.js'
import { fixtureServer, readBody, sendJson } from '../../helpers/fixture-server.js'
import { until } from '../../jobs/contract.js'
import { campus, type Feed } from '../../campus-sync/support.js'

export type Caller = (options: InjectOptions) => Promise<LightMyRequestResponse>

export const admin = 'ops@dept.example.edu'

/** Polls the job route until the job completes or fails. */
export function finished(caller: Caller, id: string): Promise<JobView> {
  return until(async () => {
    const job = (await caller({ method: 'GET', url: `/api/admin/jobs/${id}` })).json() as JobView
    return job.state === 'completed' || job.state === 'failed' ? job : null
  }, `job ${id}`, 60_000)
}

/** POSTs and expects 202 `{jobId}`; answers the job id. */
export async function accepted(t: Test, caller: Caller, url: string, payload: object = {}): Promise<string> {
  const response = await caller({ method: 'POST', url, payload })
  t.equal(response.statusCode, 202, `${url}: ${response.body}`)
  return (response.json() as { jobId: string }).jobId
}

/**
 * A OneRoster REST provider whose users requests wait until `release` is called, so a run can be
 * caught while it is running. Accepts client cid with secret s3cret.
 */
export async function gatedProvider(t: Test, feed: Feed = campus()) {
  let open!: () => void
  const released = new Promise<void>((resolve) => { open = resolve })
  const state = { url: '', usersAsked: 0 }
  state.url = await fixtureServer(t, async (request, response, url) => {
    if (url.pathname === '/token') {
      await readBody(request)
      return sendJson(response, 200, { access_token: 'tok', expires_in: 3600 })
    }
    const collection = url.pathname.split('/').pop() as keyof Feed
    if (!(collection in feed)) return sendJson(response, 404, {})
    if (collection === 'users') {
      state.usersAsked++
      await released
    }
    const offset = Number(url.searchParams.get('offset'))
    const limit = Number(url.searchParams.get('limit'))
    sendJson(response, 200, { [collection]: feed[collection].slice(offset, offset + limit) }, { 'x-total-count': String(feed[collection].length) })
  })
  return { state, release: open }
}

export const restSource = (url: string) => ({ type: 'oneroster-rest', url, client_id: 'cid', client_secret: 's3cret' })
