import { ObjectId } from 'mongodb'
import t from 'tap'
import { shapeOf } from '../../src/store/mongo/slow-commands.js'

t.test('a command is reported by its shape: field names and operators kept, values replaced by their types', async (t) => {
  t.same(shapeOf({ _id: { $in: ['a', 'b', 'c'] }, 'name.last': 'Doe', age: { $gte: 30 }, gone: null }),
    { _id: { $in: '[3]' }, 'name.last': 'string', age: { $gte: 'number' }, gone: 'null' })
  t.same(shapeOf({ $or: [{ email: 'x@y.z' }, { eppn: 'x@y.z' }] }), { $or: [{ email: 'string' }, { eppn: 'string' }] })
  t.same(shapeOf([{ $match: { kind: 'thesis' } }, { $group: { _id: null, n: { $sum: 1 } } }]),
    [{ $match: { kind: 'string' } }, { $group: { _id: 'null', n: { $sum: 'number' } } }])
  t.same(shapeOf({ at: new Date(0), ref: new ObjectId() }), { at: 'Date', ref: 'ObjectId' }, 'other objects by their class')
  t.notOk(JSON.stringify(shapeOf({ email: 'private@dept.edu', tags: ['secret'] })).includes('private'), 'no value survives')
})

t.test('a sort the driver sends as a Map keeps its fields in order', async (t) => {
  t.same(Object.keys(shapeOf(new Map([['last_name', 1], ['_id', 1]])) as object), ['last_name', '_id'])
})
