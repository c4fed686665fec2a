import t from 'tap'
import type { OpenAlexWork } from '../../../src/domain/publications/openalex-types.js'
import { citationUpdates } from '../../../src/domain/publications/citations.js'
import { PublicationIndex } from '../../../src/domain/publications/dedupe.js'
import { deptAuthors, publicationFromWork } from '../../../src/domain/publications/from-openalex.js'
import { planImport } from '../../../src/domain/publications/merge.js'
import { normalizeDoi, normalizeTitle } from '../../../src/domain/publications/normalize.js'
import type { DepartmentAuthor, PublicationFields, Rejections, StoredPublication } from '../../../src/domain/publications/types.js'

const fetchedAt = '2026-11-25T12:00:00.000Z'
const none: Rejections = { workIds: new Set(), dois: new Set() }
const people: DepartmentAuthor[] = [
  { _id: 'ada', openalex_id: 'A1' },
  { _id: 'bo', orcid: '0000-0002-1825-0097' },
  { _id: 'cy' },
]

function work(n: number, extra: Partial<OpenAlexWork> = {}): OpenAlexWork {
  return {
    id: `https://openalex.org/W${n}`,
    doi: `https://doi.org/10.1145/${n}.ABC`,
    title: `Work number ${n}`,
    publication_year: 2024,
    cited_by_count: n,
    authorships: [
      { author: { id: 'https://openalex.org/A1', display_name: 'Ada Lovelace' } },
      { author: { id: 'https://openalex.org/A9', display_name: 'Outside Author', orcid: 'https://orcid.org/0000-0002-1825-0097' } },
      { author: { id: null, display_name: null }, raw_author_name: 'C. Yu' },
    ],
    primary_location: { landing_page_url: `https://dl.example.org/${n}`, source: { display_name: 'CHI' } },
    abstract_inverted_index: { Graphs: [0], are: [1, 4], everywhere: [2], and: [3], fun: [5] },
    ...extra,
  }
}

const publication = (n: number, extra: Partial<OpenAlexWork> = {}): PublicationFields => publicationFromWork(work(n, extra), people, fetchedAt)!

t.test('DOIs compare without case or resolver prefix; titles without case, accents, punctuation or spacing', async (t) => {
  t.equal(normalizeDoi('https://doi.org/10.1145/3290605.3300233'), '10.1145/3290605.3300233')
  t.equal(normalizeDoi('HTTP://DX.DOI.ORG/10.1145/ABC'), '10.1145/abc')
  t.equal(normalizeDoi('doi: 10.1000/XyZ '), '10.1000/xyz')
  t.equal(normalizeDoi('not a doi'), undefined)
  t.equal(normalizeDoi(null), undefined)
  t.equal(normalizeTitle('  Über-Fast   Graphs: A Study!  '), normalizeTitle('uber fast graphs a study'))
})

t.test('an OpenAlex work maps to Publication fields with its source and department authors', async (t) => {
  t.same(publication(7), {
    title: 'Work number 7',
    authors: ['Ada Lovelace', 'Outside Author', 'C. Yu'],
    venue: 'CHI',
    year: 2024,
    doi: '10.1145/7.abc',
    citation_count: 7,
    dept_authors: ['ada', 'bo'],
    abstract: 'Graphs are everywhere and are fun',
    url: 'https://dl.example.org/7',
    source_id: 'W7',
    source: { system: 'openalex', id: 'W7', fetched_at: fetchedAt },
  })
  t.equal(publicationFromWork(work(8, { title: null, display_name: ' ' }), people, fetchedAt), undefined, 'no title, no publication')
  t.same(deptAuthors(work(9, { authorships: [] }), people), [])
})

t.test('de-duplication: DOI in another case, then work id, then title and year', async (t) => {
  const stored: StoredPublication[] = [
    { _id: 'p1', title: 'Something else', authors: [], dept_authors: [], doi: '10.1145/7.abc' },
    { _id: 'p2', title: 'Other', authors: [], dept_authors: [], source_id: 'W8' },
    { _id: 'p3', title: 'Über-Fast Graphs: A Study', year: 2024, authors: [], dept_authors: [] },
    { _id: 'p4', title: 'Same title, other paper', year: 2024, authors: [], dept_authors: [], doi: '10.1/x' },
  ]
  const index = new PublicationIndex(stored)
  t.equal(index.find(publication(7, { doi: 'HTTPS://DOI.ORG/10.1145/7.ABC' }))?._id, 'p1')
  t.equal(index.find(publication(8, { doi: null }))?._id, 'p2')
  t.equal(index.find(publication(99, { doi: null, title: 'uber fast graphs -- a study' }))?._id, 'p3')
  t.equal(index.find(publication(99, { doi: null, title: 'Uber fast graphs: a study', publication_year: 2023 })), undefined, 'another year is another paper')
  t.equal(index.find(publication(98, { title: 'Same title, other paper' })), undefined, 'different DOIs are different works')
})

t.test('an import creates new works, updates changed ones and keeps what a person edited', async (t) => {
  const stored: StoredPublication[] = [
    { ...publication(1), _id: 'p1', title: 'My Own Better Title', citation_count: 0, edited_fields: ['title'], dept_authors: ['cy'] },
    { ...publication(2), _id: 'p2' },
  ]
  const plan = planImport(stored, [publication(1), publication(2), publication(3)], none)
  t.same(plan.create.map((p) => p.source_id), ['W3'])
  t.equal(plan.unchanged, 1)
  t.same(plan.update, [{ _id: 'p1', set: { citation_count: 1, dept_authors: ['cy', 'ada', 'bo'], source: { system: 'openalex', id: 'W1', fetched_at: fetchedAt } } }],
    'the edited title is kept; a hand-linked author stays')
})

t.test('rejected works are not imported again, by work id or by DOI', async (t) => {
  const plan = planImport([], [publication(1), publication(2), publication(3)], { workIds: new Set(['W1']), dois: new Set(['10.1145/2.abc']) })
  t.same(plan.create.map((p) => p.source_id), ['W3'])
  t.equal(plan.rejected, 2)
})

t.test('the same work from two authors in one run is created once with both linked', async (t) => {
  const fromAda = publicationFromWork(work(5), [people[0]!], fetchedAt)!
  const fromBo = publicationFromWork(work(5, { doi: '10.1145/5.abc' }), [people[1]!], fetchedAt)!
  const plan = planImport([], [fromAda, fromBo], none)
  t.equal(plan.create.length, 1)
  t.same(plan.create[0]!.dept_authors, ['ada', 'bo'])
  t.same(fromAda.dept_authors, ['ada'], "the caller's object is left as it was")
})

t.test('a citation refresh sets counts and the refresh time, except where the count was edited', async (t) => {
  const stored: StoredPublication[] = [
    { _id: 'p1', title: 'a', authors: [], dept_authors: [], source_id: 'W1', citation_count: 3 },
    { _id: 'p2', title: 'b', authors: [], dept_authors: [], source_id: 'W2', edited_fields: ['citation_count'] },
    { _id: 'p3', title: 'c', authors: [], dept_authors: [] },
  ]
  t.same(citationUpdates(stored, [{ id: 'https://openalex.org/W1', cited_by_count: 10 }, { id: 'W2', cited_by_count: 4 }], fetchedAt), [
    { _id: 'p1', set: { citation_count: 10, citations_updated_at: fetchedAt } },
    { _id: 'p2', set: { citations_updated_at: fetchedAt } },
  ])
})
