import t from 'tap'
import { department, path } from './department.js'

/** Every key and string value in a parsed log line or audit entry, however deeply nested. */
function walk(value: unknown, visit: (key: string | null, text: string | null) => void): void {
  if (typeof value === 'string') return visit(null, value)
  if (Array.isArray(value)) return value.forEach((item) => walk(item, visit))
  if (value && typeof value === 'object') {
    for (const [key, inner] of Object.entries(value)) {
      visit(key, null)
      walk(inner, visit)
    }
  }
}

t.test('no log line and no audit entry carries a grade, a token or a key', async (t) => {
  const lines: string[] = []
  const { admin, callers, ids, auditEntries } = await department(t, { LOG_LEVEL: 'trace' }, { logStream: { write: (line: string) => { lines.push(line) } } })
  const grades = ['A-', 'B+', 'C-', 'D+', 'Z+']
  lines.length = 0

  const created = await admin({ method: 'POST', url: '/api/enrollments', payload: { student: ids.otto, course: ids.math150, term: '25F', status: 'completed', grade: 'C-' } })
  t.equal(created.statusCode, 201)
  const url = `/api/enrollments/${path(created.json()._id)}`
  t.equal((await admin({ method: 'PUT', url, payload: { grade: 'D+' } })).statusCode, 200)
  t.equal((await admin({ method: 'PUT', url, payload: { grade: 'Z+' } })).statusCode, 400, 'a refused grade is not echoed either')
  for (const caller of ['student', 'advisor', 'otherStudent', 'admin', 'apiKey'] as const) {
    await callers[caller]({ method: 'GET', url: `/api/students/${path(ids.una)}/transcript` })
    await callers[caller]({ method: 'GET', url: `/api/students/${path(ids.una)}/enrollments?token=secret-in-query` })
  }
  await callers.instructor({ method: 'GET', url: `/api/sections/${path(ids.section)}/enrollments` })
  await admin({ method: 'GET', url: '/api/admin/audit' })

  t.ok(lines.length > 20, `${lines.length} log lines captured`)
  const entries = await auditEntries()
  for (const [label, item] of [...lines.map((line) => ['log line', JSON.parse(line)] as const), ...entries.map((entry) => ['audit entry', entry] as const)]) {
    walk(item, (key, text) => {
      if (key !== null && /grade/i.test(key)) t.fail(`${label} has a field ${key}: ${JSON.stringify(item)}`)
      if (text !== null && grades.includes(text)) t.fail(`${label} carries the grade ${text}: ${JSON.stringify(item)}`)
      if (text !== null && /Bearer |adks_[A-Za-z0-9]{20,}|secret-in-query|eyJ[A-Za-z0-9_-]{10,}\./.test(text)) t.fail(`${label} carries a credential: ${text}`)
    })
  }
  t.ok(lines.some((line) => line.includes('/transcript')), 'the transcript reads were logged, without their content')
  t.ok(entries.some((e) => e.apiKeyPrefix?.startsWith('adks_')), 'the key is named in the audit by its short prefix only')
})
