import jsonPatch, { type Operation } from 'fast-json-patch'
import { isDeepStrictEqual } from 'node:util'
import t from 'tap'
import { Random } from '../../scripts/sample/random.js'
import { buildTestApp } from '../helpers/app.js'
import { Fixtures, type Body } from '../helpers/records.js'

/**
 * A seeded random run of writes through the API (creates, updates, deletes, restores of a version and
 * from the trash) on two resources, one whose history is read from the stored patches and one whose
 * history is worked out between redacted states; then every past state is read back through `as_of` and
 * through the history's changes, and compared with what a read answered right after each write.
 */

// The MongoDB pass reads as_of over a thousand times, each a read of every revision on FerretDB over SQLite.
t.setTimeout(1_200_000)

const seed = Number(process.env.HISTORY_SEED ?? Math.floor(Math.random() * 2 ** 31))
const writesWanted = 300
const slotsPerKind = 10
const bookkeeping = ['_version', '_created_at', '_updated_at']
/** What the history's change lists leave out: the bookkeeping, and the record's id and type. */
const unlisted = [...bookkeeping, '_id', 'type']

type State = Record<string, unknown>
type Kind = 'center' | 'publication'

interface Slot {
  readonly kind: Kind
  readonly n: number
  id?: string
  /** The record as last read (null: deleted, or not made yet). */
  current: State | null
  /** Each version the record had: its state as read after the write (null for a deletion). */
  readonly versions: Map<number, State | null>
  /** What the history should say of each version. */
  readonly expected: Map<number, { op: 'create' | 'update' | 'delete'; restoredFrom?: number }>
  /** The version of the record's last deletion, while it is deleted. */
  deletedAt?: number
  /** The deletions the trash lists: all since the record was last restored from it (one made anew leaves them there). */
  trashed: number[]
}

interface Mark {
  /** A time after the write, before the next one. */
  readonly at: string
  readonly states: ReadonlyMap<Slot, State | null>
}

const authorNames = ['Ada Lovelace', 'Alan Turing', 'Grace Hopper', 'Edsger W. Dijkstra', 'Barbara Liskov', 'Donald Knuth', 'Frances Allen', 'Zoë Ørsted/~1']
const venues = ['SIGMOD', 'VLDB', 'ICSE', 'PLDI', 'Journal of Things ~0/1', 'Nature']
const words = ['optics', 'lenses', 'graphs', 'proofs', 'types', 'storage', 'unicode ✓', 'quotes "x"', 'slash / tilde ~']

function without(state: State | null, fields: readonly string[]): State | null {
  if (!state) return null
  const copy = { ...state }
  for (const field of fields) delete copy[field]
  return copy
}

/** Waits, by polling the clock, until it has moved past `ms`: no two writes share a millisecond, nor a write and a mark. */
async function clockPast(ms: number): Promise<void> {
  while (Date.now() <= ms) await new Promise((resolve) => setImmediate(resolve))
}

t.test(`a random run of writes is rebuilt exactly by as_of and by the history (seed ${seed})`, async (t) => {
  t.comment(`seed ${seed} (set HISTORY_SEED=${seed} to run the same writes again)`)
  const random = new Random(`history-${seed}`)
  const { app, as } = await buildTestApp(t)
  const admin = as('admin@dept.edu', 'admin')
  const fx = new Fixtures(app, admin)
  const faculty = [await fx.shareable('Faculty', 0), await fx.shareable('Faculty', 1), await fx.shareable('Faculty', 2), await fx.shareable('Faculty', 3)]
  // A student among the publications' department authors: the resource's history is worked out between redacted states.
  const people = [...faculty, await fx.shareable('UndergraduateStudent', 0), await fx.shareable('Staff', 0)]

  const slots: Slot[] = []
  for (const kind of ['center', 'publication'] as const) {
    for (let n = 0; n < slotsPerKind; n++) slots.push({ kind, n, current: null, versions: new Map(), expected: new Map(), trashed: [] })
  }
  const path = (slot: Slot) => slot.kind === 'center' ? '/api/research-centers' : '/api/publications'
  const url = (slot: Slot, suffix = '') => `${path(slot)}/${encodeURIComponent(slot.id!)}${suffix}`

  const sometimes = (p: number) => random.chance(p)
  const text = () => `${random.pick(words)} ${random.int(0, 999)}${sometimes(0.1) ? ' '.repeat(random.int(1, 3)) + random.pick(words) : ''}`
  const authors = () => Array.from({ length: random.int(0, 5) }, () => random.pick(authorNames))
  const subset = (items: readonly string[]) => random.sample(items, random.int(0, items.length))

  /** A list changed as an editor would: an item added, one dropped, two swapped, one replaced, or all new. */
  function changedList(list: readonly string[], pool: readonly string[], distinct: boolean): string[] {
    const next = [...list]
    const free = pool.filter((item) => !distinct || !next.includes(item))
    switch (random.int(0, 4)) {
      case 0: if (free.length) next.splice(random.int(0, next.length), 0, random.pick(free)); break
      case 1: if (next.length) next.splice(random.int(0, next.length - 1), 1); break
      case 2: if (next.length > 1) { const i = random.int(0, next.length - 1), j = random.int(0, next.length - 1); [next[i], next[j]] = [next[j]!, next[i]!] } break
      case 3: if (next.length && free.length) next[random.int(0, next.length - 1)] = random.pick(free); break
      default: return distinct ? subset(pool) : authors()
    }
    return next
  }

  function createBody(slot: Slot): Body {
    if (slot.kind === 'center') {
      return {
        name: `Center ${seed} ${slot.n}`, faculty: subset(faculty),
        ...(sometimes(0.6) ? { description: text() } : {}), ...(sometimes(0.5) ? { director: random.pick(faculty) } : {}),
        ...(sometimes(0.5) ? { website: `https://dept.edu/centers/${slot.n}/${random.int(0, 99)}` } : {}),
        ...(sometimes(0.5) ? { established_year: random.int(1900, 2026) } : {}),
      }
    }
    return {
      title: text(), authors: authors(), dept_authors: subset(people),
      ...(sometimes(0.5) ? { venue: random.pick(venues) } : {}), ...(sometimes(0.5) ? { year: random.int(1990, 2026) } : {}),
      ...(sometimes(0.4) ? { doi: `10.5555/h${seed}.${slot.n}.${random.int(0, 9)}` } : {}),
      ...(sometimes(0.4) ? { abstract: text() } : {}), ...(sometimes(0.3) ? { citation_count: random.int(0, 500) } : {}),
    }
  }

  /** Changes one to four fields: a new value, or null to remove an optional one. */
  function updateBody(slot: Slot): Body {
    const current = slot.current!
    const optional = (value: () => unknown) => (sometimes(0.35) ? null : value())
    const fields: Record<string, () => unknown> = slot.kind === 'center'
      ? {
          description: () => optional(text), director: () => optional(() => random.pick(faculty)),
          website: () => optional(() => `https://dept.edu/centers/${slot.n}/${random.int(0, 99)}`),
          established_year: () => optional(() => random.int(1900, 2026)),
          faculty: () => changedList((current.faculty as string[] | undefined) ?? [], faculty, true),
        }
      : {
          title: text, venue: () => optional(() => random.pick(venues)), year: () => optional(() => random.int(1990, 2026)),
          doi: () => optional(() => `10.5555/h${seed}.${slot.n}.${random.int(0, 9)}`), abstract: () => optional(text),
          citation_count: () => optional(() => random.int(0, 500)),
          authors: () => changedList((current.authors as string[] | undefined) ?? [], authorNames, false),
          dept_authors: () => changedList((current.dept_authors as string[] | undefined) ?? [], people, true),
        }
    const body: Body = {}
    for (const field of random.sample(Object.keys(fields), random.int(1, 4))) body[field] = fields[field]!()
    return body
  }

  const read = async (slot: Slot): Promise<State | null> => {
    if (!slot.id) return null
    const response = await admin({ method: 'GET', url: url(slot) })
    if (response.statusCode === 404) return null
    if (response.statusCode !== 200) throw new Error(`reading ${slot.id}: ${response.statusCode} ${response.body}`)
    return response.json()
  }

  const marks: Mark[] = []
  const problems: string[] = []
  const ops = { create: 0, recreate: 0, update: 0, unchanged: 0, delete: 0, restore: 0, 'restore unchanged': 0, 'trash restore': 0 }
  let writes = 0
  let lastMark = Date.now()
  const startedAt = new Date(lastMark).toISOString()

  while (writes < writesWanted) {
    await clockPast(lastMark)
    const slot = random.pick(slots)
    const before = slot.current
    const version = before ? before._version as number : Math.max(0, ...slot.versions.keys())
    let op: keyof typeof ops
    let expectedVersion = version + 1
    let restoredFrom: number | undefined
    /** What the record must say after the write, bookkeeping aside, where the write decides all of it. */
    let fieldsAfter: State | null | undefined
    let response
    if (!slot.id || (!before && slot.kind === 'center' && sometimes(0.5))) {
      // A first create, or a center made again under the id it was deleted from.
      op = slot.id ? 'recreate' : 'create'
      const body = createBody(slot)
      response = await admin({ method: 'POST', url: path(slot), payload: body })
      if (response.statusCode !== 201) throw new Error(`${op} ${slot.kind} ${slot.n}: ${response.statusCode} ${response.body}`)
      slot.id ??= response.json()._id
    } else if (!before) {
      op = 'trash restore'
      restoredFrom = slot.deletedAt! - 1
      fieldsAfter = without(slot.versions.get(restoredFrom)!, bookkeeping)
      response = await admin({ method: 'POST', url: `/api/admin/trash/${encodeURIComponent(slot.id)}/restore` })
      if (response.statusCode !== 201) throw new Error(`trash restore of ${slot.id}: ${response.statusCode} ${response.body}`)
      if (response.json().version !== expectedVersion) problems.push(`trash restore of ${slot.id} answered version ${response.json().version}, not ${expectedVersion}`)
    } else {
      const earlier = [...slot.versions].filter(([v, state]) => state && v !== version).map(([v]) => v)
      const roll = random.next()
      if (roll < 0.14) {
        op = 'delete'
        response = await admin({ method: 'DELETE', url: url(slot) })
        if (response.statusCode !== 200) throw new Error(`delete of ${slot.id}: ${response.statusCode} ${response.body}`)
        fieldsAfter = null
      } else if (roll < 0.34 && earlier.length) {
        op = 'restore'
        restoredFrom = random.pick(earlier)
        fieldsAfter = without(slot.versions.get(restoredFrom)!, bookkeeping)
        response = await admin({ method: 'POST', url: url(slot, '/restore'), headers: { 'if-match': `"${version}"` }, payload: { version: restoredFrom } })
        if (response.statusCode !== 200) throw new Error(`restore of ${slot.id} to ${restoredFrom}: ${response.statusCode} ${response.body}`)
        if (response.json()._version === version) op = 'restore unchanged'
      } else {
        op = 'update'
        const body = updateBody(slot)
        const conditional = sometimes(0.5)
        response = await admin({ method: 'PUT', url: url(slot), ...(conditional ? { headers: { 'if-match': `"${version}"` } } : {}), payload: body })
        if (response.statusCode !== 200) throw new Error(`update of ${slot.id} with ${JSON.stringify(body)}: ${response.statusCode} ${response.body}`)
        if (response.json()._version === version) op = 'unchanged'
        const expected: State = { ...without(before, bookkeeping) }
        for (const [field, value] of Object.entries(body)) {
          if (value === null) delete expected[field]
          else expected[field] = value
        }
        fieldsAfter = expected
      }
    }
    ops[op]++
    const unchanged = op === 'unchanged' || op === 'restore unchanged'
    const after = await read(slot)
    // Every record as it is now: the written one changed as the write says, the others not at all.
    for (const other of slots) {
      if (other === slot) continue
      const now = await read(other)
      if (!isDeepStrictEqual(now, other.current)) problems.push(`write ${writes} (${op} of ${slot.id}) changed ${other.id}`)
    }
    if (unchanged) {
      if (!isDeepStrictEqual(after, before)) problems.push(`${op} of ${slot.id} changed it: ${JSON.stringify(before)} -> ${JSON.stringify(after)}`)
      continue
    }
    writes++
    if (fieldsAfter === null ? after !== null : !after) problems.push(`after ${op} of ${slot.id}, it reads as ${JSON.stringify(after)}`)
    if (after && after._version !== expectedVersion) problems.push(`${op} of ${slot.id} made version ${String(after._version)}, not ${expectedVersion}`)
    if (after && fieldsAfter && !isDeepStrictEqual(without(after, bookkeeping), fieldsAfter)) {
      problems.push(`${op} of ${slot.id}: ${JSON.stringify(after)} is not ${JSON.stringify(fieldsAfter)}`)
    }
    slot.current = after
    slot.versions.set(expectedVersion, after)
    slot.expected.set(expectedVersion, {
      op: op === 'delete' ? 'delete' : op === 'create' || op === 'recreate' || op === 'trash restore' ? 'create' : 'update',
      ...(restoredFrom === undefined ? {} : { restoredFrom }),
    })
    if (op === 'delete') slot.deletedAt = expectedVersion
    else delete slot.deletedAt
    if (op === 'delete') slot.trashed.push(expectedVersion)
    if (op === 'trash restore') slot.trashed = []
    lastMark = Date.now()
    marks.push({ at: new Date(lastMark).toISOString(), states: new Map(slots.map((s) => [s, s.current])) })
  }
  t.comment(`${writes} writes: ${JSON.stringify(ops)}`)
  t.same(problems, [], 'each write did what it said, to its record alone')
  t.ok(slots.every((slot) => slot.id), 'every record was made')
  t.ok(ops.delete >= 10 && ops['trash restore'] >= 3 && ops.restore >= 10 && ops.recreate >= 1, 'every kind of write happened')

  /** The record as `as_of` answers it at `at` (null: 404). */
  const asOf = async (slot: Slot, at: string): Promise<State | null> => {
    const response = await admin({ method: 'GET', url: url(slot, `?as_of=${encodeURIComponent(at)}`) })
    if (response.statusCode === 404) return null
    if (response.statusCode !== 200) throw new Error(`as_of ${at} of ${slot.id}: ${response.statusCode} ${response.body}`)
    return response.json()
  }

  // as_of at every mark, for every record: exactly what was read then. FerretDB over SQLite reads the
  // whole revisions collection for any query but one by _id, so there the 6,000 reads take some twenty
  // minutes: the MongoDB pass reads every record at the first and the last mark only, and relies on the
  // edges below, which read every state at both ends of its time (HISTORY_EVERY_MARK=1 reads them all).
  const everyMark = !process.env.MONGODB_URL || process.env.HISTORY_EVERY_MARK === '1'
  const allMarks: Mark[] = [{ at: startedAt, states: new Map(slots.map((s) => [s, null])) }, ...marks]
  const asOfMisses: string[] = []
  let asOfChecks = 0
  for (const mark of everyMark ? allMarks : [allMarks[0]!, allMarks.at(-1)!]) {
    await Promise.all(slots.map(async (slot) => {
      const then = await asOf(slot, mark.at)
      asOfChecks++
      const expected = mark.states.get(slot) ?? null
      if (!isDeepStrictEqual(then, expected)) asOfMisses.push(`${slot.id} as of ${mark.at}: ${JSON.stringify(then)}, read then ${JSON.stringify(expected)}`)
    }))
  }
  t.same(asOfMisses.slice(0, 5), [], `as_of rebuilt each record at ${everyMark ? 'each' : '2'} of ${allMarks.length} times (${asOfChecks} reads; ${asOfMisses.length} differ)`)

  // The history: one entry per version, newest first, each saying what its write changed.
  const historyProblems: string[] = []
  let entries = 0
  for (const slot of slots) {
    const pageSize = random.int(3, 9)
    const items: Record<string, unknown>[] = []
    let total = -1
    for (let offset = 0; total < 0 || offset < total; offset += pageSize) {
      const response = await admin({ method: 'GET', url: url(slot, `/history?limit=${pageSize}&offset=${offset}`) })
      if (response.statusCode !== 200) throw new Error(`history of ${slot.id}: ${response.statusCode} ${response.body}`)
      const page = response.json()
      total = page.total
      items.push(...page.items)
      if (!page.items.length) break
    }
    const whole = (await admin({ method: 'GET', url: url(slot, '/history?limit=200') })).json()
    if (!isDeepStrictEqual(whole.items, items)) historyProblems.push(`${slot.id}: the history read in pages of ${pageSize} differs from it read whole`)
    const versions = [...slot.expected.keys()].sort((a, b) => b - a)
    if (!isDeepStrictEqual(items.map((item) => item.version), versions) || total !== versions.length) {
      historyProblems.push(`${slot.id}: history versions ${JSON.stringify(items.map((item) => item.version))} (total ${total}), written ${JSON.stringify(versions)}`)
      continue
    }
    // Oldest first, each entry's changes applied to the state before it make the state after it.
    let state: State = {}
    let previousAt = ''
    for (const item of [...items].reverse()) {
      entries++
      const version = item.version as number
      const expected = slot.expected.get(version)!
      const label = `${slot.id}@${version}`
      if (item.op !== expected.op || item.restored_from !== expected.restoredFrom) {
        historyProblems.push(`${label}: op ${String(item.op)} restored_from ${String(item.restored_from)}, written ${expected.op} ${String(expected.restoredFrom)}`)
      }
      const after = slot.versions.get(version) ?? null
      const at = item.at as string
      if (after && at !== after._updated_at) historyProblems.push(`${label}: at ${at}, the record says ${String(after._updated_at)}`)
      if (!(at > previousAt)) historyProblems.push(`${label}: at ${at} is not after the version before (${previousAt})`)
      previousAt = at
      if (expected.op === 'create' && Object.keys(state).length) historyProblems.push(`${label}: a create, but the record was ${JSON.stringify(state)}`)
      try {
        for (const change of item.changes as { path: string; before?: unknown; after?: unknown }[]) {
          if ('before' in change) {
            const was = jsonPatch.getValueByPointer(state, change.path)
            if (!isDeepStrictEqual(was, change.before)) historyProblems.push(`${label}: ${change.path} was ${JSON.stringify(was)}, the change says ${JSON.stringify(change.before)}`)
          }
          const operation: Operation = !('before' in change)
            ? { op: 'add', path: change.path, value: change.after }
            : !('after' in change) ? { op: 'remove', path: change.path } : { op: 'replace', path: change.path, value: change.after }
          state = jsonPatch.applyOperation(state, operation, true, true).newDocument
        }
      } catch (error) {
        historyProblems.push(`${label}: its changes do not apply: ${String(error)}`)
        break
      }
      const wanted = without(after, unlisted) ?? {}
      if (!isDeepStrictEqual(state, wanted)) historyProblems.push(`${label}: changes make ${JSON.stringify(state)}, the record was ${JSON.stringify(wanted)}`)
      state = structuredClone(wanted)
    }
  }
  t.same(historyProblems.slice(0, 5), [], `every history entry's changes lead from one state to the next (${entries} entries; ${historyProblems.length} problems)`)
  t.equal(entries, writes, 'one entry per write')

  // The edges: as_of at a write's own time is the record after it; a millisecond before, the record before it.
  const edgeMisses: string[] = []
  for (const slot of slots) {
    const history = (await admin({ method: 'GET', url: url(slot, '/history?limit=200') })).json().items as { version: number; at: string }[]
    await Promise.all(history.map(async ({ version, at }) => {
      const justBefore = new Date(new Date(at).getTime() - 1).toISOString()
      const [then, earlier] = await Promise.all([asOf(slot, at), asOf(slot, justBefore)])
      const previous = version > 1 ? slot.versions.get(version - 1) ?? null : null
      if (!isDeepStrictEqual(then, slot.versions.get(version) ?? null)) edgeMisses.push(`${slot.id} as of ${at} (version ${version}): ${JSON.stringify(then)}`)
      if (!isDeepStrictEqual(earlier, previous)) edgeMisses.push(`${slot.id} as of ${justBefore} (before version ${version}): ${JSON.stringify(earlier)}`)
    }))
  }
  t.same(edgeMisses.slice(0, 5), [], `as_of at each write's time and the millisecond before (${edgeMisses.length} differ)`)

  // The trash holds each deletion since its record was last restored from it, at the version deleted.
  const trash = (await admin({ method: 'GET', url: '/api/admin/trash?limit=200' })).json()
  const order = (a: { id: string; version: number }, b: { id: string; version: number }) => a.id.localeCompare(b.id) || a.version - b.version
  t.same(
    (trash.items as { id: string; version: number }[]).filter((item) => slots.some((s) => s.id === item.id)).map(({ id, version }) => ({ id, version })).sort(order),
    slots.flatMap((slot) => slot.trashed.map((deletion) => ({ id: slot.id!, version: deletion - 1 }))).sort(order),
    'the trash lists the deletions not restored since',
  )
})
