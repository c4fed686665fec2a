export interface CourseCode {
  /** Subject letters, upper case: "CS". */
  readonly subject: string
  /** The course number: 101. */
  readonly level: number
}

/** Reads "CS 101", "cs101" or "MATH 2400H"; undefined when the code has no subject and number. */
export function parseCourseCode(code: string): CourseCode | undefined {
  const match = /^\s*([A-Za-z]+)\s*(\d+)/.exec(code)
  return match ? { subject: match[1]!.toUpperCase(), level: Number(match[2]) } : undefined
}

/**
 * The one form course codes are compared in: letters and number with case and spacing ignored, so
 * "CS101", "cs 101" and "CS  101" are one course. Only for comparing; a record keeps its own spelling.
 */
export function courseCodeKey(code: string): string {
  return code.replace(/\s+/g, '').toUpperCase()
}
