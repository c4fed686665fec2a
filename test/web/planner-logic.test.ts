import t from 'tap'
import { boardTerms, compareTerms, defaultTarget, moveEntry, termPattern, termWarnings, warningsOn, type Entry } from '../../web/src/degrees/plan-board.js'
import { apiSort, sortOf } from '../../web/src/components/sort.js'

const entry = (key: number, course: string, term: string): Entry => ({ key, course, term, status: 'planned' })

t.test('terms go in time order, as the server orders them: W, S, U, F within a year', async (t) => {
  t.same(['26F', '25F', '26S', '26W', '26U', 'later'].sort(compareTerms), ['25F', '26W', '26S', '26U', '26F', 'later'])
  t.same(boardTerms([entry(1, 'a', '27S'), entry(2, 'b', '26F'), entry(3, 'c', '27S')], ['26S', '26F']), ['26S', '26F', '27S'], 'planned and added terms, once each')
  t.ok(termPattern.test('27S'))
  t.notOk(termPattern.test('27s'), 'the schema\'s pattern: upper-case season')
  t.notOk(termPattern.test('2027S'))
})

t.test('a move puts the card last in its new term and keeps its key; a move to its own term changes nothing', async (t) => {
  const entries = [entry(1, 'a', '26S'), entry(2, 'b', '26S'), entry(3, 'c', '26F')]
  t.same(moveEntry(entries, 1, '26F'), [entry(2, 'b', '26S'), entry(3, 'c', '26F'), entry(1, 'a', '26F')])
  t.same(moveEntry(entries, 1, '26S'), entries)
  t.same(moveEntry(entries, 9, '26F'), entries, 'an unknown card: nothing')
})

t.test('a card\'s "Move to" starts at the next term, else the one before', async (t) => {
  t.equal(defaultTarget(['26S', '26F', '27S'], '26F'), '27S')
  t.equal(defaultTarget(['26S', '26F', '27S'], '27S'), '26F')
  t.equal(defaultTarget(['26S'], '26S'), undefined, 'nowhere to go')
})

t.test('warnings: a course\'s on its card in its term only; a credit load on its term', async (t) => {
  const warnings = [
    { kind: 'duplicate' as const, course: 'a', term: '26F', message: 'twice' },
    { kind: 'credit_load' as const, term: '26F', credits: 21, message: 'heavy' },
  ]
  t.same(warningsOn(warnings, { course: 'a', term: '26F' }).map((w) => w.message), ['twice'])
  t.same(warningsOn(warnings, { course: 'a', term: '26S' }), [], 'not on the same course in another term')
  t.same(termWarnings(warnings, '26F').map((w) => w.message), ['heavy'])
})

t.test('a column\'s sort in the address becomes the API\'s sort; without one the route\'s default is named', async (t) => {
  const columns = [{ sort: { key: 'name', fields: 'last_name,first_name' } }, { sort: { key: 'email', fields: 'email' } }, {}]
  t.equal(apiSort('last_name,first_name', true), '-last_name,-first_name')
  t.same(sortOf('-name', columns), { key: 'name', descending: true, api: '-last_name,-first_name' })
  t.same(sortOf('email', columns), { key: 'email', descending: false, api: 'email' })
  t.same(sortOf('', columns, { key: 'name', descending: false }), { key: 'name', descending: false, api: undefined }, 'the default: no sort sent')
  t.same(sortOf('title', columns, { key: 'name', descending: false }), { key: 'name', descending: false, api: undefined }, 'a column the API does not sort: the default')
})
