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
