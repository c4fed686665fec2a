import type { Test } from 'tap'
import { DuplicateKeyError, type Collection, type Doc, type Filter, type Store } from '../../src/store/port.js'
import { allIds, filterCases, items, type Item } from './filter-cases.js'

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

  async function ids(collection: Collection<Doc>, filter: Filter): Promise<string[]> {
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

  t.test('every filter form finds the same documents for find, count, updateMany and deleteMany', async (t) => {
    const store = await open(t)
    const seed = async (name: string) => {
      const collection = store.collection<Item>(name)
      await collection.insertMany(items)
      return collection
    }
    const plain = await seed('filters')
    // Equality and $in can be answered from an index; the answer must not change when one exists.
    const indexedFields = ['name', 'n', 'active', 'tags', 'scores', 'code', 'address.city', 'parts.code', 'parts.qty']
    await store.ensureIndexes('filtersIndexed', indexedFields.map((field) => ({ fields: [field] })))
    const indexed = await seed('filtersIndexed')
    for (const [i, { name, filter, ids: expected }] of filterCases.entries()) {
      await t.test(name, async (t) => {
        t.same(await ids(plain, filter), expected, 'find')
        t.same(await ids(indexed, filter), expected, 'find on indexed fields')
        t.equal(await plain.count(filter), expected.length, 'count')
        t.equal(await indexed.count(filter), expected.length, 'count on indexed fields')

        const updated = await seed(`updated${i}`)
        t.equal(await updated.updateMany(filter, { $set: { hit: true } }), expected.length, 'updateMany counts the matches')
        t.same(await ids(updated, { hit: true }), expected, 'updateMany changed exactly the matches')
        const one = await updated.updateOne(filter, { $set: { once: true } })
        if (expected.length) t.ok(one && expected.includes(one._id) && one.once === true, 'updateOne changed a match')
        else t.equal(one, null, 'updateOne found nothing')
        t.equal(await updated.count({ once: true }), Math.min(1, expected.length), 'updateOne changed at most one')

        const deleted = await seed(`deleted${i}`)
        t.equal(await deleted.deleteMany(filter), expected.length, 'deleteMany counts the matches')
        t.same(await ids(deleted, {}), allIds.filter((id) => !expected.includes(id)), 'deleteMany removed exactly the matches')
        const deletedOne = await seed(`deletedOne${i}`)
        t.equal(await deletedOne.deleteOne(filter), Math.min(1, expected.length), 'deleteOne removes at most one')
        const left = await ids(deletedOne, {})
        t.ok(allIds.filter((id) => !left.includes(id)).every((id) => expected.includes(id)), 'deleteOne removed a match')
      })
    }
  })

  t.test('an indexed field follows writes', async (t) => {
    const store = await open(t)
    await store.ensureIndexes('indexed', [{ fields: ['code'] }, { fields: ['tags'] }, { fields: ['parts.code'] }])
    const c = store.collection<Item>('indexed')
    await c.insertMany(items)
    t.same(await ids(c, { code: 'CS 101' }), ['I/1'])
    await c.updateOne({ _id: 'I/1' }, { $set: { code: 'CS 999' } })
    t.same(await ids(c, { code: 'CS 101' }), [], 'an update takes the old value away')
    t.same(await ids(c, { code: { $in: ['CS 999', 'CS 201'] } }), ['I/1', 'I/2'], 'and gives the new one')
    await c.updateMany({ tags: 'y' }, { $push: { tags: 'w' } })
    t.same(await ids(c, { tags: 'w' }), ['I/1', 'I/2'], 'an element pushed onto an array')
    t.same(await ids(c, { tags: 'x' }), ['I/1'], 'the elements already there')
    await c.deleteMany({ 'parts.code': 'P2' })
    t.same(await ids(c, { 'parts.code': { $in: ['P1', 'P2'] } }), ['I/1'], 'a delete')
    await c.insertOne({ _id: 'I/6', name: 'zeta', parts: [{ code: 'P2' }] })
    t.same(await ids(c, { 'parts.code': 'P2' }), ['I/6'], 'an insert')
    await c.upsertOne({ code: 'CS 999' }, { _id: 'I/7', name: 'Alpha', code: 'CS 101' })
    t.same(await ids(c, { code: 'CS 101' }), ['I/1'], 'an upsert that updates')
    t.same(await ids(c, { code: 'CS 999' }), [])
  })

  t.test('updateMany counts every match, changed or not', async (t) => {
    const c = await seeded(t)
    t.equal(await c.updateMany({ tags: 'y' }, { $set: { name: 'bob' } }), 2, 'Row/b already had the name')
    t.same(await ids(c, { name: 'bob' }), ['Row/a', 'Row/b'])
  })

  t.test('operators outside the shared subset are refused', async (t) => {
    const c = await seeded(t)
    /** A refusal is a rejected promise, never a throw before the promise is returned. */
    async function refuses(what: string, call: () => Promise<unknown>): Promise<void> {
      let pending: Promise<unknown> | undefined
      t.doesNotThrow(() => { pending = call() }, `${what} returns a promise`)
      if (pending) await t.rejects(pending, TypeError, what)
    }
    const sneaky = [{ $where: 'sleep(100)' }, { name: { $regex: '.*' } }, { name: { $gt: { $ne: 1 } } }, { $nor: [{ name: 'x' }] }, { name: { $in: 'bob' } }]
    for (const bad of sneaky) {
      const filter = bad as unknown as Filter
      const label = JSON.stringify(bad)
      await refuses(`find ${label}`, () => c.find(filter))
      await refuses(`findOne ${label}`, () => c.findOne(filter))
      await refuses(`view ${label}`, () => c.view(filter))
      await refuses(`count ${label}`, () => c.count(filter))
      await refuses(`updateOne ${label}`, () => c.updateOne(filter, { $set: { name: 'x' } }))
      await refuses(`updateMany ${label}`, () => c.updateMany(filter, { $set: { name: 'x' } }))
      await refuses(`upsertOne ${label}`, () => c.upsertOne(filter, { _id: 'Row/new', name: 'x' }))
      await refuses(`deleteOne ${label}`, () => c.deleteOne(filter))
      await refuses(`deleteMany ${label}`, () => c.deleteMany(filter))
    }
    for (const update of [{ $rename: { name: 'x' } }, { $set: { _id: 'Row/x' } }, { $set: { $where: 'x' } }]) {
      const label = JSON.stringify(update)
      await refuses(`updateOne ${label}`, () => c.updateOne({ _id: 'Row/a' }, update as never))
      await refuses(`updateMany ${label}`, () => c.updateMany({}, update as never))
    }
    t.same(await c.find({}, { sort: [['_id', 1]] }), rows, 'nothing was changed')
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

  t.test('collection names, drop, and a snapshot of every collection', async (t) => {
    const store = await open(t)
    const rowsCollection = store.collection<Row>('rows')
    for (const row of rows) await rowsCollection.insertOne(row)
    await store.collection('others').insertOne({ _id: 'O/1', at: '2026-01-01', nested: { list: [1, 'two', { three: true }] } })
    await store.ensureIndexes('rows', [{ fields: ['name'], unique: true }])
    const names = await store.collectionNames()
    t.ok(names.includes('rows') && names.includes('others'), `the written collections are named (${names.join(', ')})`)
    t.same(names, [...names].sort(), 'in name order')

    const snapshot = await store.snapshot()
    // A write after the snapshot began: an exact snapshot does not see it; any snapshot sees every write before.
    await rowsCollection.insertOne({ _id: 'Row/later', name: 'Later' })
    t.ok(snapshot.collections.includes('rows') && snapshot.collections.includes('others'))
    const lines: string[] = []
    for await (const line of snapshot.lines('rows')) lines.push(line)
    const read = lines.map((line) => JSON.parse(line) as Row)
    t.same(read.filter((row) => row._id !== 'Row/later'), rows, 'each document as a line of JSON, in _id order')
    if (snapshot.exact) t.notOk(read.some((row) => row._id === 'Row/later'), 'an exact snapshot holds nothing written after it began')
    const others: string[] = []
    for await (const line of snapshot.lines('others')) others.push(line)
    t.same(others.map((line) => JSON.parse(line)), [{ _id: 'O/1', at: '2026-01-01', nested: { list: [1, 'two', { three: true }] } }], 'nested values as stored')
    t.ok(await snapshot.count('rows') >= rows.length, 'counted')
    await snapshot.close()

    await store.drop('rows')
    t.notOk((await store.collectionNames()).includes('rows'), 'a dropped collection is gone')
    t.equal(await rowsCollection.count({}), 0, 'with its documents')
    await rowsCollection.insertOne(rows[0]!)
    t.same(await rowsCollection.find({}), [rows[0]], 'and can be written again')
    if (store.indexes) t.notOk((await store.indexes('rows')).some((index) => index.fields.includes('name')), 'without the indexes it had')
    await rowsCollection.insertOne({ ...rows[1]!, name: rows[0]!.name })
    t.equal(await rowsCollection.count({ name: rows[0]!.name }), 2, 'so a name its unique index refused before is taken')
    await store.drop('never-made')
    t.pass('dropping a collection that does not exist changes nothing')
  })
}
