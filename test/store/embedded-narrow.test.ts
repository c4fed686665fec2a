import t from 'tap'
import { Documents } from '../../src/store/nedb/documents.js'
import type { Doc } from '../../src/store/port.js'

const docs = new Documents<Doc>()
docs.addIndex('email')
docs.addIndex('campus_id')
docs.reset([
  { _id: 'P/1', email: 'a@x', campus_id: 'c1', name: 'A' },
  { _id: 'P/2', email: 'b@x', campus_id: 'c2', name: 'B' },
  { _id: 'P/3', email: 'c@x', campus_id: 'c3', name: 'C' },
])
const ids = (found: Doc[] | null) => found && found.map((d) => d._id).sort()

t.test('an $or narrows through the index of each of its clauses', async (t) => {
  t.same(ids(docs.narrow({ $or: [{ campus_id: { $in: ['c1'] } }, { email: { $in: ['c@x'] } }] })), ['P/1', 'P/3'])
  t.same(ids(docs.narrow({ $or: [{ email: 'b@x' }, { $and: [{ campus_id: 'c1' }, { name: 'A' }] }] })), ['P/1', 'P/2'], 'an $and clause narrows by any of its own')
})

t.test('an $or with a clause no index serves reads every document', async (t) => {
  t.equal(docs.narrow({ $or: [{ email: 'a@x' }, { name: 'B' }] }), null)
  t.equal(docs.narrow({ $or: [] }), null)
})
