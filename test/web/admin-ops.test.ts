import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { auditId } from '../../src/privacy/audit-entry.js'
import { auditCollection } from '../../src/privacy/audit-log.js'
import { campus, provider } from '../campus-sync/support.js'
import { until } from '../jobs/contract.js'
import { accepted, finished, gatedProvider, restSource } from '../routes/campus-sync/support.js'
import { path, people, type Name } from '../routes/workflows/support.js'
import { axeViolations, launchBrowser, newPage } from './browser.js'
import { servedApp, signInAs, webDepartment } from './support.js'

const browser = await launchBrowser(t)
const d = await webDepartment(t)

interface Job { id: string; state: string; progress: { percent: number } | null; result: Record<string, unknown> | null }

/** Signs `name` in through a link, landing on the dashboard, then opens `to` and waits for its heading. */
const signIn = signInAs(browser, d)
async function signedIn(t: Test, name: Name, to: string, heading: string): Promise<Page> {
  const page = await signIn(t, name, to)
  await page.getByRole('heading', { level: 1, name: heading }).waitFor()
  return page
}

/** Until the page has shown (or refused) everything it loads. */
const loaded = (page: Page) => page.getByRole('status').filter({ hasText: /^Loading/ }).first().waitFor({ state: 'detached' })

const rowOf = (page: Page, text: string) => page.getByRole('row').filter({ has: page.getByRole('cell', { name: text, exact: true }) })

const get = async (url: string) => {
  const res = await d.admin({ method: 'GET', url })
  if (res.statusCode !== 200) throw new Error(`GET ${url} answered ${res.statusCode}: ${res.body}`)
  return res.json()
}

t.test('/admin is in an admin\'s navigation, not in others\', and links to every operations page and to the records', async (t) => {
  const page = await signedIn(t, 'admin', '/dashboard', 'Dashboard')
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administration' }).click()
  await page.getByRole('heading', { level: 1, name: 'Administration' }).waitFor()
  const links = { Records: '/admin/records', Users: '/admin/users', Groups: '/admin/groups', Jobs: '/admin/jobs', 'Campus sync': '/admin/sync', 'Audit log': '/admin/audit', Cache: '/admin/cache' }
  for (const [name, href] of Object.entries(links)) t.equal(await page.getByRole('main').getByRole('link', { name, exact: true }).getAttribute('href'), href, name)
  const fay = await signedIn(t, 'fay', '/dashboard', 'Dashboard')
  t.equal(await fay.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Administration' }).count(), 0, 'a faculty member is not offered it')
})

t.test('users: every user with the role the API gives; an admin changes a role and the API then gives the new one', async (t) => {
  const page = await signedIn(t, 'admin', '/admin/users', 'Users')
  await loaded(page)
  const listed = await get('/api/users?limit=50')
  t.ok(listed.items.length >= Object.keys(people).length, 'the department\'s users are listed by the API')
  for (const user of listed.items as { email: string; role: string }[]) {
    t.equal(await rowOf(page, user.email).getByTestId('role').innerText(), user.role, `${user.email}: ${user.role}`)
  }
  t.match(await page.getByRole('table').locator('caption').innerText(), `${listed.total} users`)

  const stu = (listed.items as { id: string; email: string; role: string }[]).find((u) => u.email === people.stu.email)!
  t.equal(stu.role, 'staff')
  await page.getByRole('combobox', { name: `New role for ${stu.email}` }).selectOption('faculty')
  await rowOf(page, stu.email).getByRole('button', { name: 'Change role' }).click()
  await page.getByRole('status').filter({ hasText: `${stu.email} is now faculty.` }).waitFor()
  t.equal((await get(`/api/users/${path(stu.id)}`)).role, 'faculty', 'the API gives the new role')
  await rowOf(page, stu.email).getByTestId('role').filter({ hasText: 'faculty' }).waitFor()
  t.pass('the list shows it, as read again from the API')

  await page.getByRole('combobox', { name: 'Role', exact: true }).selectOption('faculty')
  await page.getByRole('button', { name: 'Find' }).click()
  const faculty = await get('/api/users?role=faculty&limit=50')
  await page.getByRole('table').locator('caption').filter({ hasText: `${faculty.total} users` }).waitFor()
  t.same((await page.getByTestId('role').allInnerTexts()).sort(), faculty.items.map((u: { role: string }) => u.role).sort(), 'the role filter shows what the API filters')
})

t.test('a non-admin opening /admin/users sees the server\'s refusal and no user', async (t) => {
  const page = await signedIn(t, 'fay', '/admin/users', 'Users')
  const alert = page.getByRole('alert')
  await alert.waitFor()
  const refusal = await d.callers.fay({ method: 'GET', url: '/api/users' })
  t.equal(refusal.statusCode, 403)
  t.equal(await alert.innerText(), refusal.json().error, 'the server\'s message')
  t.equal(await page.getByRole('table').count(), 0, 'no list')
  t.notMatch(await page.locator('main').innerText(), people.una.email, 'no user shown')
})

t.test('groups: each group with its permissions and members as the API answers; a group created on the page reaches the API', async (t) => {
  const page = await signedIn(t, 'admin', '/admin/groups', 'Groups')
  await loaded(page)
  const groups = (await get('/api/groups?limit=200')).items as { name: string; permissions: string[]; members: string[] }[]
  const emails = new Map((await get('/api/users?limit=200')).items.map((u: { id: string; email: string }) => [u.id, u.email]))
  t.ok(groups.length >= 2)
  for (const group of groups) {
    const region = page.getByRole('region', { name: group.name })
    const text = await region.innerText()
    t.match(text, group.permissions.length ? group.permissions.join(', ') : 'none', `${group.name}: permissions`)
    for (const member of group.members) t.match(text, String(emails.get(member)), `${group.name}: member ${emails.get(member)}`)
  }

  await page.getByRole('button', { name: 'New group' }).click()
  const form = page.getByRole('region', { name: 'New group' })
  await form.getByRole('textbox', { name: 'Name' }).fill('Lab managers')
  await form.getByRole('textbox', { name: 'Description' }).fill('Keep the lab pages current')
  await form.getByRole('checkbox', { name: 'write_labs' }).check()
  await form.getByRole('searchbox', { name: 'Find a user to add' }).fill('cal')
  await form.getByRole('button', { name: 'Find users' }).click()
  await form.getByRole('button', { name: `Add ${people.cal.email}` }).click()
  await form.getByRole('checkbox', { name: people.cal.email }).waitFor()
  await form.getByRole('button', { name: 'Create group' }).click()
  await page.getByRole('heading', { level: 2, name: 'Lab managers' }).waitFor()
  const created = (await get('/api/groups?limit=200')).items.find((g: { name: string }) => g.name === 'Lab managers')
  const cal = [...emails].find(([, email]) => email === people.cal.email)![0]
  t.match(created, { description: 'Keep the lab pages current', permissions: ['write_labs'], members: [cal] }, 'the API holds the group as entered')
})

t.test('jobs: a running job\'s progress bar has the API\'s value, followed live until the job ends', async (t) => {
  const { state, release } = await gatedProvider(t)
  t.teardown(release)
  t.equal((await d.admin({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: restSource(state.url) } })).statusCode, 200)
  const jobId = await accepted(t, d.admin, '/api/campus-sync/people')
  // The run waits on the feed's users: its progress holds still until the test releases it.
  const running = await until(async () => {
    const job = await get(`/api/admin/jobs/${path(jobId)}`) as Job
    return state.usersAsked > 0 && job.state === 'active' && job.progress ? job : null
  }, 'the job to read the feed\'s users', 60_000)

  const page = await signedIn(t, 'admin', '/admin/jobs', 'Jobs')
  await loaded(page)
  const bar = page.getByRole('progressbar', { name: `Progress of job ${jobId}` })
  await bar.waitFor()
  const progress = (await get(`/api/admin/jobs/${path(jobId)}/progress`)) as { percent: number }
  t.same(progress.percent, running.progress!.percent, 'held still while the feed waits')
  t.ok(progress.percent > 0 && progress.percent < 100, `a value strictly between 0 and 100 (${progress.percent})`)
  t.equal(Number(await bar.getAttribute('aria-valuenow')), progress.percent / 100, 'the bar carries the API\'s value')
  t.equal(await bar.getAttribute('aria-valuetext'), `${progress.percent}%`)
  t.equal(await rowOf(page, jobId).getByRole('cell', { name: 'active', exact: true }).count(), 1)
  const queues = await get('/api/queues') as { name: string; counts: Record<string, number> }[]
  for (const queue of queues) {
    const cells = await page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: queue.name, exact: true }) }).getByRole('cell').allInnerTexts()
    t.same(cells.slice(0, 5).map(Number), ['waiting', 'active', 'completed', 'failed', 'delayed'].map((s) => queue.counts[s]), `${queue.name}: counts`)
  }

  release()
  await rowOf(page, jobId).getByRole('cell', { name: 'completed', exact: true }).waitFor()
  const done = await finished(d.admin, jobId) as Job
  t.equal(done.state, 'completed')
  t.equal(Number(await bar.getAttribute('aria-valuenow')), done.progress!.percent / 100, 'the page followed the job to its end')
})

t.test('jobs: a failed job retried from the page runs again, as the API then reports', async (t) => {
  const feed = await provider(t)
  const configure = async (secret: string) => t.equal((await d.admin({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: { ...restSource(feed.url), client_secret: secret } } })).statusCode, 200)
  await configure('not-the-secret')
  // Queued as the routes queue it, but with one attempt, so it fails at once instead of after backoffs.
  const { id: jobId } = await d.app.jobs.enqueue('campus-sync', 'courses', { kind: 'courses' }, { attempts: 1 })
  const failed = await finished(d.admin, jobId) as Job & { error: string }
  t.equal(failed.state, 'failed', 'the feed refuses the credentials')
  const page = await signedIn(t, 'admin', '/admin/jobs', 'Jobs')
  await loaded(page)
  const row = rowOf(page, jobId)
  t.equal(await row.getByRole('cell', { name: failed.error, exact: true }).count(), 1, 'the API\'s error is shown')
  await configure('s3cret')
  await row.getByRole('button', { name: `Retry job ${jobId}` }).click()
  await row.getByRole('cell', { name: 'completed', exact: true }).waitFor()
  t.match(await get(`/api/admin/jobs/${path(jobId)}`), { id: jobId, state: 'completed', error: null }, 'the API reports the retried job completed')
  t.equal(await row.getByRole('button', { name: `Retry job ${jobId}` }).count(), 0, 'a completed job offers no retry')
})

t.test('campus sync: the configuration as the API answers it, and a dry run\'s diff as its job reports it', async (t) => {
  // Another term's feed: a new student, and a teacher renamed, so the diff has something whichever runs came before.
  const changed = campus()
  changed.users.push({ ...changed.users[2]!, sourcedId: 'S9', identifier: 'net-S9', email: 'S9@campus.example.edu', givenName: 'Nina' })
  changed.users[0] = { ...changed.users[0]!, familyName: 'Renamed', dateLastModified: '2025-10-01T10:00:00Z' }
  const feed = await provider(t, changed)
  t.equal((await d.admin({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: restSource(feed.url), delete_policy: 'keep', max_deactivate_percent: 15 } })).statusCode, 200)
  const config = await get('/api/campus-sync/config')
  const page = await signedIn(t, 'admin', '/admin/sync', 'Campus sync')
  await loaded(page)
  t.equal(await page.getByRole('combobox', { name: 'Source' }).inputValue(), config.source.type)
  t.equal(await page.getByRole('textbox', { name: 'Feed URL' }).inputValue(), config.source.url)
  t.equal(await page.getByRole('textbox', { name: 'Client id' }).inputValue(), config.source.client_id)
  t.equal(await page.getByLabel(`Client secret (${config.source.client_secret}; leave empty to keep it)`).inputValue(), '', 'the secret only as set or unset')
  t.equal(await page.getByRole('combobox', { name: 'Delete policy' }).inputValue(), config.delete_policy)
  t.equal(Number(await page.getByRole('spinbutton', { name: /deactivate/ }).inputValue()), config.max_deactivate_percent)
  const terms = (await get('/api/campus-sync/terms')).items as { code: string; in_source: boolean; synced: boolean }[]
  const termRows = page.getByRole('table', { name: 'The source\'s terms' }).locator('tbody tr')
  t.same(await Promise.all((await termRows.all()).map(async (row) => {
    const cells = await row.getByRole('cell').allInnerTexts()
    return [cells[0], cells[4], cells[5]]
  })), terms.map((term) => [term.code, term.in_source ? 'yes' : 'no', term.synced ? 'yes' : 'no']), 'the source\'s terms and which are synced')

  await page.getByRole('combobox', { name: 'What to sync' }).selectOption('people')
  await page.getByRole('button', { name: 'Dry run' }).click()
  await page.getByRole('heading', { level: 3, name: 'Dry run of people: completed' }).waitFor()
  const [job] = (await get('/api/admin/jobs?queue=campus-sync&limit=1')).items as Job[]
  const diff = job!.result!.diff as Record<string, Record<'create' | 'update' | 'deactivate', { source?: { sourced_id: string } }[]>>
  const expected = Object.entries(diff).flatMap(([kind, plan]) => (['create', 'update', 'deactivate'] as const).flatMap((action) => plan[action].map((e) => [kind, action, e.source?.sourced_id ?? '—'])))
  t.ok(expected.length > 0, 'the dry run would change something')
  const table = page.getByRole('table', { name: 'What a real run would change' })
  const rows = await Promise.all((await table.locator('tbody tr').all()).map(async (row) => (await row.getByRole('cell').allInnerTexts()).slice(0, 3)))
  t.same(rows, expected, 'every change of the diff, kind, change and sourced id')

  const runs = (await get('/api/campus-sync/runs?limit=1')).items as { kind: string; dry_run: boolean; created: number }[]
  t.match(runs[0], { kind: 'people', dry_run: true })
  const newest = page.getByRole('region', { name: 'Runs' }).locator('tbody tr').first()
  await newest.getByRole('cell', { name: 'yes', exact: true }).waitFor()
  t.same((await newest.getByRole('cell').allInnerTexts()).slice(0, 3), ['people', 'all', 'yes'], 'the run is listed')
  t.equal(Number((await newest.getByRole('cell').allInnerTexts())[7]), runs[0]!.created, 'with the API\'s counts')
  t.same(await axeViolations(page), [], 'no serious or critical violation with the diff shown')
})

t.test('audit: the filtered entries are the API\'s, and the chain check shows the API\'s verdict', async (t) => {
  await d.callers.una({ method: 'GET', url: `/api/students/${path(d.ids.una)}/degree-progress` })
  const page = await signedIn(t, 'admin', '/admin/audit', 'Audit log')
  await loaded(page)
  await page.getByRole('combobox', { name: 'Resource type' }).selectOption('degree-progress')
  await page.getByRole('button', { name: 'Filter' }).click()
  const entries = (await get('/api/admin/audit?resourceType=degree-progress')).items as { seq: number }[]
  t.ok(entries.length > 0)
  await page.getByRole('table').locator('caption').filter({ hasText: `${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}` }).waitFor()
  t.same(await page.locator('tbody tr td:first-child').allInnerTexts(), entries.map((e) => String(e.seq)), 'the API\'s entries, newest first')

  // The check is itself audited after its walk: the page's check, made after the API's, sees one more entry.
  const report = await get('/api/admin/audit/verify') as { intact: boolean; checked: number }
  t.equal(report.intact, true)
  await page.getByRole('button', { name: 'Check the chain' }).click()
  await page.getByTestId('chain-verdict').waitFor()
  t.match(await page.getByTestId('chain-verdict').innerText(), `The chain is intact: ${report.checked + 1} entries checked.`)
})

t.test('audit: a chain broken in the store is shown broken where and why the API says', async (t) => {
  const served = await servedApp(t)
  const page = await newPage(t, browser)
  await page.goto(await served.link('ops@dept.example.edu', 'admin'))
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
  await page.goto(`${served.base}/admin/audit`)
  await page.getByRole('heading', { level: 1, name: 'Audit log' }).waitFor()
  await loaded(page)
  await served.app.store.collection(auditCollection).updateOne({ _id: auditId(1) }, { $set: { userId: 'User/nobody' } })
  await page.getByRole('button', { name: 'Check the chain' }).click()
  const alert = page.getByRole('alert')
  await alert.waitFor()
  const report = (await served.as('ops@dept.example.edu', 'admin')({ method: 'GET', url: '/api/admin/audit/verify' })).json()
  t.match(report, { intact: false, firstBrokenAt: 1 })
  t.equal(await alert.innerText(), `The chain is broken at entry ${report.firstBrokenAt}: ${report.reason} (${report.checked} checked before it).`)
})

t.test('cache: its state as the API answers it; clearing says what the API did', async (t) => {
  await d.admin({ method: 'GET', url: '/api/courses' })
  await d.admin({ method: 'GET', url: '/api/people' })
  const page = await signedIn(t, 'admin', '/admin/cache', 'Cache')
  await loaded(page)
  const stats = await get('/api/admin/cache/stats') as { keys: number; memory: string }
  t.ok(stats.keys > 0, 'something is cached')
  t.equal(Number(await page.getByTestId('cache-keys').innerText()), stats.keys)
  t.equal(await page.getByTestId('cache-memory').innerText(), stats.memory)
  await page.getByRole('button', { name: 'Clear all' }).click()
  const status = page.getByRole('status').filter({ hasText: 'removed' })
  await status.waitFor()
  t.match(await status.innerText(), `(${stats.keys} ${stats.keys === 1 ? 'entry' : 'entries'} removed)`, 'the keys the API deleted')
  await page.getByTestId('cache-keys').filter({ hasText: /^0$/ }).waitFor()
  t.equal((await get('/api/admin/cache/stats')).keys, 0, 'and the API agrees it is empty')
})

t.test('axe-core finds no serious or critical violation on any operations page, each with one <h1>', async (t) => {
  const pages: [string, string][] = [
    ['/admin', 'Administration'], ['/admin/users', 'Users'], ['/admin/groups', 'Groups'], ['/admin/jobs', 'Jobs'],
    ['/admin/sync', 'Campus sync'], ['/admin/audit', 'Audit log'], ['/admin/cache', 'Cache'],
  ]
  const page = await signedIn(t, 'admin', '/dashboard', 'Dashboard')
  for (const [url, heading] of pages) {
    await page.goto(`${d.base}${url}`)
    await page.getByRole('heading', { level: 1, name: heading }).waitFor()
    await loaded(page)
    t.equal(await page.getByRole('heading', { level: 1 }).count(), 1, `${url}: one <h1>`)
    t.same(await axeViolations(page), [], `${url}: no serious or critical violation`)
  }
  const refused = await signedIn(t, 'fay', '/admin/users', 'Users')
  await refused.getByRole('alert').waitFor()
  t.same(await axeViolations(refused), [], 'a refusal: no serious or critical violation')
})
