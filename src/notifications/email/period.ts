import type { DigestFrequency } from './preferences.js'

const dayMs = 24 * 60 * 60 * 1000

/** Made once per zone: a formatter costs a millisecond to make, and a digest dates thousands of items. */
const formatters = new Map<string, Intl.DateTimeFormat>()

/** The calendar date `at` falls on in the time zone. */
export function localDate(at: Date, timeZone: string): { year: number; month: number; day: number } {
  let format = formatters.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric', day: 'numeric' })
    formatters.set(timeZone, format)
  }
  const parts = format.formatToParts(at)
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value)
  return { year: part('year'), month: part('month'), day: part('day') }
}

/** ISO 8601 week of a calendar date: the week (Monday to Sunday) is the year's that holds its Thursday. */
export function isoWeek(year: number, month: number, day: number): { year: number; week: number } {
  const date = Date.UTC(year, month - 1, day)
  const weekday = (new Date(date).getUTCDay() + 6) % 7
  const thursday = new Date(date + (3 - weekday) * dayMs)
  const isoYear = thursday.getUTCFullYear()
  return { year: isoYear, week: Math.floor((thursday.getTime() - Date.UTC(isoYear, 0, 1)) / dayMs / 7) + 1 }
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0')

/**
 * The digest period `at` falls in (docs/notifications.md), in the department's time zone: the calendar day
 * (`2025-03-07`) for daily digests, the ISO week (`2025-W10`) for weekly ones. A digest's delivery is
 * keyed by it, so a second run in one period sends nothing.
 */
export function periodOf(frequency: DigestFrequency, at: Date, timeZone: string): string {
  const { year, month, day } = localDate(at, timeZone)
  if (frequency === 'daily') return `${pad(year, 4)}-${pad(month)}-${pad(day)}`
  const week = isoWeek(year, month, day)
  return `${pad(week.year, 4)}-W${pad(week.week)}`
}
