import type { Test } from 'tap'
import { DuplicateKeyError, type Collection, type Doc, type Filter, type Store } from '../../src/store/port.js'

interface Row extends Doc {
  name: string
  n?: number
  tags?: string[]
  code?: string
  _version?: number
}

const rows: Row[] = [
  { _id: 'Row/a', name: 'Alice', n: 1, tags: ['x', 'y'], code: 'CS 101' },
  { _id: 'Row/b', name: 'bob', n: 2, tags: ['y'], code: 'CS 201' },
  { _id: 'Row/c', name: 'Carol', n: 3, tags: [], code: 'MATH 101' },
  { _id: 'Row/d', name: 'dave', n: 4, code: 'CSE 310' },
  { _id: 'Row/e', name: 'Eve', tags: ['z'], code: 'C.S 1' },
]

/**
 * The behaviour both store adapters must share. `open` gives a store whose collections are empty and
 * private to the calling test, and closes it when that test ends.
 */
export function storeContract(t: Test, open: (t: Test) => Promise<Store>): void {
  async function seeded(t: Test): Promise<Collection<Row>> {
    const store = await open(t)
    const collection = store.collection<Row>('rows')
    for (const row of rows) await collection.insertOne(row)
    return collection
  }

  async function ids(collection: Collection<Row>, filter: Filter): Promise<string[]> {
    return (await collection.find(filter, { sort: [['_id', 1]] })).map((row) => row._id)
  }

  t.test('create, read, update, delete', async (t) => {
    const rowsCollection = await seeded(t)
    t.same(await rowsCollection.findById('Row/a'), rows[0])
    t.equal(await rowsCollection.findById('Row/zz'), null)
    const updated = await rowsCollection.updateOne(
      { _id: 'Row/a' },
      { $set: { name: 'Alicia' }, $inc: { n: 10 }, $unset: { code: true }, $push: { tags: 'w' } },
    )
    t.same(updated, { _id: 'Row/a', name: 'Alicia', n: 11, tags: ['x', 'y', 'w'] })
    t.same(await rowsCollection.findById('Row/a'), updated, 'the update is stored')
    t.equal(await rowsCollection.updateOne({ _id: 'Row/none' }, { $set: { name: 'x' } }), null, 'no match gives null')
    t.equal(await rowsCollection.updateMany({ n: { $gte: 3 } }, { $set: { big: true } }), 3)
    t.same(await ids(rowsCollection, { big: true }), ['Row/a', 'Row/c', 'Row/d'])
    t.equal(await rowsCollection.deleteOne({ _id: 'Row/a' }), 1)
    t.equal(await rowsCollection.deleteOne({ _id: 'Row/a' }), 0)
    t.equal(await rowsCollection.findById('Row/a'), null)
    t.equal(await rowsCollection.deleteMany({ n: { $lt: 4 } }), 2)
    t.same(await ids(rowsCollection, {}), ['Row/d', 'Row/e'])
  })

  t.test('returned documents are copies', async (t) => {
    const rowsCollection = await seeded(t)
    const row = (await rowsCollection.findById('Row/a'))!
    row.tags!.push('mutated')
    row.name = 'changed'
    t.same(await rowsCollection.findById('Row/a'), rows[0])
  })

  t.test('views are frozen snapshots that later writes leave alone', async (t) => {
    const rowsCollection = await seeded(t)
    const viewed = (await rowsCollection.viewById('Row/a'))!
    t.same(viewed, rows[0], 'the stored fields')
    t.equal(await rowsCollection.viewById('Row/zz'), null)
    t.throws(() => { (viewed as Row).name = 'changed' }, TypeError, 'a field cannot be set')
    t.throws(() => { (viewed.tags as string[]).push('more') }, TypeError, 'nor an array inside changed')
    await rowsCollection.updateOne({ _id: 'Row/a' }, { $set: { name: 'Alicia' }, $push: { tags: 'w' } })
    t.same(viewed, rows[0], 'a write after the read does not reach the viewed document')
    t.same(await rowsCollection.viewById('Row/a'), { ...rows[0], name: 'Alicia', tags: ['x', 'y', 'w'] }, 'a new view shows the write')
    t.same((await rowsCollection.findById('Row/a'))!.name, 'Alicia', 'finds are unaffected by the freezing')
    const found = (await rowsCollection.findById('Row/a'))!
    found.name = 'mutable'
    t.equal(found.name, 'mutable', 'a find still gives a copy to change')
  })

  t.test('view filters, sorts and pages as find does', async (t) => {
    const rowsCollection = await seeded(t)
    const options = { sort: [['name', -1]] as const, skip: 1, limit: 2 }
    for (const filter of [{}, { tags: 'y' }, { n: { $gte: 2 } }, { $or: [{ name: 'bob' }, { code: { $iprefix: 'math' } }] }] as Filter[]) {
      t.same(await rowsCollection.view(filter, options), await rowsCollection.find(filter, options), JSON.stringify(filter))
    }
    const all = await rowsCollection.view({})
    t.ok(all.every((row) => Object.isFrozen(row)), 'every document is frozen')
  })

  t.test('filters', async (t) => {
    const c = await seeded(t)
    t.same(await ids(c, { name: 'bob' }), ['Row/b'], 'equality')
    t.same(await ids(c, { tags: 'y' }), ['Row/a', 'Row/b'], 'equality on an array matches any element')
    t.same(await ids(c, { tags: { $in: ['x', 'z'] } }), ['Row/a', 'Row/e'], '$in on an array field')
    t.same(await ids(c, { n: { $in: [1, 4, 99] } }), ['Row/a', 'Row/d'], '$in on a scalar field')
    t.same(await ids(c, { tags: { $nin: ['y'] } }), ['Row/c', 'Row/d', 'Row/e'], '$nin excludes arrays holding the value')
    t.same(await ids(c, { tags: { $ne: 'y' } }), ['Row/c', 'Row/d', 'Row/e'], '$ne on an array means no element equals it')
    t.same(await ids(c, { n: { $ne: 2 } }), ['Row/a', 'Row/c', 'Row/d', 'Row/e'], '$ne matches missing fields')
    t.same(await ids(c, { name: { $eq: 'Eve' } }), ['Row/e'], '$eq')
    t.same(await ids(c, { n: { $gt: 1, $lte: 3 } }), ['Row/b', 'Row/c'], 'numeric range')
    t.same(await ids(c, { code: { $gte: 'CS', $lt: 'CT' } }), ['Row/a', 'Row/b', 'Row/d'], 'string range')
    t.same(await ids(c, { n: { $exists: false } }), ['Row/e'], '$exists false')
    t.same(await ids(c, { tags: { $exists: true } }), ['Row/a', 'Row/b', 'Row/c', 'Row/e'], 'an empty array exists')
    t.same(await ids(c, { code: { $prefix: 'CS ' } }), ['Row/a', 'Row/b'], 'prefix')
    t.same(await ids(c, { name: { $prefix: 'a' } }), [], 'prefix is case-sensitive')
    t.same(await ids(c, { name: { $iprefix: 'a' } }), ['Row/a'], 'case-insensitive prefix')
    t.same(await ids(c, { name: { $iprefix: 'CAR' } }), ['Row/c'])
    t.same(await ids(c, { code: { $prefix: 'C.' } }), ['Row/e'], 'prefix metacharacters are literal')
    t.same(await ids(c, { code: { $iprefix: '.*' } }), [], 'a regular expression in a prefix matches nothing')
    t.same(await ids(c, { tags: { $prefix: 'z' } }), ['Row/e'], 'prefix on an array matches any element')
    t.same(await ids(c, { $or: [{ name: 'bob' }, { n: { $gte: 4 } }] }), ['Row/b', 'Row/d'], '$or')
    t.same(await ids(c, { $and: [{ n: { $gte: 2 } }, { $or: [{ tags: 'y' }, { name: 'dave' }] }] }), ['Row/b', 'Row/d'], 'nested $and/$or')
    t.same(await ids(c, { code: { $prefix: 'CS' }, n: { $lt: 4 } }), ['Row/a', 'Row/b'], 'conditions on several fields all apply')
  })

  t.test('operators outside the shared subset are refused', async (t) => {
    const c = await seeded(t)
    const sneaky = [{ $where: 'sleep(100)' }, { name: { $regex: '.*' } }, { name: { $gt: { $ne: 1 } } }, { $nor: [{ name: 'x' }] }, { name: { $in: 'bob' } }]
    for (const filter of sneaky) {
      await t.rejects(c.find(filter as unknown as Filter), TypeError, JSON.stringify(filter))
    }
    await t.rejects(c.updateOne({ _id: 'Row/a' }, { $rename: { name: 'x' } } as never), TypeError)
  })

  t.test('sort, skip, limit, count, omit', async (t) => {
    const c = await seeded(t)
    const page = await c.find({}, { sort: [['n', -1], ['_id', 1]], skip: 1, limit: 2 })
    t.same(page.map((row) => row._id), ['Row/c', 'Row/b'])
    const byTagThenName = await c.find({ n: { $exists: true } }, { sort: [['code', 1], ['name', -1]] })
    t.same(byTagThenName.map((row) => row.code), ['CS 101', 'CS 201', 'CSE 310', 'MATH 101'])
    t.equal(await c.count({}), 5)
    t.equal(await c.count({ tags: 'y' }), 2)
    const slim = await c.findById('Row/a', { omit: ['tags', 'code'] })
    t.same(slim, { _id: 'Row/a', name: 'Alice', n: 1 })
    const first = await c.findOne({ n: { $exists: true } }, { sort: [['n', -1]] })
    t.equal(first?._id, 'Row/d', 'findOne honours sort')
  })

  t.test('insertMany writes every document', async (t) => {
    const c = await seeded(t)
    const before = await c.count({})
    await c.insertMany([])
    await c.insertMany([{ _id: 'Log/1', name: 'one', n: 1 }, { _id: 'Log/2', name: 'two', n: 2 }, { _id: 'Log/3', name: 'three', n: 3 }])
    t.equal(await c.count({}), before + 3)
    t.same((await c.find({ _id: { $in: ['Log/1', 'Log/2', 'Log/3'] } }, { sort: [['n', 1]] })).map((row) => row.n), [1, 2, 3])
    await t.rejects(c.insertMany([{ _id: 'Log/1', name: 'again', n: 9 }]), DuplicateKeyError)
  })

  t.test('a read after a write shows it, sorted or not', async (t) => {
    const c = await seeded(t)
    const order = async () => (await c.find({}, { sort: [['n', 1], ['_id', 1]] })).map((row) => row._id)
    const before = await order()
    await c.updateOne({ _id: before[0]! }, { $set: { n: 1000 } })
    t.equal((await order()).at(-1), before[0], 'an update moves the record in the sorted order')
    await c.deleteOne({ _id: before[1]! })
    t.notOk((await order()).includes(before[1]!), 'a deleted record leaves the sorted order')
    await c.insertOne({ _id: 'Row/z', n: -5, name: 'Zed' })
    t.equal((await order())[0], 'Row/z', 'an inserted record takes its place')
    t.equal(await c.count({}), before.length, 'count follows the writes')
    t.same((await c.find({ name: 'Zed' })).map((row) => row._id), ['Row/z'])
    t.equal((await c.findById('Row/z'))?.n, -5)
    await c.updateMany({}, { $set: { flag: true } })
    t.equal(await c.count({ flag: true }), before.length)
  })

  t.test('duplicates are reported with the index fields', async (t) => {
    const store = await open(t)
    await store.ensureIndexes('people', [{ fields: ['email'], unique: true, sparse: true }, { fields: ['a', 'b'], unique: true }])
    await store.ensureIndexes('people', [{ fields: ['email'], unique: true, sparse: true }, { fields: ['a', 'b'], unique: true }])
    const people = store.collection('people')
    await people.insertOne({ _id: 'P/1', email: 'a@x.edu', a: 1, b: 1 })
    const byId = await people.insertOne({ _id: 'P/1', email: 'other@x.edu', a: 9, b: 9 }).catch((e: unknown) => e)
    t.type(byId, DuplicateKeyError)
    t.same((byId as DuplicateKeyError).fields, ['_id'])
    const byEmail = await people.insertOne({ _id: 'P/2', email: 'a@x.edu', a: 2, b: 2 }).catch((e: unknown) => e)
    t.type(byEmail, DuplicateKeyError)
    t.same((byEmail as DuplicateKeyError).fields, ['email'])
    const byPair = await people.insertOne({ _id: 'P/3', email: 'c@x.edu', a: 1, b: 1 }).catch((e: unknown) => e)
    t.same((byPair as DuplicateKeyError).fields, ['a', 'b'])
    await people.insertOne({ _id: 'P/4', a: 4, b: 4 })
    await people.insertOne({ _id: 'P/5', a: 5, b: 5 })
    t.pass('a sparse unique index accepts several documents without the field')
    const byUpdate = await people.updateOne({ _id: 'P/4' }, { $set: { email: 'a@x.edu' } }).catch((e: unknown) => e)
    t.type(byUpdate, DuplicateKeyError, 'an update into a taken value is a duplicate too')
    t.equal((await people.findById('P/4'))?.email, undefined, 'and changes nothing')
    t.equal(await people.count({}), 3)
  })

  t.test('compare-and-set on _version', async (t) => {
    const store = await open(t)
    const c = store.collection<Row>('versioned')
    await c.insertOne({ _id: 'V/1', name: 'v', _version: 1 })
    const attempts = await Promise.all(Array.from({ length: 10 }, (_, i) =>
      c.updateOne({ _id: 'V/1', _version: 1 }, { $set: { name: `writer ${i}` }, $inc: { _version: 1 } })))
    const winners = attempts.filter((doc) => doc !== null)
    t.equal(winners.length, 1, 'exactly one of ten concurrent writers wins')
    const stored = await c.findById('V/1')
    t.equal(stored?._version, 2)
    t.equal(stored?.name, winners[0]?.name, 'the stored document is the winner\'s')
    t.equal(await c.updateOne({ _id: 'V/1', _version: 1 }, { $set: { name: 'stale' } }), null, 'a stale version matches nothing')
  })

  t.test('concurrent writers lose no increments', async (t) => {
    const store = await open(t)
    const c = store.collection<Row>('counters')
    await c.insertOne({ _id: 'C/1', name: 'c', n: 0 })
    await Promise.all(Array.from({ length: 50 }, () => c.updateOne({ _id: 'C/1' }, { $inc: { n: 1 } })))
    t.equal((await c.findById('C/1'))?.n, 50)
  })

  t.test('upsert', async (t) => {
    const store = await open(t)
    const c = store.collection<Row>('upserts')
    await store.ensureIndexes('upserts', [{ fields: ['code'], unique: true }])
    await c.upsertOne({ code: 'CS 1' }, { _id: 'U/1', name: 'first', code: 'CS 1' })
    await c.upsertOne({ code: 'CS 1' }, { _id: 'U/2', name: 'second', code: 'CS 1' })
    const all = await c.find({})
    t.same(all, [{ _id: 'U/1', name: 'second', code: 'CS 1' }], 'the second upsert updates and keeps the first id')
    await Promise.all(['a', 'b', 'c', 'd'].map((name, i) => c.upsertOne({ code: 'CS 2' }, { _id: `U/x${i}`, name, code: 'CS 2' })))
    t.equal(await c.count({ code: 'CS 2' }), 1, 'concurrent upserts of one key leave one document')
  })
}
