import t from 'tap'
import { userIdForEmail } from '../../src/auth/tokens.js'
import { humanBytes } from '../../src/routes/cache/index.js'
import { adapters, courseUrl, department, personUrl } from './department.js'

const endpoints = [
  ['GET', '/api/admin/cache/stats'],
  ['POST', '/api/admin/cache/clear'],
  ['POST', '/api/admin/cache/clear/all'],
  ['POST', '/api/admin/cache/clear/people'],
  ['POST', '/api/admin/cache/clear/courses'],
] as const

t.test('memory is shown in binary multiples', async (t) => {
  t.equal(humanBytes(0), '0 B')
  t.equal(humanBytes(1023), '1023 B')
  t.equal(humanBytes(1536), '1.5 KB')
  t.equal(humanBytes(1.2 * 1024 * 1024), '1.2 MB')
  t.equal(humanBytes(3 * 1024 ** 3), '3.0 GB')
})

t.test('cache administration needs manage_jobs', async (t) => {
  const { app, admin, as } = await department(t, 'memory')
  const faculty = as('gus@dept.edu', 'faculty')
  const stu = as('stu@dept.edu', 'staff')
  for (const [method, url] of endpoints) {
    t.equal((await app.inject({ method, url })).statusCode, 401, `${method} ${url} anonymously`)
    const refused = await faculty({ method, url })
    t.equal(refused.statusCode, 403, `${method} ${url} as faculty`)
    t.match(refused.json().error, /manage_jobs/)
    t.equal(refused.json().code, 'ADKS_PERMISSION_DENIED')
    t.equal((await stu({ method, url })).statusCode, 403, `${method} ${url} as staff before joining the group`)
  }
  const group = await admin({ method: 'POST', url: '/api/groups', payload: { name: 'Operators', permissions: ['manage_jobs'], members: [userIdForEmail('stu@dept.edu')] } })
  t.equal(group.statusCode, 201)
  for (const [method, url] of endpoints) t.equal((await stu({ method, url })).statusCode, 200, `${method} ${url} as a member of a manage_jobs group`)
})

for (const adapter of adapters) {
  t.test(`${adapter}: statistics and clearing by type`, async (t) => {
    const { admin, ids } = await department(t, adapter)
    const stats = async () => (await admin({ method: 'GET', url: '/api/admin/cache/stats' })).json()
    const clear = async (path: string) => (await admin({ method: 'POST', url: `/api/admin/cache/${path}` })).json()
    const people = [personUrl(ids.advisor), '/api/people', '/api/people/faculty-options']
    const courses = [courseUrl(ids.course), '/api/courses']
    const warmAll = async () => { for (const url of [...people, ...courses]) await admin({ method: 'GET', url }) }
    const cached = async (url: string) => (await admin({ method: 'GET', url })).headers['x-cache'] === 'hit'

    t.same(await stats(), { keys: 0, memory: '0 B' })
    await warmAll()
    const full = await stats()
    t.equal(full.keys, 5)
    t.match(full.memory, /^\d+(\.\d)? (B|KB|MB)$/)
    t.not(full.memory, '0 B')

    t.same(await clear('clear/people'), { message: 'Cleared cached people responses', keysDeleted: 3 })
    t.equal((await stats()).keys, 2)
    for (const url of courses) t.ok(await cached(url), `${url} survives clearing people`)
    for (const url of people) t.notOk(await cached(url), `${url} was cleared`)

    t.same(await clear('clear/courses'), { message: 'Cleared cached course responses', keysDeleted: 2 })
    t.equal((await stats()).keys, 3, 'the people answers read meanwhile are stored again')
    await warmAll()
    t.same(await clear('clear/all'), { message: 'Cleared all cached responses', keysDeleted: 5 })
    t.same(await stats(), { keys: 0, memory: '0 B' })
    await warmAll()
    t.same(await clear('clear'), { message: 'Cleared all cached responses', keysDeleted: 5 })
    t.same(await clear('clear'), { message: 'Cleared all cached responses', keysDeleted: 0 })
    for (const url of [...people, ...courses]) t.notOk(await cached(url), `${url} is read afresh after a clear`)
  })
}
