import t, { type Test } from 'tap'
import { buildTestApp } from '../helpers/app.js'

const enc = encodeURIComponent
/** The three reads one relation to a student opens, and how each refuses a caller without it. */
const reads = {
  record: { url: (id: string, _degree: string) => `/api/people/${enc(id)}`, refused: 404 },
  transcript: { url: (id: string, _degree: string) => `/api/students/${enc(id)}/transcript`, refused: 403 },
  progress: { url: (id: string, degree: string) => `/api/students/${enc(id)}/degree-progress?degree=${enc(degree)}`, refused: 403 },
} as const
type Read = keyof typeof reads

/**
 * Gina, a graduate student advised by Fay; Gus, faculty with a Person record, advises no one. Built on
 * the embedded store, where the principal cache is on: these tests are about what it must not keep.
 */
async function department(t: Test) {
  const setup = await buildTestApp(t)
  t.ok(setup.app.store.writeCounts, 'the principal cache is on')
  const admin = setup.as('admin@dept.edu', 'admin')
  const create = async (body: Record<string, unknown>) => {
    const res = await admin({ method: 'POST', url: '/api/people', payload: body })
    if (res.statusCode !== 201) throw new Error(`POST /api/people answered ${res.statusCode}: ${res.body}`)
    return res.json().id as string
  }
  const fay = await create({ type: 'Faculty', first_name: 'Fay', last_name: 'Advisor', email: 'fay@dept.edu' })
  const gus = await create({ type: 'Faculty', first_name: 'Gus', last_name: 'Other', email: 'gus@dept.edu' })
  const degree = (await admin({ method: 'POST', url: '/api/degrees', payload: { name: 'Computer Science', degree_type: 'PhD' } })).json()._id as string
  const gina = await create({ type: 'GraduateStudent', first_name: 'Gina', last_name: 'Grad', email: 'gina@dept.edu', advisors: [fay] })
  const advisedBy = async (...advisors: string[]) => {
    const res = await admin({ method: 'PUT', url: reads.record.url(gina, degree), payload: { advisors } })
    if (res.statusCode !== 200) throw new Error(`PUT advisors answered ${res.statusCode}: ${res.body}`)
  }
  return { ...setup, admin, create, advisedBy, ids: { fay, gus, gina, degree } }
}

t.test('an advisor assigned or removed counts on the very next request', async (t) => {
  const { as, advisedBy, ids } = await department(t)
  const gus = as('gus@dept.edu', 'faculty')
  for (const name of Object.keys(reads) as Read[]) {
    t.equal((await gus({ method: 'GET', url: reads[name].url(ids.gina, ids.degree) })).statusCode, reads[name].refused, `${name}: refused while Gus advises no one`)
  }
  for (const name of Object.keys(reads) as Read[]) {
    await advisedBy(ids.fay, ids.gus)
    const granted = await gus({ method: 'GET', url: reads[name].url(ids.gina, ids.degree) })
    t.equal(granted.statusCode, 200, `${name}: the first request after Gus is made advisor is answered`, { body: granted.body })
    if (name === 'record') t.equal(granted.json()._id, ids.gina)
    await advisedBy(ids.fay)
    t.equal((await gus({ method: 'GET', url: reads[name].url(ids.gina, ids.degree) })).statusCode, reads[name].refused, `${name}: the first request after Gus is removed is refused`)
  }
})

t.test('a faculty user who signed in before their Person existed is linked to it on the next request', async (t) => {
  const { as, create, advisedBy, ids } = await department(t)
  const nel = as('nel@dept.edu', 'faculty')
  t.equal((await nel({ method: 'GET', url: '/api/auth/me' })).statusCode, 200, 'Nel is signed in, with no Person yet')
  for (const name of Object.keys(reads) as Read[]) {
    t.equal((await nel({ method: 'GET', url: reads[name].url(ids.gina, ids.degree) })).statusCode, reads[name].refused, `${name}: refused before`)
  }

  const person = await create({ type: 'Faculty', first_name: 'Nel', last_name: 'New', email: 'nel@dept.edu' })
  await advisedBy(ids.fay, person)
  for (const name of Object.keys(reads) as Read[]) {
    t.equal((await nel({ method: 'GET', url: reads[name].url(ids.gina, ids.degree) })).statusCode, 200, `${name}: answered once Nel's Person advises Gina`)
  }
  const own = await nel({ method: 'PUT', url: reads.record.url(person, ids.degree), payload: { office: 'B 12' } })
  t.equal(own.statusCode, 200, 'and Nel may edit the profile that is now hers')
})

t.test('a student whose Person appears later sees their own records on the next request', async (t) => {
  const { as, create, ids } = await department(t)
  const ray = as('ray@dept.edu', 'student')
  t.equal((await ray({ method: 'GET', url: '/api/auth/me' })).statusCode, 200, 'Ray is signed in')
  t.equal((await ray({ method: 'GET', url: reads.transcript.url(ids.gina, ids.degree) })).statusCode, 403, 'Ray, with no Person yet, is no one to Gina')
  const self = await create({ type: 'GraduateStudent', first_name: 'Ray', last_name: 'Late', email: 'ray@dept.edu' })
  for (const name of Object.keys(reads) as Read[]) {
    t.equal((await ray({ method: 'GET', url: reads[name].url(self, ids.degree) })).statusCode, 200, `${name}: Ray's own, at once`)
  }
})
