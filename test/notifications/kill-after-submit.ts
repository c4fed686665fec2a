/**
 * The outbox under a crash (docs/notifications.md, "Delivery guarantees and FERPA"): the service is
 * SIGKILLed right after a submission's 2xx and started again on the same data. The advisor then gets
 * exactly one email and one in-app notification, however far the relay had got before the kill; the
 * sweep, run every second for the check, sends nothing twice. One file per job driver
 * (kill-embedded.test.ts, kill-bullmq.test.ts), so tap's two jobs can run them side by side.
 */
import { randomUUID } from 'node:crypto'
import type { Test } from 'tap'
import { Redis } from 'ioredis'
import { freePort, mintToken, startServer } from '../process/server-process.js'
import { tempDir } from '../helpers/temp-dir.js'
import { smtpServer } from './smtp.js'
import { twoMoreSweeps, until } from './recovery.js'

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

async function removeKeys(prefix: string): Promise<void> {
  const redis = new Redis(redisUrl)
  let cursor = '0'
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500)
    if (keys.length) await redis.del(...keys)
    cursor = next
  } while (cursor !== '0')
  await redis.quit()
}

export function killAfterSubmit(t: Test, driver: 'embedded' | 'bullmq'): void {
  t.test(`${driver}: killed right after a submit's 2xx, the advisor is told once by email and once in the app`, async (t) => {
    const smtp = await smtpServer(t)
    const prefix = `adks-test:${randomUUID()}:`
    if (driver === 'bullmq') t.teardown(() => removeKeys(prefix))
    const env = {
      PORT: String(await freePort()), DATA_DIR: await tempDir(t), SMTP_URL: smtp.url,
      ...(driver === 'bullmq' ? { REDIS_URL: redisUrl, REDIS_PREFIX: prefix, WORKERS: 'inline' } : {}),
    }
    let server = await startServer(t, env)
    const as = async (email: string, role: 'admin' | 'faculty' | 'student') => {
      const headers = { authorization: `Bearer ${await mintToken(env, email, role)}`, 'content-type': 'application/json' }
      return async (method: string, path: string, body?: unknown) => {
        const response = await fetch(`${server.url}${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) })
        return { status: response.status, json: await response.json() as Record<string, unknown> & { total?: number; items?: unknown[] } }
      }
    }
    const admin = await as('ada@dept.edu', 'admin')
    const fayRecord = await admin('POST', '/api/people', { type: 'Faculty', first_name: 'Fay', last_name: 'Advisor', email: 'fay@dept.edu' })
    t.equal(fayRecord.status, 201, JSON.stringify(fayRecord.json))
    const fayId = String(fayRecord.json.id)
    const unaRecord = await admin('POST', '/api/people', { type: 'UndergraduateStudent', first_name: 'Una', last_name: 'Student', email: 'una@dept.edu', advisors: [fayId] })
    t.equal(unaRecord.status, 201, JSON.stringify(unaRecord.json))
    const fay = await as('fay@dept.edu', 'faculty')
    t.equal((await fay('PUT', '/api/notifications/preferences', { email: 'immediate' })).status, 200)
    const una = await as('una@dept.edu', 'student')
    const draft = await una('POST', '/api/thesis/requests', { student: String(unaRecord.json.id), advisor: fayId, title: 'Crash course', abstract: 'A', term: '26F' })
    t.equal(draft.status, 201, JSON.stringify(draft.json))
    const id = String(draft.json._id)

    const submitted = await fetch(`${server.url}/api/thesis/requests/${encodeURIComponent(id)}/submit`, {
      method: 'POST', headers: { authorization: `Bearer ${await mintToken(env, 'una@dept.edu', 'student')}` },
    })
    // Nothing between the acknowledgement and the kill.
    server.child.kill('SIGKILL')
    t.equal(submitted.status, 200, 'the submission was acknowledged')
    t.same(await server.exited, { code: null, signal: 'SIGKILL' })

    server = await startServer(t, env)
    const toFay = () => smtp.received.filter((m) => m.to.includes('fay@dept.edu'))
    await until(async () => toFay().length >= 1, 'the advisor\'s email')
    await until(async () => ((await fay('GET', '/api/notifications')).json.total ?? 0) >= 1, 'the advisor\'s in-app notification')
    // After the email arrived, two more sweeps must send nothing more.
    await twoMoreSweeps(t, admin)
    t.equal(toFay().length, 1, 'exactly one email to the advisor')
    t.match(toFay()[0]!.text, encodeURIComponent(id), 'it links to the request')
    const inApp = (await fay('GET', '/api/notifications')).json as { total: number; items: { type: string; subject: string }[] }
    t.same(inApp.items.map((i) => [i.type, i.subject]), [['workflow.stage_activated', id]], 'exactly one in-app notification')
    t.same(smtp.violations(), [], 'no FERPA violation in any email')
  })
}
