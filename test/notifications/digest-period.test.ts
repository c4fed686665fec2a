import t from 'tap'
import { isoWeek, periodOf } from '../../src/notifications/email/period.js'

t.test('a daily period is the calendar day in the department\'s time zone', async (t) => {
  const at = new Date('2025-03-07T04:30:00Z')
  t.equal(periodOf('daily', at, 'UTC'), '2025-03-07')
  t.equal(periodOf('daily', at, 'America/Chicago'), '2025-03-06', 'still the evening before in Chicago')
  t.equal(periodOf('daily', at, 'Asia/Tokyo'), '2025-03-07')
  t.equal(periodOf('daily', new Date('2025-03-07T15:30:00Z'), 'Asia/Tokyo'), '2025-03-08', 'already the next day in Tokyo')
})

t.test('a weekly period is the ISO week, Monday to Sunday, of the year holding its Thursday', async (t) => {
  const cases: [string, string][] = [
    ['2020-12-31', '2020-W53'], ['2021-01-03', '2020-W53'], ['2021-01-04', '2021-W01'],
    ['2024-12-29', '2024-W52'], ['2024-12-30', '2025-W01'], ['2025-03-09', '2025-W10'], ['2025-03-10', '2025-W11'],
    ['2026-01-01', '2026-W01'], ['2027-01-03', '2026-W53'],
  ]
  for (const [date, week] of cases) {
    const [y, m, d] = date.split('-').map(Number) as [number, number, number]
    const iso = isoWeek(y, m, d)
    t.equal(`${iso.year}-W${String(iso.week).padStart(2, '0')}`, week, date)
  }
  // Sunday 23:30 in Chicago is Monday in UTC: the week is Chicago's.
  t.equal(periodOf('weekly', new Date('2025-03-10T04:30:00Z'), 'America/Chicago'), '2025-W10')
  t.equal(periodOf('weekly', new Date('2025-03-10T04:30:00Z'), 'UTC'), '2025-W11')
})
