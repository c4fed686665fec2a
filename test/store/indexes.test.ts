import t from 'tap'
import type { IndexSpec, Store } from '../../src/store/port.js'
import { buildTestApp } from '../helpers/app.js'

/**
 * Every filter and sort the list routes offer has an index that serves it, read back from the store the
 * service opened: on MongoDB its listIndexes, on the embedded store the indexes it keeps. A filter needs
 * an index led by the field it compares; a sort one whose keys are the sort's, in its directions, then
 * `_id` ascending, as records/list-query.ts listSort breaks ties. That SQLite does walk them is
 * test/store/query-plans.test.ts's to show.
 */
const url = process.env.MONGODB_URL

/** The stored field a list filter of this meaning compares, and the collection it is in. */
function filtered(meaning: string, collection: string): { collection: string; field: string } {
  switch (meaning) {
    case '@type': return { collection, field: 'type' }
    case '@search': return { collection, field: '_search' }
    case '@subject': return { collection, field: '_subject' }
    case '@level': return { collection, field: '_level' }
    case '@offered_in': return { collection: 'sections', field: 'term' }
    default: return { collection, field: meaning }
  }
}

function leads(index: IndexSpec, field: string): boolean {
  return index.fields[0] === field
}

/** `sort` as a sort parameter gives it (`-` for descending), then the `_id` tie-break. */
function walks(index: IndexSpec, sort: readonly string[]): boolean {
  const keys = [...sort, '_id']
  return keys.every((key, i) => {
    const field = key.replace(/^-/, '')
    return index.fields[i] === field && (index.descending ?? []).includes(field) === key.startsWith('-')
  })
}

t.test('every list filter and sort has an index', async (t) => {
  let given: Store | undefined
  if (url) {
    const { MongoStore } = await import('../../src/store/mongo/store.js')
    const mongo = await MongoStore.open(url, `adks_indexes_${process.pid}`)
    t.teardown(async () => {
      await mongo.dropDatabase()
      await mongo.close()
    })
    given = mongo
  }
  const { app } = await buildTestApp(t, {}, given ? { store: given } : {})
  const store = given ?? app.store
  t.ok(store.indexes, `the ${store.kind} store reads its indexes`)
  const listed = new Map<string, IndexSpec[]>()
  const indexesOf = async (collection: string) => {
    let found = listed.get(collection)
    if (!found) listed.set(collection, (found = await store.indexes!(collection)))
    return found
  }

  for (const resource of app.schema.resources) {
    const { filters, sortable, default_sort: defaultSort, related } = resource.root.metadata
    for (const [param, meaning] of Object.entries(filters)) {
      const { collection, field } = filtered(meaning, resource.collection)
      t.ok((await indexesOf(collection)).some((index) => leads(index, field)), `${resource.path}?${param}= has an index on ${collection}.${field}`)
    }
    for (const link of related ?? []) {
      const target = app.schema.class(link.class)!.metadata.collection!
      t.ok((await indexesOf(target)).some((index) => leads(index, link.field)), `${resource.path}/:id/${link.path} has an index on ${target}.${link.field}`)
    }
    const sorts = [defaultSort, ...sortable.flatMap((field) => [[field], [`-${field}`]])]
    for (const sort of sorts) {
      t.ok((await indexesOf(resource.collection)).some((index) => walks(index, sort)), `${resource.path}?sort=${sort.join(',')} walks an index`)
    }
  }
})
