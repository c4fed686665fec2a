import t from 'tap'
import { translateFilter } from '../../src/store/mongo/translate.js'

t.test('an $in of one value is sent as an equality, which FerretDB hands to its backend for _id', async (t) => {
  t.same(translateFilter({ _id: { $in: ['Faculty/ada'] } }), { _id: 'Faculty/ada' })
  t.same(translateFilter({ type: { $in: ['Faculty'] }, status: 'active' }), { type: 'Faculty', status: 'active' })
  t.same(translateFilter({ _id: { $in: ['a', 'b'] } }), { _id: { $in: ['a', 'b'] } }, 'two values stay an $in')
  t.same(translateFilter({ _id: { $in: [] } }), { _id: { $in: [] } }, 'none stays an $in, which matches nothing')
  t.same(translateFilter({ n: { $in: [3], $gt: 1 } }), { n: { $in: [3], $gt: 1 } }, 'beside another operator it stays')
  t.same(translateFilter({ $or: [{ _id: { $in: ['x'] } }, { email: 'x@y.z' }] }), { $and: [{ $or: [{ _id: 'x' }, { email: 'x@y.z' }] }] }, 'inside $or too')
})

t.test('a prefix becomes an anchored, escaped regular expression', async (t) => {
  t.same(translateFilter({ last_name: { $iprefix: 'o.b' } }), { $and: [{ last_name: { $regex: '^o\\.b', $options: 'i' } }] })
})
