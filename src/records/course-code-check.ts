import { courseCodeKey, parseCourseCode } from '../domain/course-code.js'
import { DuplicateRecord } from '../errors.js'
import type { CompiledSchema } from '../schema/index.js'
import type { RecordService } from './service.js'

/**
 * Course codes are one in their normal form ("CS101", "cs 101" and "CS  101" are one course), so a write
 * that would give a second course the code of another in another spelling is refused with 409, as the
 * unique index refuses the same spelling. Candidates are found by subject and number (`_subject`,
 * `_level`, indexed), then compared in full.
 */
export function installCourseCodeCheck(records: RecordService, schema: CompiledSchema): void {
  const course = schema.class('Course')
  if (!course) return
  records.addCheck(course.name, async (record, { id }) => {
    const code = typeof record.course_code === 'string' ? record.course_code : undefined
    const parsed = code === undefined ? undefined : parseCourseCode(code)
    if (code === undefined || !parsed) return
    const same = await records.find(course, { _subject: parsed.subject, _level: parsed.level })
    const other = same.find((c) => c._id !== id && typeof c.course_code === 'string' && courseCodeKey(c.course_code) === courseCodeKey(code))
    if (other) throw new DuplicateRecord(`another Course already has this course_code in another spelling (${String(other.course_code)}, ${other._id})`)
  })
}
