import t from 'tap'
import { checkGroups, checkRule, type CatalogCourse } from '../../../src/domain/degrees/index.js'

const catalog: CatalogCourse[] = [
  { _id: 'Course/CS101', course_code: 'CS 101', credits: 4 },
  { _id: 'Course/CS201', course_code: 'CS 201', credits: 3 },
  { _id: 'Course/CS310', course_code: 'CS 310', credits: 3 },
  { _id: 'Course/CS350', course_code: 'CS 350', credits: 3 },
  { _id: 'Course/MATH240', course_code: 'MATH 240', credits: 4 },
]

t.test('sound rules have no problems', async (t) => {
  t.same(checkRule({ name: 'Intro', rule_type: 'all_of', courses: ['Course/CS101', 'Course/CS201'] }, catalog), [])
  t.same(checkRule({ name: 'Upper CS', rule_type: 'n_of', courses: ['Course/MATH240'], course_pattern: { subject: 'cs', min_level: 300, max_level: 499 }, count: 3, min_grade: 'C' }, catalog), [])
  t.same(checkRule({ name: 'CS credits', rule_type: 'credits', course_pattern: { subject: 'CS' }, min_credits: 13, min_grade: 'P' }, catalog), [])
})

t.test('unknown course ids are named with their position', async (t) => {
  t.same(checkRule({ name: 'Core', rule_type: 'all_of', courses: ['Course/CS101', 'Course/CS999'] }, catalog), [
    'Rule "Core": courses[1] refers to "Course/CS999", which is not a course in the catalog.',
  ])
})

t.test('a course listed twice is reported', async (t) => {
  t.same(checkRule({ name: 'Core', rule_type: 'all_of', courses: ['Course/CS101', 'Course/CS101'] }, catalog), [
    'Rule "Core": courses[1] lists "Course/CS101" a second time.',
  ])
})

t.test('n_of counts must be whole, at least 1 and reachable', async (t) => {
  const base = { name: 'Pick', rule_type: 'n_of', courses: ['Course/CS101', 'Course/CS201'] }
  t.same(checkRule({ ...base, count: -2 }, catalog), ['Rule "Pick": count must be a whole number of at least 1; got -2.'])
  t.same(checkRule({ ...base, count: 1.5 }, catalog), ['Rule "Pick": count must be a whole number of at least 1; got 1.5.'])
  t.same(checkRule(base, catalog), ['Rule "Pick": count is required for an n_of rule.'])
  t.same(checkRule({ ...base, count: 3 }, catalog), ['Rule "Pick": count is 3, but only 2 courses could ever count toward it.'])
  t.same(checkRule({ ...base, course_pattern: { subject: 'CS', min_level: 300 }, count: 4 }, catalog), [], 'the pattern adds CS 310 and CS 350')
})

t.test('lists that cannot count anything are refused', async (t) => {
  t.same(checkRule({ name: 'All', rule_type: 'all_of', courses: [] }, catalog), ['Rule "All": courses is empty; an all_of rule needs the courses it requires.'])
  t.same(checkRule({ name: 'Some', rule_type: 'n_of', count: 1 }, catalog), ['Rule "Some": courses is empty and there is no course_pattern, so no course can count.'])
  t.same(checkRule({ name: 'Cr', rule_type: 'credits', courses: [], min_credits: 3 }, catalog), ['Rule "Cr": courses is empty and there is no course_pattern, so no course can count.'])
})

t.test('all_of counts listed courses only, so a pattern on it is refused', async (t) => {
  t.same(checkRule({ name: 'All', rule_type: 'all_of', courses: ['Course/CS101'], course_pattern: { subject: 'CS' } }, catalog), [
    'Rule "All": course_pattern has no effect on an all_of rule, which counts listed courses only; use n_of or credits to count courses by pattern.',
  ])
})

t.test('credits rules need a positive, reachable min_credits', async (t) => {
  const base = { name: 'Credits', rule_type: 'credits', course_pattern: { subject: 'CS', min_level: 300 } }
  t.same(checkRule(base, catalog), ['Rule "Credits": min_credits is required for a credits rule.'])
  t.same(checkRule({ ...base, min_credits: 0 }, catalog), ['Rule "Credits": min_credits must be a positive number; got 0.'])
  t.same(checkRule({ ...base, min_credits: '6' }, catalog), ['Rule "Credits": min_credits must be a positive number; got "6".'])
  t.same(checkRule({ ...base, min_credits: 7 }, catalog), ['Rule "Credits": min_credits is 7, but the courses that could count carry only 6 credits.'])
})

t.test('a pattern that matches nothing, or is malformed, is named', async (t) => {
  t.same(checkRule({ name: 'Bio', rule_type: 'n_of', course_pattern: { subject: 'BIO', min_level: 100 }, count: 1 }, catalog), [
    'Rule "Bio": course_pattern (any BIO course numbered 100 or above) matches no course in the catalog.',
  ])
  t.same(checkRule({ name: 'Odd', rule_type: 'n_of', course_pattern: { subject: 'CS', min_level: 400, max_level: 300 }, count: 1 }, catalog), [
    'Rule "Odd": course_pattern asks for course numbers from 400 to 300, and 400 is above 300.',
  ])
  t.same(checkRule({ name: 'Odd', rule_type: 'n_of', course_pattern: { subject: 'C5', min_level: -1 }, count: 9 }, catalog), [
    'Rule "Odd": course_pattern.subject must be the 2 to 6 subject letters of a course code, e.g. "CS"; got "C5".',
    'Rule "Odd": course_pattern.min_level must be a whole number of 0 or more; got -1.',
  ], 'no capacity judgement is made on a broken pattern')
  t.same(checkRule({ name: 'Odd', rule_type: 'credits', course_pattern: 'CS', min_credits: 3 }, catalog), [
    'Rule "Odd": course_pattern must be an object {subject, min_level, max_level}.',
  ])
})

t.test('min_grade must be a letter grade or P', async (t) => {
  t.same(checkRule({ name: 'Core', rule_type: 'all_of', courses: ['Course/CS101'], min_grade: 'E' }, catalog), [
    'Rule "Core": min_grade must be a letter grade from A+ to D-, or P for any passing grade; got "E".',
  ])
  t.same(checkRule({ name: 'Core', rule_type: 'all_of', courses: ['Course/CS101'], min_grade: 'F' }, catalog).length, 1)
})

t.test('rule_type, name and courses shapes are checked; an unnamed rule is named by id', async (t) => {
  t.same(checkRule({ _id: 'RequirementRule/x', rule_type: 'some_of', courses: 'Course/CS101' }, catalog), [
    'Rule RequirementRule/x: name is required.',
    'Rule RequirementRule/x: rule_type must be all_of, n_of or credits; got "some_of".',
    'Rule RequirementRule/x: courses must be a list of course ids.',
  ])
})

t.test('groups report empty groups and every rule problem', async (t) => {
  t.same(checkGroups([
    { name: 'Core', rules: [{ name: 'Intro', rule_type: 'all_of', courses: ['Course/CS101'] }, { name: 'Pick', rule_type: 'n_of', courses: ['Course/CS101'], count: 0 }] },
    { name: 'Empty', rules: [] },
    { rules: [] },
  ], catalog), [
    'Rule "Pick": count must be a whole number of at least 1; got 0.',
    'Group "Empty" has no rules, so it can never be completed.',
    'Group 3 has no rules, so it can never be completed.',
  ])
})
