import t from 'tap'
import { fileURLToPath } from 'node:url'
import { referencesIn } from '../../src/records/references.js'
import { compileSchema } from '../../src/schema/index.js'
import { baseCounts, emailDomain, generateSampleDepartment, sectionTerms, type SampleRecord } from '../../scripts/sample/index.js'
import { degreeRules, satisfiesAll } from './requirements-check.js'

const schema = await compileSchema(fileURLToPath(new URL('../../schema', import.meta.url)))
const one = generateSampleDepartment(1)
const two = generateSampleDepartment(2)
const all = (d: typeof one) => d.stages.flat()
const people = (d: typeof one) => [...d.catalog.faculty, ...d.catalog.staff, ...d.catalog.undergraduates, ...d.catalog.graduates]

t.test('the same scale gives the same records; another scale gives others', async (t) => {
  t.equal(JSON.stringify(generateSampleDepartment(1).stages), JSON.stringify(one.stages))
  t.not(JSON.stringify(two.stages), JSON.stringify(one.stages))
  t.not(all(two).length, all(one).length)
})

t.test('counts are the base counts at scale 1 and double at scale 2', async (t) => {
  for (const [className, count] of Object.entries(baseCounts)) {
    t.equal(one.counts[className], count, `${className} at scale 1`)
    t.equal(two.counts[className], 2 * count, `${className} at scale 2`)
  }
  t.ok(one.counts.Enrollment! > 10 * baseCounts.UndergraduateStudent!, 'undergraduates have many enrollments')
  t.equal(two.counts.Enrollment, 2 * one.counts.Enrollment!)
  t.same(Object.keys(one.counts).sort(), [...Object.keys(baseCounts), 'Enrollment'].sort(), 'every class is generated')
  t.throws(() => generateSampleDepartment(0), /scale must be an integer/)
  t.throws(() => generateSampleDepartment(1.5), /scale must be an integer/)
})

t.test('ids are unique and every body passes the schema', async (t) => {
  for (const d of [one, two]) {
    const ids = all(d).map((r) => r.id)
    t.equal(new Set(ids).size, ids.length, `unique ids at scale ${d.scale}`)
  }
  const problems = all(one).map((r) => [r.id, schema.validators.problem(r.className, 'create', r.body)]).filter(([, p]) => p)
  t.same(problems, [])
})

t.test('every reference points at a generated record of an allowed class, written in an earlier stage', async (t) => {
  for (const d of [one, two]) {
    const stageOf = new Map(d.stages.flatMap((stage, i) => stage.map((r) => [r.id, i] as const)))
    const classOf = new Map(all(d).map((r) => [r.id, r.className]))
    const bad: string[] = []
    let checked = 0
    d.stages.forEach((stage, i) => {
      for (const record of stage) {
        const cls = schema.class(record.className)!
        for (const ref of referencesIn(schema, cls, record.body)) {
          checked++
          const prop = cls.properties.find((p) => p.name === ref.field.replace(/\[\d+\].*$/, ''))!
          const allowed = prop.target.kind === 'reference' ? schema.class(prop.target.name)!.concrete : []
          if (!allowed.includes(classOf.get(ref.id) ?? '') || stageOf.get(ref.id)! >= i) bad.push(`${record.id} ${ref.field} ${ref.id}`)
        }
      }
    })
    t.ok(checked > 12_000 * d.scale, `${checked} references checked at scale ${d.scale}`)
    t.same(bad, [])
  }
})

t.test('people have realistic names, unique campus ids and department emails', async (t) => {
  for (const d of [one, two]) {
    const list = people(d)
    const emails = list.map((p) => p.body.email as string)
    const netIds = list.map((p) => p.body.campus_id as string)
    t.equal(new Set(emails).size, list.length, 'emails unique')
    t.equal(new Set(netIds).size, list.length, 'campus ids unique')
    t.ok(emails.every((e, i) => e === `${netIds[i]}@${emailDomain}`))
    t.ok(netIds.every((id) => /^[a-z]{2,8}[0-9]*$/.test(id)), 'NetID style')
  }
  const names = people(one).map((p) => `${p.body.first_name as string} ${p.body.last_name as string}`)
  const accented = names.filter((n) => /[^\x20-\x7e]/.test(n))
  t.ok(accented.length > names.length / 10, `${accented.length} of ${names.length} names have accented letters`)
  t.ok(names.some((n) => /Nguyễn|Müller|Søren|Zoë|José/.test(n)))
})

t.test('prerequisites are acyclic and always lower-numbered', async (t) => {
  const prereqs = new Map(one.catalog.courses.map((c) => [c.id, c.body.prerequisites as string[]]))
  const number = (id: string) => Number(/(\d+)$/.exec(id)![1])
  const state = new Map<string, 'visiting' | 'done'>()
  const cyclic = (id: string): boolean => {
    if (state.get(id) === 'done') return false
    if (state.get(id) === 'visiting') return true
    state.set(id, 'visiting')
    const found = prereqs.get(id)!.some(cyclic)
    state.set(id, 'done')
    return found
  }
  t.notOk([...prereqs.keys()].some(cyclic))
  t.ok([...prereqs].every(([id, list]) => list.every((p) => number(p) < number(id))))
  t.ok([...prereqs.values()].filter((l) => l.length).length > 50, 'most courses have prerequisites')
})

t.test('sections cover four terms, taught by faculty, with room for their rosters', async (t) => {
  const terms = new Map<string, number>()
  for (const { body } of one.catalog.sections) terms.set(body.term as string, (terms.get(body.term as string) ?? 0) + 1)
  t.same([...terms.keys()], [...sectionTerms])
  t.ok([...terms.values()].every((n) => n === 50))
  t.ok(one.catalog.sections.every((s) => (s.body.instructors as string[]).length >= 1 && (s.body.instructors as string[]).every((i) => i.startsWith('Faculty/'))))
  const rosters = new Map<string, number>()
  for (const { body } of one.enrollments) if (body.section) rosters.set(body.section as string, (rosters.get(body.section as string) ?? 0) + 1)
  t.ok(one.catalog.sections.every((s) => (rosters.get(s.id) ?? 0) <= (s.body.enrollment_cap as number)))
})

t.test('requirements use every rule type and option, and every degree can be completed', async (t) => {
  const rules = one.catalog.requirementRules.map((r) => r.body)
  t.same([...new Set(rules.map((r) => r.rule_type))].sort(), ['all_of', 'credits', 'n_of'])
  t.ok(rules.some((r) => r.rule_type === 'n_of' && (r.count as number) > 1))
  t.ok(rules.some((r) => r.rule_type === 'credits' && r.course_pattern && !(r.courses as string[]).length), 'credits from a pattern')
  t.ok(rules.some((r) => r.rule_type === 'credits' && !r.course_pattern && (r.courses as string[]).length), 'credits from listed courses')
  t.ok(rules.some((r) => r.rule_type === 'credits' && r.course_pattern && (r.courses as string[]).length), 'credits from both')
  t.ok(rules.some((r) => r.min_grade) && rules.some((r) => !r.min_grade))
  t.ok(rules.some((r) => r.allow_shared === true))
  t.same(one.catalog.degrees.map((d) => d.body.degree_type).sort(), ['BA', 'BS', 'Minor', 'PhD'])
  const codeOf = new Map(two.catalog.courses.map((c) => [c.id, c.body.course_code as string]))
  for (const degree of two.catalog.degrees) {
    const groups = two.catalog.requirementGroups.filter((g) => g.body.degree === degree.id).map((g) => g.body.order)
    t.same(groups, groups.map((_, i) => i + 1), `${degree.id} groups are ordered`)
    const everything = two.catalog.courses.map((c) => ({ course: c.id, credits: c.body.credits as number, grade: 'A' }))
    t.ok(satisfiesAll(degreeRules(two.catalog, degree.id), everything, (id) => codeOf.get(id)!), `${degree.id} is satisfiable`)
    t.notOk(satisfiesAll(degreeRules(two.catalog, degree.id), everything.slice(0, 5), (id) => codeOf.get(id)!), `${degree.id} needs more than five courses`)
  }
})

t.test('students have advisors, majors or a program, and committees', async (t) => {
  const bachelors = new Set(one.catalog.degrees.filter((d) => ['BS', 'BA'].includes(d.body.degree_type as string)).map((d) => d.id))
  for (const s of one.catalog.undergraduates) {
    const majors = s.body.declared_majors as string[]
    if (!majors.length || !bachelors.has(majors[0]!) || !(s.body.advisors as string[]).length) t.fail(`${s.id} lacks a major or an advisor`)
  }
  const program = one.catalog.programs[0]!
  t.equal(program.body.degree, one.catalog.degrees.find((d) => d.body.degree_type === 'PhD')!.id)
  for (const s of one.catalog.graduates) {
    const advisors = s.body.advisors as string[]
    const committee = s.body.committee as string[]
    if (s.body.program !== program.id || !advisors.length || committee.length < 3 || !advisors.every((a) => committee.includes(a))) {
      t.fail(`${s.id} lacks a program, advisors or a committee`)
    }
  }
  t.ok(one.catalog.undergraduates.some((s) => (s.body.declared_minors as string[]).length))
  t.same([...new Set(one.catalog.graduates.map((s) => s.body.year_in_program))].sort(), [1, 2, 3, 4, 5, 6])
})

t.test('publications link faculty, name them among the authors, and carry plausible metadata', async (t) => {
  const byId = new Map<string, SampleRecord>(people(two).map((p) => [p.id, p]))
  const dois = two.catalog.publications.map((p) => p.body.doi).filter((d): d is string => typeof d === 'string')
  t.equal(new Set(dois).size, dois.length, 'DOIs unique')
  t.ok(dois.length > two.catalog.publications.length / 2 && dois.length < two.catalog.publications.length)
  t.ok(dois.every((d) => /^10\.[0-9]{4,9}\/\S+$/.test(d)))
  for (const { id, body } of two.catalog.publications) {
    const authors = body.authors as string[]
    const dept = (body.dept_authors as string[]).map((a) => byId.get(a)!)
    const ok = dept.some((p) => p.className === 'Faculty')
      && dept.every((p) => authors.includes(`${p.body.first_name as string} ${p.body.last_name as string}`))
      && Number.isInteger(body.citation_count) && (body.citation_count as number) >= 0
      && (body.year as number) >= 2000 && (body.year as number) <= 2025 && typeof body.venue === 'string'
    if (!ok) t.fail(`${id} is implausible`)
  }
  t.ok(two.catalog.publications.some((p) => (p.body.dept_authors as string[]).some((a) => a.startsWith('GraduateStudent/'))))
})
