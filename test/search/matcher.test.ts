import fc from 'fast-check'
import t from 'tap'
import { withinOneEdit } from '../../src/domain/search/distance.js'
import { prefixQuality, toleratesTypo, typoQuality, weights } from '../../src/domain/search/quality.js'
import { fold, words } from '../../src/domain/text.js'
import { SearchIndex, type SearchDocument } from '../../src/domain/search/search-index.js'

function person(id: string, name: string, extra = ''): SearchDocument {
  return {
    kind: 'person', id, type: 'Faculty', label: name, detail: '',
    fields: [{ text: name, weight: weights.primary }, { text: extra, weight: weights.secondary }],
  }
}

const people = [
  person('p1', 'José Núñez'),
  person('p2', 'Anna Müller'),
  person('p3', 'Ada Lovelace', 'ada@dept.edu'),
  person('p4', 'Ada Byron'),
  person('p5', 'Mark Twain'),
  person('p6', 'Grace Hopper'),
]

const labels = (index: SearchIndex, query: string, limit = 50) => index.search(query, { limit }).hits.map((h) => h.entry.label)

/** Optimal string alignment distance, computed in full, to check the fast bounded test against. */
function osaDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)))
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, d[i - 2]![j - 2]! + 1)
      d[i]![j] = best
    }
  }
  return d[a.length]![b.length]!
}

t.test('one edit: a letter added, dropped, changed, or two neighbours swapped', async (t) => {
  t.ok(withinOneEdit('lovelace', 'lovelace'))
  t.ok(withinOneEdit('lovelce', 'lovelace'), 'dropped')
  t.ok(withinOneEdit('lovelaace', 'lovelace'), 'added')
  t.ok(withinOneEdit('lovelqce', 'lovelace'), 'changed')
  t.ok(withinOneEdit('lovleace', 'lovelace'), 'swapped')
  t.notOk(withinOneEdit('lvoleace', 'lovelace'), 'two swaps')
  t.notOk(withinOneEdit('lovelxxe', 'lovelace'), 'two changes')
  t.ok(withinOneEdit('algoritm', 'algorithms', 8), 'against a prefix of the word')
  t.notOk(withinOneEdit('algoritm', 'algorithms'), 'but not the whole, two letters longer')
})

t.test('the bounded check agrees with the full distance on any pair of short words', async () => {
  const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 7 })
  fc.assert(fc.property(word, word, (a, b) => withinOneEdit(a, b) === (osaDistance(a, b) <= 1)))
  fc.assert(fc.property(word, word, fc.nat(8), (a, b, n) => withinOneEdit(a, b, n) === (osaDistance(a, b.slice(0, n)) <= 1)))
})

t.test('matching ignores case and accents, on either side', async (t) => {
  const index = SearchIndex.of(people)
  t.same(labels(index, 'jose'), ['José Núñez'])
  t.same(labels(index, 'NUNEZ'), ['José Núñez'])
  t.same(labels(index, 'muller'), ['Anna Müller'])
  t.same(labels(index, 'Müller'), ['Anna Müller'])
  t.same(labels(index, 'MÜLL'), ['Anna Müller'])
  t.same(labels(SearchIndex.of([person('s', 'Søren Łukasiewicz')]), 'soren lukas'), ['Søren Łukasiewicz'], 'letters that do not decompose')
})

t.test('words match by prefix, and every query word must match', async (t) => {
  const index = SearchIndex.of(people)
  t.same(labels(index, 'lov'), ['Ada Lovelace'])
  t.same(labels(index, 'ada'), ['Ada Byron', 'Ada Lovelace'])
  t.same(labels(index, 'ada lo'), ['Ada Lovelace'])
  t.same(labels(index, 'lo ada'), ['Ada Lovelace'], 'in any order')
  t.same(labels(index, 'ada hopper'), [], 'all words, not any')
  t.same(labels(index, 'velace'), [], 'a prefix, not any part of a word')
})

t.test('one typo is tolerated in query words of five letters or more', async (t) => {
  const index = SearchIndex.of(people)
  for (const typo of ['lovelce', 'lovelaace', 'lovelqce', 'lovleace', 'hoppr', 'hpoper']) t.same(labels(index, typo), typo.startsWith('h') ? ['Grace Hopper'] : ['Ada Lovelace'], typo)
  t.same(labels(index, 'lovel grace'), [], 'each word still has to match')
  t.same(labels(index, 'lvoelqce'), [], 'two typos are too many')
  t.same(labels(index, 'lovelqc'), ['Ada Lovelace'], 'a typo in a word still being typed')
  for (const short of ['josr', 'jsoe', 'mrak', 'marc', 'twian']) {
    t.same(labels(index, short), short === 'twian' ? ['Mark Twain'] : [], `${short}: only words of five letters or more`)
  }
  const numbers = SearchIndex.of([person('c1', 'Course 10110')])
  t.same(labels(numbers, '10111'), [], 'numbers are exact or prefixes, never typos')
  t.same(labels(numbers, '1011'), ['Course 10110'])
  const codes = SearchIndex.of([person('c1', 'CS101 Intro'), person('c2', 'CS201 Data')])
  t.same(labels(codes, 'cs101'), ['CS101 Intro'], 'digits do not count toward the five letters')
})

t.test('an exact word ranks above a prefix, a prefix above a typo; names above descriptions', async (t) => {
  const index = SearchIndex.of([
    person('a', 'Grape Ward'),
    person('b', 'Graphics Lab'),
    person('c', 'Graph Group'),
    person('d', 'Zed Zane', 'graph theory'),
    person('e', 'Graphical Models'),
  ])
  const hits = index.search('graph', { limit: 10 }).hits
  t.same(hits.map((h) => h.entry.label), ['Graph Group', 'Graphics Lab', 'Graphical Models', 'Zed Zane', 'Grape Ward'])
  const scores = hits.map((h) => h.score)
  t.same([...scores].sort((a, b) => b - a), scores, 'in falling score order')
  t.equal(scores[0], 1)
  t.ok(scores.every((s) => s > 0 && s <= 1))
})

t.test('ties break by label, then id, whatever order the documents came in', async (t) => {
  const docs = [person('z', 'Sam Lee'), person('a', 'Sam Lee'), person('m', 'Sam Abbott'), person('b', 'Samuel Lee')]
  const forward = SearchIndex.of(docs).search('sam', { limit: 10 }).hits.map((h) => h.entry.id)
  const backward = SearchIndex.of([...docs].reverse()).search('sam', { limit: 10 }).hits.map((h) => h.entry.id)
  t.same(forward, ['m', 'a', 'z', 'b'])
  t.same(backward, forward)
})

t.test('limit keeps the best hits; total counts every accepted match', async (t) => {
  const docs = Array.from({ length: 30 }, (_, i) => person(`p${String(i).padStart(2, '0')}`, `Robin ${String.fromCharCode(97 + (i % 26))}${i}`))
  const index = SearchIndex.of(docs)
  const all = index.search('robin', { limit: 50 })
  const some = index.search('robin', { limit: 5 })
  t.equal(all.total, 30)
  t.equal(some.total, 30)
  t.same(some.hits, all.hits.slice(0, 5))
  const even = index.search('robin', { limit: 5, accept: (e) => Number(e.id.slice(1)) % 2 === 0 })
  t.equal(even.total, 15, 'what the caller may not see is not counted')
  t.ok(even.hits.every((h) => Number(h.entry.id.slice(1)) % 2 === 0))
})

t.test('queries with no words, or pattern characters, are plain text', async (t) => {
  const index = SearchIndex.of([...people, person('x', 'Regex (a+)+ Person')])
  t.same(labels(index, '.*'), [])
  t.same(labels(index, '{"$ne":1}'), [])
  t.same(labels(index, '(a+)+$'), ['Regex (a+)+ Person', 'Ada Byron', 'Ada Lovelace', 'Anna Müller'], 'the word "a", exactly first')
  t.same(labels(index, '!!'), [])
})

t.test('incremental changes leave the index as a fresh build would', async (t) => {
  const names = ['Ann Lee', 'Anne Leigh', 'Lee Ann', 'Bo Andersen', 'Annika Berg', 'Leon Bergman']
  const queries = ['an', 'lee', 'leigh', 'berg', 'andersn', 'annik', 'bo an']
  fc.assert(fc.property(fc.array(fc.tuple(fc.nat(7), fc.option(fc.nat(names.length - 1))), { maxLength: 40 }), (steps) => {
    const index = new SearchIndex()
    const current = new Map<string, SearchDocument>()
    for (const [slot, name] of steps) {
      const id = `p${slot}`
      if (name === null) {
        index.remove(id)
        current.delete(id)
      } else {
        const doc = person(id, names[name]!)
        index.put(doc)
        current.set(id, doc)
      }
    }
    const fresh = SearchIndex.of(current.values())
    t.equal(index.size, fresh.size)
    t.equal(index.vocabularySize, fresh.vocabularySize)
    for (const q of queries) t.same(index.search(q, { limit: 10 }), fresh.search(q, { limit: 10 }), q)
  }), { numRuns: 50 })
})

t.test('narrowing by the rarest word, and matching among few candidates, ranks as scoring every document would', async (t) => {
  /** Every document scored against every query word directly: the definition the index must keep to. */
  function reference(docs: readonly SearchDocument[], query: string, limit: number) {
    const queryWords = [...new Set(words(query))].sort((a, b) => b.length - a.length)
    const hits = []
    for (const doc of docs) {
      let sum = 0
      let all = queryWords.length > 0
      for (const q of queryWords) {
        let best = 0
        for (const field of doc.fields) {
          for (const w of words(field.text)) {
            const quality = w.startsWith(q) ? prefixQuality(q, w) : toleratesTypo(q) && w.length >= q.length - 1 ? typoQuality(q, w) : 0
            best = Math.max(best, quality * field.weight)
          }
        }
        if (!best) all = false
        sum += best
      }
      if (all) hits.push({ id: doc.id, sortKey: fold(doc.label), score: Math.round((sum / queryWords.length) * 1000) / 1000 })
    }
    hits.sort((a, b) => b.score - a.score || (a.sortKey < b.sortKey ? -1 : a.sortKey > b.sortKey ? 1 : 0) || (a.id < b.id ? -1 : 1))
    return { total: hits.length, hits: hits.slice(0, limit).map(({ id, score }) => ({ id, score })) }
  }
  const names = ['garcia', 'gracia', 'muller', 'intro', 'into', 'quantum', 'quant', 'crypto', 'ada', 'lee', 'leigh', 'robotics']
  const codeOf = (n: number) => `cs${100 + (n % 40)}`
  const doc = fc.record({ name: fc.constantFrom(...names), other: fc.constantFrom(...names), code: fc.nat(200), extra: fc.nat(9) })
  const query = fc.array(fc.constantFrom('cs', 'cs1', '3', '1', 'garcia', 'gracia', 'intr', 'intro', 'quant', 'crypt', 'robtoics', 'le', 'a', 'mulle',
    // a typo on the first letter or two: a letter changed, dropped, added, or the two swapped
    'xuller', 'arcia', 'ugarcia', 'agrcia', 'rcypto'), { minLength: 1, maxLength: 3 })
  fc.assert(fc.property(fc.array(doc, { minLength: 1, maxLength: 120 }), query, (raw, queryWords) => {
    // Many documents share "cs1..." codes and few hold a given digit: the later words meet few candidates.
    const docs = raw.map((d, i) => person(`d${i}`, `${d.name} ${d.other}`, `${codeOf(d.code)} ${d.extra === 3 ? `3${i}` : ''} ${codeOf(d.code + 7)}`))
    const index = SearchIndex.of(docs)
    const q = queryWords.join(' ')
    const found = index.search(q, { limit: 10 })
    t.same({ total: found.total, hits: found.hits.map((h) => ({ id: h.entry.id, score: h.score })) }, reference(docs, q, 10), q)
  }), { numRuns: 200 })
})
