import { randomUUID } from 'node:crypto'
import type { CommandStartedEvent } from 'mongodb'
import t from 'tap'
import { defaultMaxTimeMs, MongoStore } from '../../src/store/mongo/store.js'
import { StoreUnavailableError } from '../../src/store/port.js'
import type { SlowCommand } from '../../src/store/mongo/slow-commands.js'
import { buildTestApp } from '../helpers/app.js'
import { Fixtures } from '../helpers/records.js'

/**
 * How many commands a warm read sends to MongoDB, counted with the driver's command monitoring. A warm
 * request is one whose principal is already cached: the app has Redis, whose notices keep the principal
 * cache on over a MongoDB store, and no response cache, which would hide the store altogether.
 */
const url = process.env.MONGODB_URL

if (!url) {
  t.plan(0, 'MongoDB command counts not measured: MONGODB_URL is not set (the embedded store sends no commands)')
} else {
  t.test('a warm authenticated read by id sends one find, a sorted page a find and a count', async (t) => {
    const commands: CommandStartedEvent[] = []
    const store = await MongoStore.open(url, `adks_commands_${process.pid}`, { onCommand: (event) => commands.push(event) })
    t.teardown(async () => {
      await store.dropDatabase()
      await store.close()
    })
    const { app, as } = await buildTestApp(t, {
      REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PREFIX: `adks-commands-${randomUUID()}:`, CACHE: 'off',
    }, { store })
    const fx = new Fixtures(app, as('admin@dept.edu', 'admin'))
    const people = []
    for (let n = 0; n < 3; n++) people.push(await fx.create('Faculty', await fx.body('Faculty', { full: true, n })))
    const reader = as('reader@dept.edu', 'user')
    // A first sign-in creates the user record, and a principal built while a source of principals is
    // written is not kept: the request after it builds the principal the cache then holds.
    for (let n = 0; n < 2; n++) t.equal((await reader({ method: 'GET', url: '/api/people?limit=1' })).statusCode, 200, 'signed in')

    /** The commands one request sends, after the same request has been made once (so every cache is warm). */
    const commandsOf = async (requestUrl: string) => {
      const cold = await reader({ method: 'GET', url: requestUrl })
      t.equal(cold.statusCode, 200, `GET ${requestUrl}`)
      commands.length = 0
      const warm = await reader({ method: 'GET', url: requestUrl })
      t.equal(warm.statusCode, 200, `GET ${requestUrl} again`)
      // Anything a request leaves to do after answering (a log entry, say) would be sent by now.
      await new Promise((resolve) => setTimeout(resolve, 200))
      const sent = commands.map((event) => `${event.commandName} ${String(event.command[event.commandName])}`)
      return { answer: warm.json(), sent, filters: commands.map((event) => event.command.filter as unknown) }
    }

    const byId = await commandsOf(`/api/people/${encodeURIComponent(people[0]!._id)}`)
    t.equal(byId.answer._id, people[0]!._id, 'the record read')
    t.same(byId.sent, ['find people'], 'GET by id: exactly one find')
    t.same(byId.filters, [{ _id: people[0]!._id }], 'the find is by id')

    const page = await commandsOf('/api/people?limit=50&sort=last_name')
    t.equal(page.answer.total, 3, 'the page counts every record')
    t.equal(page.answer.items.length, 3)
    t.same([...page.sent].sort(), ['aggregate people', 'find people'], 'a sorted page: one find and one count')
  })
  t.test('MONGODB_SLOW_MS: each command at or over the threshold is reported by its shape, not its values', async (t) => {
    const reports: SlowCommand[] = []
    const store = await MongoStore.open(url, `adks_slow_${process.pid}`, { slow: { ms: 0, report: (entry) => reports.push(entry) } })
    t.teardown(async () => {
      await store.dropDatabase()
      await store.close()
    })
    const people = store.collection('people')
    await people.insertOne({ _id: 'p1', email: 'private.person@dept.edu', last_name: 'Secret' })
    reports.length = 0
    t.equal((await people.find({ email: 'private.person@dept.edu' }, { sort: [['last_name', 1]], limit: 5 })).length, 1)
    const find = reports.find((r) => r.command === 'find')
    t.ok(find, 'the find was reported')
    t.equal(find!.collection, 'people')
    t.same(find!.shape, { filter: { email: 'string' }, sort: { last_name: 'number' }, limit: 5 }, 'fields, operators and the limit; values as their types')
    t.notOk(JSON.stringify(reports).includes('private.person'), 'no value written or queried appears in a report')
    t.notOk(JSON.stringify(reports).includes('Secret'))

    const quiet: SlowCommand[] = []
    const slowOnly = await MongoStore.open(url, `adks_slow_${process.pid}`, { slow: { ms: 60_000, report: (entry) => quiet.push(entry) } })
    t.teardown(() => slowOnly.close())
    t.equal((await slowOnly.collection('people').find({ _id: 'p1' })).length, 1)
    t.same(quiet, [], 'a command under the threshold is not reported')
  })

  t.test('MONGODB_MAX_TIME_MS: every read carries the bound, and a read stopped there is the store being unavailable', async (t) => {
    const sentBy = async (maxTimeMs: number | undefined) => {
      const commands: CommandStartedEvent[] = []
      const store = await MongoStore.open(url, `adks_max_time_${process.pid}`, { onCommand: (event) => commands.push(event), ...(maxTimeMs === undefined ? {} : { maxTimeMs }) })
      t.teardown(() => store.close())
      const people = store.collection('people')
      await people.insertOne({ _id: `p${maxTimeMs}`, last_name: 'Lovelace' })
      commands.length = 0
      await people.findById(`p${maxTimeMs}`)
      await people.find({ last_name: 'Lovelace' }, { sort: [['last_name', 1]], limit: 5 })
      await people.count({ last_name: 'Lovelace' })
      return commands.map((event) => [event.commandName, event.command.maxTimeMS as unknown])
    }
    t.same(await sentBy(1234), [['find', 1234], ['find', 1234], ['aggregate', 1234]], 'a find by id, a page and a count each carry it')
    t.same(await sentBy(undefined), [['find', defaultMaxTimeMs], ['find', defaultMaxTimeMs], ['aggregate', defaultMaxTimeMs]], 'bounded by default')
    t.same(await sentBy(0), [['find', undefined], ['find', undefined], ['aggregate', undefined]], '0: no bound')

    // Sorting thousands of documents takes the server far longer than a millisecond.
    const store = await MongoStore.open(url, `adks_max_time_${process.pid}`, { maxTimeMs: 1 })
    t.teardown(async () => {
      await store.dropDatabase()
      await store.close()
    })
    const many = store.collection('many')
    const docs = Array.from({ length: 3000 }, (_, i) => ({ _id: `d${i}`, name: `name ${(i * 7919) % 3000}`, text: 'x'.repeat(200) }))
    for (let at = 0; at < docs.length; at += 1000) await many.insertMany(docs.slice(at, at + 1000))
    await t.rejects(many.find({}, { sort: [['name', 1]] }), StoreUnavailableError, 'a read over its bound')
    await t.rejects(many.count({ name: { $ne: 'none' } }), StoreUnavailableError, 'a count over its bound')
  })
}
