/** The admin's pages on a phone and a desktop (phone-support.ts), and a wide table scrolling by itself. */
import t from 'tap'
import { path } from '../routes/workflows/support.js'
import { phoneFixture, scrolledSideways, settled, width } from './phone-support.js'

const { d, data, pageOf, checkPages } = await phoneFixture(t, { syncRuns: true })

t.test('every admin page fits a 375 px screen without scrolling sideways, and axe-core finds nothing serious at 375 and 1280 px', async (t) => {
  const { course } = await data(t)
  await checkPages(t, [
    ['admin', '/dashboard', 'Dashboard'],
    ['admin', '/approvals', 'Approvals'],
    ['admin', '/advisees', 'Advisees'],
    ['admin', '/admin', 'Administration'],
    ['admin', '/admin/users', 'Users'],
    ['admin', '/admin/groups', 'Groups'],
    ['admin', '/admin/jobs', 'Jobs'],
    ['admin', '/admin/sync', 'Campus sync'],
    ['admin', '/admin/audit', 'Audit log'],
    ['admin', '/admin/cache', 'Cache'],
    ['admin', '/admin/trash', 'Trash'],
    ['admin', '/admin/backups', 'Backups'],
    ['admin', '/admin/records', 'Records'],
    ['admin', '/admin/records/Course', 'Course records'],
    ['admin', '/admin/records/Course/new', /Course/],
    ['admin', `/admin/records/Course/${path(course)}`, /CS 101|Course/],
  ])
})

t.test('a table wider than the phone scrolls inside its own named region, which the keyboard reaches', async (t) => {
  await data(t)
  const page = await pageOf(t, 'admin')
  await page.setViewportSize({ width: 375, height: 800 })
  await page.goto(`${d.base}/admin/jobs`)
  await settled(page, 'Jobs')
  const region = page.getByRole('region', { name: /jobs, newest first/ })
  await region.waitFor()
  t.equal(await region.getAttribute('tabindex'), '0', 'the region takes focus, so the keyboard can scroll it')
  await region.focus()
  t.ok(await page.evaluate<boolean>('document.activeElement.scrollWidth > document.activeElement.clientWidth'), 'the jobs table is wider than the screen and scrolls within its region')
  await page.keyboard.press('ArrowRight')
  await page.waitForFunction(scrolledSideways)
  t.pass('ArrowRight scrolls it')
  t.ok(await width(page) <= 375, 'and the page itself does not scroll sideways')
})
