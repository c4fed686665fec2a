import { request } from 'node:http'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { adapters, department, personUrl } from './department.js'

/** The API key header is matched in its exact spelling, which only a real HTTP/1.1 request keeps. */
async function overHttp(app: FastifyInstance, path: string, headers: Record<string, string>) {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as { port: number }
  return new Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ statusCode: res.statusCode!, headers: res.headers, body }))
    }).on('error', reject).end()
  })
}

const names = (body: string) => (JSON.parse(body).items as { first_name: string }[]).map((p) => p.first_name).sort()

for (const adapter of adapters) {
  t.test(`${adapter}: an admin's list is never served to a non-admin, nor the reverse`, async (t) => {
    const { admin, as } = await department(t, adapter)
    const gus = as('gus@dept.edu', 'faculty')
    const gina = as('gina@dept.edu', 'student')
    const get = (inject: typeof admin, url: string) => inject({ method: 'GET', url })

    await get(admin, '/api/people')
    const adminHit = await get(admin, '/api/people')
    t.equal(adminHit.headers['x-cache'], 'hit')
    t.same(names(adminHit.body), ['Fay', 'Gina', 'Gus', 'Stu', 'Una'], 'the admin sees students')
    const member = await get(gus, '/api/people')
    t.equal(member.headers['x-cache'], 'miss', 'a non-admin does not get the admin\'s entry')
    t.same(names(member.body), ['Fay', 'Gus', 'Stu'])
    const shared = await get(gina, '/api/people')
    t.equal(shared.headers['x-cache'], 'hit', 'non-admins share the non-admin answer')
    t.same(names(shared.body), ['Fay', 'Gus', 'Stu'], 'which has no students in it')

    const url = '/api/people?sort=first_name'
    t.same(names((await get(gus, url)).body), ['Fay', 'Gus', 'Stu'])
    t.equal((await get(gus, url)).headers['x-cache'], 'hit')
    const adminAfter = await get(admin, url)
    t.equal(adminAfter.headers['x-cache'], 'miss', 'an admin does not get a non-admin\'s entry')
    t.same(names(adminAfter.body), ['Fay', 'Gina', 'Gus', 'Stu', 'Una'])
  })

  t.test(`${adapter}: a student record an admin loaded is not served to anyone else`, async (t) => {
    const { admin, as, ids } = await department(t, adapter)
    const gus = as('gus@dept.edu', 'faculty')
    for (const id of [ids.undergrad, ids.grad]) {
      await admin({ method: 'GET', url: personUrl(id) })
      t.equal((await admin({ method: 'GET', url: personUrl(id) })).headers['x-cache'], 'hit', `${id} cached for admins`)
      const other = await gus({ method: 'GET', url: personUrl(id) })
      t.equal(other.statusCode, 404, `${id} stays hidden from a non-admin`)
      t.notMatch(other.body, /Gina|Una/)
      await admin({ method: 'GET', url: personUrl(id, '/publications') })
      t.equal((await gus({ method: 'GET', url: personUrl(id, '/publications') })).statusCode, 404, 'and its publications too')
    }
  })

  t.test(`${adapter}: what a graduate student or their advisor sees of the student is never stored for sharing`, async (t) => {
    const { admin, as, ids } = await department(t, adapter)
    const keys = async () => (await admin({ method: 'GET', url: '/api/admin/cache/stats' })).json().keys as number
    const before = await keys()
    const fay = as('fay@dept.edu', 'faculty')
    const gina = as('gina@dept.edu', 'student')
    const gus = as('gus@dept.edu', 'faculty')
    for (const url of [personUrl(ids.grad), personUrl(ids.grad, '/publications')]) {
      for (const [who, inject] of [['the student', gina], ['the advisor', fay], ['the student again', gina]] as const) {
        const res = await inject({ method: 'GET', url })
        t.equal(res.statusCode, 200, `${who} reads ${url}`)
        // A detail about the student is looked up and not stored ('miss'); a list that may name students
        // is not even looked up for a caller who may see one ('bypass').
        t.not(res.headers['x-cache'], 'hit', `${who} is not served a stored answer`)
      }
      const other = await gus({ method: 'GET', url })
      t.equal(other.statusCode, 404, `another faculty member still gets a 404 for ${url}`)
      t.notMatch(other.body, /Gina|Graphs of Students/)
    }
    t.equal(await keys(), before, 'nothing was stored for those reads')
  })

  t.test(`${adapter}: an API key, even an admin's, gets the non-admin answer`, async (t) => {
    const { admin, as, app } = await department(t, adapter)
    const created = await admin({ method: 'POST', url: '/api/api-keys', payload: { name: 'directory', permissions: ['read_people'] } })
    t.equal(created.statusCode, 201)
    const key = created.json().key as string
    await admin({ method: 'GET', url: '/api/people' })
    const byKey = await overHttp(app, '/api/people', { 'X-API-Key': key })
    t.equal(byKey.statusCode, 200)
    t.equal(byKey.headers['x-cache'], 'miss', 'the admin\'s entry is not used for the admin\'s key')
    t.same(names(byKey.body), ['Fay', 'Gus', 'Stu'])
    const member = await as('stu@dept.edu', 'staff')({ method: 'GET', url: '/api/people' })
    t.equal(member.headers['x-cache'], 'hit', 'the key\'s answer is the one any non-admin gets')
    t.equal(member.body, byKey.body)
  })
}
