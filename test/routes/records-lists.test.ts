import t from 'tap'
import { internalFields } from '../../src/records/derived.js'
import type { ApiRecord } from '../../src/records/service.js'
import { buildTestApp } from '../helpers/app.js'
import { Fixtures, type Inject } from '../helpers/records.js'

/** Store order: absent values first, then by value (strings by code unit, as both stores do). */
function compare(a: unknown, b: unknown): number {
  if (a === b) return 0
  if (a === undefined) return -1
  if (b === undefined) return 1
  return (a as string | number) < (b as string | number) ? -1 : 1
}

async function list(inject: Inject, url: string): Promise<{ items: ApiRecord[]; total: number; limit: number; offset: number }> {
  const answer = await inject({ method: 'GET', url })
  if (answer.statusCode !== 200) throw new Error(`GET ${url}: ${answer.statusCode} ${answer.body}`)
  return answer.json()
}

t.test('every resource lists, filters, sorts and pages', async (t) => {
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const plainUser = as('reader@dept.edu', 'user')
  const fx = new Fixtures(app, admin)

  for (const resource of app.schema.resources) {
    await t.test(resource.path, async (t) => {
      // Student records are listed to admins only (test/privacy covers who sees what); everything else,
      // groups included, is read by a plain user.
      const hidden = resource.classes.some((c) => app.schema.class(c)!.metadata.student)
      const reader = hidden ? admin : plainUser
      const made: ApiRecord[] = []
      // Full and minimal records, so sorts meet both present and absent optional values.
      for (const className of resource.classes) {
        for (const full of [true, false, true]) made.push(await fx.create(className, await fx.body(className, { full })))
      }

      const all = await list(reader, `${resource.path}?limit=200`)
      t.same(Object.keys(all).sort(), ['items', 'limit', 'offset', 'total'], 'the list envelope')
      t.equal(all.limit, 200)
      t.equal(all.offset, 0)
      t.equal(all.total, all.items.length)
      t.equal(all.total, await app.store.collection(resource.collection).count({ type: { $in: [...resource.classes] } }), 'total counts every record')
      for (const record of made) t.ok(all.items.some((item) => item._id === record._id), `${record._id} is listed`)
      const shown = new Set(all.items.flatMap((item) => Object.keys(item)))
      for (const field of internalFields) t.notOk(shown.has(field), `${field} is not shown in lists`)
      t.equal((await list(reader, resource.path)).limit, 50, 'limit defaults to 50')

      const pages: ApiRecord[] = []
      for (let offset = 0; offset < all.total; offset += 3) {
        const page = await list(reader, `${resource.path}?limit=3&offset=${offset}`)
        t.equal(page.total, all.total, `total is the same on page ${offset / 3}`)
        t.same([page.limit, page.offset], [3, offset])
        pages.push(...page.items)
      }
      t.same(pages.map((r) => r._id), all.items.map((r) => r._id), 'pages put together give the whole list in order')
      const beyond = await list(reader, `${resource.path}?offset=${all.total + 5}`)
      t.same([beyond.items, beyond.total], [[], all.total], 'an offset past the end gives no items and the total')

      for (const field of resource.root.metadata.sortable) {
        for (const direction of [1, -1]) {
          const { items } = await list(reader, `${resource.path}?limit=200&sort=${direction < 0 ? '-' : ''}${field}`)
          const ordered = items.every((item, i) => {
            if (i === 0) return true
            const previous = items[i - 1]!
            const order = direction * compare(previous[field], item[field])
            return order < 0 || (order === 0 && previous._id < item._id)
          })
          t.ok(ordered, `sort=${direction < 0 ? '-' : ''}${field} orders the items, ties by id`)
          t.equal(items.length, all.total)
        }
      }

      for (const [param, meaning] of Object.entries(resource.root.metadata.filters)) {
        if (meaning.startsWith('@')) continue
        const cls = fx.cls(resource.classes[0]!)
        const prop = cls.properties.find((p) => p.name === meaning)!
        const many = prop.kind !== 'required' && prop.kind !== 'optional'
        const [wanted, other] = [await fx.value(cls, prop, 1, 0), await fx.value(cls, prop, 2, 1)]
        t.not(wanted, other)
        const make = async (value: unknown) => fx.create(cls.name, { ...await fx.body(cls.name), [meaning]: many ? [value] : value })
        const [hit, miss] = [await make(wanted), await make(other)]
        const { items, total } = await list(reader, `${resource.path}?limit=200&${param}=${encodeURIComponent(String(wanted))}`)
        t.ok(items.some((r) => r._id === hit._id), `${param}: the matching record is listed`)
        t.notOk(items.some((r) => r._id === miss._id), `${param}: the other record is not`)
        t.ok(items.every((r) => many ? (r[meaning] as unknown[]).includes(wanted) : r[meaning] === wanted), `${param}: every item matches`)
        t.equal(total, items.length)
      }

      if (Object.values(resource.root.metadata.filters).includes('@search')) {
        const param = Object.entries(resource.root.metadata.filters).find(([, m]) => m === '@search')![0]
        const cls = fx.cls(resource.classes[0]!)
        const field = cls.metadata.searchable.find((name) => cls.properties.some((p) => p.name === name && p.target.kind === 'scalar' && !p.constraints.pattern && !p.constraints.format))!
        const record = await fx.create(cls.name, { ...await fx.body(cls.name), [field]: 'Quixotic Zeppelin Ånalysis' })
        for (const query of ['quixotic', 'ZEPP', 'analysis', 'zeppelin quix']) {
          const { items } = await list(reader, `${resource.path}?${param}=${encodeURIComponent(query)}`)
          t.same(items.map((r) => r._id), [record._id], `${param}=${query} finds the record by ${field}`)
        }
        for (const query of ['otic', 'quixotic zebra']) {
          t.same((await list(reader, `${resource.path}?${param}=${encodeURIComponent(query)}`)).items, [], `${param}=${query} finds nothing`)
        }
      }
    })
  }
})
