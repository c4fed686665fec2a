import { CronExpressionParser } from 'cron-parser'
import { BadScheduleError, type ScheduleSpec } from './port.js'

/** Scheduler ids become part of job ids and URL paths. */
export const schedulerIdPattern = '^[A-Za-z0-9_.-]{1,64}$'
/** BullMQ caps nothing; a recurring job more often than every second is a mistake, not a schedule. */
export const minEveryMs = 1000

function checkTimeZone(tz: string): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz })
  } catch {
    throw new BadScheduleError(`Unknown time zone ${JSON.stringify(tz)}`)
  }
}

/** Refuses a spec with neither or both of pattern and every, a cron pattern that does not parse, or an unknown time zone. */
export function checkSchedule(spec: ScheduleSpec): void {
  if (!new RegExp(schedulerIdPattern).test(spec.id)) {
    throw new BadScheduleError(`Scheduler id ${JSON.stringify(spec.id)} must be 1-64 letters, digits, '_', '.' or '-'`)
  }
  if ((spec.pattern === undefined) === (spec.every === undefined)) {
    throw new BadScheduleError('A schedule needs exactly one of pattern (cron) or every (milliseconds)')
  }
  if (spec.tz !== undefined) checkTimeZone(spec.tz)
  if (spec.every !== undefined && (!Number.isInteger(spec.every) || spec.every < minEveryMs)) {
    throw new BadScheduleError(`every must be a whole number of milliseconds, at least ${minEveryMs} (got ${JSON.stringify(spec.every)})`)
  }
  if (spec.pattern !== undefined) {
    // cron-parser accepts 5 or 6 fields and fills missing trailing ones; a pattern must name at least 5.
    const fields = spec.pattern.trim().split(/\s+/)
    if (fields.length < 5 || fields.length > 6) throw new BadScheduleError(`Invalid cron pattern ${JSON.stringify(spec.pattern)}: it needs 5 or 6 fields`)
    try {
      CronExpressionParser.parse(spec.pattern, { ...(spec.tz ? { tz: spec.tz } : {}), strict: false }).next()
    } catch (error) {
      throw new BadScheduleError(`Invalid cron pattern ${JSON.stringify(spec.pattern)}: ${(error as Error).message}`)
    }
  }
}

/**
 * When a schedule next fires after `after`. A cron pattern is read by cron-parser, as BullMQ reads it;
 * `every` fires on multiples of its interval, as BullMQ's job schedulers do.
 */
export function nextRun(spec: Pick<ScheduleSpec, 'pattern' | 'every' | 'tz'>, after: number): number {
  if (spec.every !== undefined) return (Math.floor(after / spec.every) + 1) * spec.every
  const expression = CronExpressionParser.parse(spec.pattern!, { currentDate: new Date(after), ...(spec.tz ? { tz: spec.tz } : {}) })
  return expression.next().getTime()
}
