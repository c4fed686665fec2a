import t from 'tap'
import { buildTestApp } from '../helpers/app.js'
import { snapshot } from '../helpers/records.js'
import { refused } from '../helpers/refusals.js'

const { app, as } = await buildTestApp(t)
const admin = as('admin@dept.edu', 'admin')
const post = async (url: string, payload: object) => {
  const res = await admin({ method: 'POST', url, payload })
  if (res.statusCode !== 201) throw new Error(`POST ${url}: ${res.statusCode} ${res.body}`)
  return res.json()._id as string
}
const cs101 = await post('/api/courses', { course_code: 'CS 101', title: 'Programming', credits: 4 })
const cs201 = await post('/api/courses', { course_code: 'CS 201', title: 'Data Structures', credits: 3 })
const cs310 = await post('/api/courses', { course_code: 'CS 310', title: 'Theory', credits: 3 })
const degree = await post('/api/degrees', { name: 'Computer Science', degree_type: 'BS' })
const core = await post('/api/requirement-rules', { name: 'Core', rule_type: 'all_of', courses: [cs101, cs201] })

t.test('a rule that could never be met, or would be misread, is refused naming the problem', async (t) => {
  const bad: [string, object, RegExp][] = [
    ['an empty all_of', { name: 'Empty', rule_type: 'all_of', courses: [] }, /Rule "Empty": courses is empty/],
    ['an n_of without a count', { name: 'Pick', rule_type: 'n_of', courses: [cs101] }, /Rule "Pick": count is required/],
    ['a count above the list', { name: 'Pick', rule_type: 'n_of', courses: [cs101, cs201], count: 3 }, /count is 3, but only 2 courses could ever count/],
    ['a pattern matching no course', { name: 'Bio', rule_type: 'n_of', course_pattern: { subject: 'BIO' }, count: 1 }, /course_pattern \(.*BIO.*\) matches no course/],
    ['a pattern on an all_of', { name: 'All', rule_type: 'all_of', courses: [cs101], course_pattern: { subject: 'CS' } }, /course_pattern has no effect on an all_of rule/],
    ['min_level above max_level', { name: 'Up', rule_type: 'n_of', course_pattern: { subject: 'CS', min_level: 400, max_level: 300 }, count: 1 }, /400 is above 300/],
    ['credits no course list can reach', { name: 'Cr', rule_type: 'credits', courses: [cs101, cs201], min_credits: 8 }, /min_credits is 8, but the courses that could count carry only 7 credits/],
    ['a credits rule with nothing to count', { name: 'Cr', rule_type: 'credits', min_credits: 3 }, /no course can count/],
  ]
  for (const [label, body, mention] of bad) {
    const before = await snapshot(app)
    refused(t, await admin({ method: 'POST', url: '/api/requirement-rules', payload: body }), 400, mention, label)
    t.same(await snapshot(app), before, `${label}: nothing written`)
  }
  // Refused by the schema before the catalog check: what the schema already says is not said twice.
  refused(t, await admin({ method: 'POST', url: '/api/requirement-rules', payload: { name: 'Neg', rule_type: 'n_of', courses: [cs101], count: -1 } }), 400, /count/, 'a negative count')
  refused(t, await admin({ method: 'POST', url: '/api/requirement-rules', payload: { name: 'X', rule_type: 'all_of', courses: ['Course/CS-999'] } }), 400, /Course\/CS-999/, 'an unknown course')

  const good = await admin({ method: 'POST', url: '/api/requirement-rules', payload: { name: 'Upper', rule_type: 'n_of', course_pattern: { subject: 'cs', min_level: 300 }, count: 1 } })
  t.equal(good.statusCode, 201, 'a sound pattern rule is accepted')
})

t.test('an update is checked as the rule it would leave behind', async (t) => {
  const pick = await post('/api/requirement-rules', { name: 'Pick', rule_type: 'n_of', courses: [cs101, cs201, cs310], count: 2 })
  refused(t, await admin({ method: 'PUT', url: `/api/requirement-rules/${encodeURIComponent(pick)}`, payload: { count: null } }), 400, /Rule "Pick": count is required/, 'removing the count')
  refused(t, await admin({ method: 'PUT', url: `/api/requirement-rules/${encodeURIComponent(pick)}`, payload: { courses: [cs101] } }), 400, /count is 2, but only 1 course could ever count/, 'shrinking the list under the count')
  refused(t, await admin({ method: 'PUT', url: `/api/requirement-rules/${encodeURIComponent(pick)}`, payload: { rule_type: 'credits' } }), 400, /min_credits is required/, 'changing the type without what it needs')
  const fine = await admin({ method: 'PUT', url: `/api/requirement-rules/${encodeURIComponent(pick)}`, payload: { count: 3 } })
  t.equal(fine.statusCode, 200)
  t.equal(fine.json()._version, 2, 'only the sound update was written')
})

t.test('a group must hold rules, and its rules are checked again', async (t) => {
  refused(t, await admin({ method: 'POST', url: '/api/requirement-groups', payload: { name: 'Nothing', degree, rules: [] } }), 400, /Group "Nothing" has no rules/, 'a group without rules')
  const group = await post('/api/requirement-groups', { name: 'Core courses', degree, order: 1, rules: [core] })
  refused(t, await admin({ method: 'PUT', url: `/api/requirement-groups/${encodeURIComponent(group)}`, payload: { rules: [] } }), 400, /has no rules/, 'emptying a group')
  refused(t, await admin({ method: 'POST', url: '/api/requirement-groups', payload: { name: 'G', degree, rules: ['RequirementRule/missing'] } }), 400, /RequirementRule\/missing/, 'an unknown rule')
})
