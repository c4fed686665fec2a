import t from 'tap'
import { listFilter, listSort } from '../../src/records/list-query.js'
import { RecordService } from '../../src/records/service.js'
import type { Filter, FindOptions, Store } from '../../src/store/port.js'
import { where } from '../../src/store/port.js'
import { EmbeddedStore } from '../../src/store/sqlite/store.js'
import { generateSampleDepartment } from '../../scripts/sample/index.js'
import { seedDepartmentInBulk } from '../../scripts/sample/seed-bulk.js'
import { buildTestApp } from '../helpers/app.js'
import { tempDir } from '../helpers/temp-dir.js'

/**
 * SQLite's own query plans for the queries the list routes make, on the sample department: a filter an
 * index serves is answered by a SEARCH of that index (never a SCAN of the collection's table), and a
 * sort an index serves walks it (no temporary B-tree for ORDER BY). The plans come from the store's
 * `explain` hook, which hears each statement's EXPLAIN QUERY PLAN whenever it runs.
 */
if (process.env.MONGODB_URL) {
  t.comment('query plans are the embedded store\'s; the MongoDB pass has its own (test/store/mongo-commands.test.ts)')
} else {
  t.test('every list filter and sort is answered through an index', async (t) => {
    let heard: { sql: string; plan: readonly string[] }[] = []
    let store: EmbeddedStore | undefined
    const dir = await tempDir(t, async () => store?.close())
    store = await EmbeddedStore.open(dir, [], { explain: (sql, plan) => heard.push({ sql, plan }) })
    const { app } = await buildTestApp(t, {}, { store })
    const schema = app.schema
    const records = new RecordService(store as Store, schema)
    await seedDepartmentInBulk(records, generateSampleDepartment(1))

    /** The plans of the statements one query ran on its collection (the service's own jobs query too, meanwhile). */
    async function plansOf(collection: string, filter: Filter, options: FindOptions): Promise<string[]> {
      heard = []
      await store!.collection(collection).find(filter, options)
      return heard.filter((entry) => entry.sql.includes(`FROM "${collection}"`)).flatMap((entry) => entry.plan.map((line) => `${line}   [${entry.sql}]`))
    }
    const scans = (plan: readonly string[], table: string) => plan.filter((line) => new RegExp(`^SCAN ${table}(?! USING)`).test(line))
    const sorts = (plan: readonly string[]) => plan.filter((line) => line.startsWith('USE TEMP B-TREE FOR ORDER BY'))

    let queries = 0
    for (const resource of schema.resources) {
      const cls = resource.root
      const table = resource.collection
      const { filters, sortable, default_sort: defaultSort, related } = cls.metadata
      for (const [param, meaning] of Object.entries(filters)) {
        if (meaning === '@offered_in') continue
        const value = meaning === '@type' ? cls.concrete[0] ?? cls.name : meaning === '@search' ? 'intro data' : meaning === '@subject' ? 'CS' : meaning === '@level' ? 300 : 'x'
        const filter = await listFilter(schema, records, resource, { limit: 50, offset: 0, [param]: value })
        const plan = await plansOf(table, filter, { sort: listSort(cls, undefined), limit: 50 })
        t.same(scans(plan, table), [], `${resource.path}?${param}= reads ${table} through an index`)
        queries++
      }
      for (const link of related ?? []) {
        const target = schema.class(link.class)!.metadata.collection!
        const plan = await plansOf(target, where(link.field, 'X/x'), { limit: 50 })
        t.same(scans(plan, target), [], `${resource.path}/:id/${link.path} reads ${target} through an index`)
        queries++
      }
      const orders = [defaultSort.join(','), ...sortable.flatMap((field) => [field, `-${field}`])].filter(Boolean)
      for (const order of orders) {
        const plan = await plansOf(table, {}, { sort: listSort(cls, order), limit: 50 })
        t.same(sorts(plan), [], `${resource.path}?sort=${order} walks an index`)
        t.same(scans(plan, table), [], `${resource.path}?sort=${order} reads no table in full`)
        queries++
      }
    }
    t.ok(queries > 20, `${queries} queries checked`)

    // Revisions: a record's history, the trash (a sparse index: deletions only), a run's writes for its
    // revert (sparse: runs only), retention by age.
    const revisions = [
      [{ record: 'Course/CS-101' }, { sort: [['version', -1]], limit: 50 }],
      [{ trashed: true }, { sort: [['at', -1]], limit: 50 }],
      [{ trashed: true, type: { $in: ['Lab'] } }, { sort: [['at', -1]], limit: 50 }],
      [{ run: 'sync:x' }, { sort: [['at', 1], ['version', 1]] }],
      [{ at: { $lt: '2020-01-01T00:00:00.000Z' } }, { sort: [['at', 1]], limit: 500 }],
    ] as const
    for (const [filter, options] of revisions) {
      const plan = await plansOf('revisions', filter as Filter, options as FindOptions)
      t.ok(plan.some((line) => line.startsWith('SEARCH revisions USING INDEX')) && !scans(plan, 'revisions').length, `revisions ${JSON.stringify(filter)} are searched through an index`)
      t.same(sorts(plan), [], `revisions ${JSON.stringify(filter)} are sorted by an index`)
    }

    // The plan a SCAN looks like, so that the checks above are known to see one when it happens.
    const unindexed = await plansOf('people', { nickname_nobody_indexed: 'x' } as Filter, { limit: 1 })
    t.ok(scans(unindexed, 'people').length, 'a filter on a field no index serves scans the table, and the check sees it')
  })
}
