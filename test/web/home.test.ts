import t, { type Test } from 'tap'
import type { Page } from 'playwright-core'
import { campus, provider } from '../campus-sync/support.js'
import { finished, restSource } from '../routes/campus-sync/support.js'
import { decide, path, startOne, type Name } from '../routes/workflows/support.js'
import { axeViolations, launchBrowser } from './browser.js'
import { signInAs, webDepartment } from './support.js'

/**
 * Each role's home is their work (docs/web.md, "The dashboard"): a student's progress and what is asked
 * of them, an approver's inbox, an admin's concerns; the navigation grouped and filtered by role; every
 * dashboard within seven API requests; major plans titled by plan and student.
 */
const browser = await launchBrowser(t)
const d = await webDepartment(t)
const signedIn = signInAs(browser, d)
const una = path(d.ids.una)

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' })
const loaded = (page: Page) => page.getByRole('status').filter({ hasText: /^Loading/ }).first().waitFor({ state: 'detached' })
const headings = (page: Page) => page.getByRole('main').getByRole('heading', { level: 2 }).allInnerTexts()

async function get(who: Name, url: string) {
  const res = await d.callers[who]({ method: 'GET', url })
  if (res.statusCode !== 200) throw new Error(`GET ${url} answered ${res.statusCode}: ${res.body}`)
  return res.json()
}

/** The API requests of a full load of /dashboard by `who`, the tab already signed in; the page once loaded. */
async function dashboardLoad(t: Test, who: Name): Promise<{ page: Page; requests: string[] }> {
  const page = await signedIn(t, who)
  // Away from the app first, so nothing the sign-in's dashboard asked for is counted; the tab keeps its session.
  await page.goto('about:blank')
  const requests: string[] = []
  page.on('request', (request) => { const url = new URL(request.url()); if (url.pathname.startsWith('/api/')) requests.push(url.pathname + url.search) })
  await page.goto(`${d.base}/dashboard`)
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor()
  await loaded(page)
  await page.waitForLoadState('networkidle')
  return { page, requests }
}

t.test('a student\'s dashboard leads with their progress and what remains, then a revision asked of them, within 7 requests', async (t) => {
  const thesis = await startOne(t, d, 'honors_thesis', 1)
  t.equal((await decide(d, 'honors_thesis', 'fay', thesis.id, 'request_revision', { comment: 'Narrow the topic' })).statusCode, 200, 'Fay asks for a revision')
  await startOne(t, d, 'major_plans')
  const { page, requests } = await dashboardLoad(t, 'una')
  t.comment(`student: ${requests.length} API requests: ${requests.join(', ')}`)
  t.ok(requests.length <= 7, `a full load makes ${requests.length} API requests (at most 7)`)

  t.same((await headings(page)).slice(0, 3), ['Your progress', 'Revisions asked of you', 'Your requests'], 'progress first, then the revision asked, then the open requests')
  const audit = await get('una', `/api/students/${una}/degree-progress`)
  const progress = page.getByRole('region', { name: 'Your progress' })
  t.equal(Number(await progress.getByRole('progressbar', { name: 'Overall progress' }).getAttribute('aria-valuenow')), audit.overall_progress, 'the overall bar is the API\'s')
  const open = (audit.groups as { name: string; rules: { name: string; satisfied: boolean; remaining?: { text: string } }[] }[])
    .flatMap((g) => g.rules.filter((r) => !r.satisfied).map((r) => `${g.name}: ${r.name}${r.remaining ? `: ${r.remaining.text}` : ''}`))
  t.ok(open.length > 0, 'something remains')
  t.same(await progress.getByRole('list').getByRole('listitem').allInnerTexts(), open, 'what remains, rule by rule, in the API\'s words')

  const revisions = page.getByRole('region', { name: 'Revisions asked of you' })
  await revisions.getByRole('link', { name: 'Thesis 1' }).click()
  await page.getByRole('heading', { level: 2, name: 'Honors thesis: Thesis 1' }).waitFor()
  t.pass('the revision opens the request, where it is answered')

  await page.goto(`${d.base}/dashboard`)
  const mine = page.getByRole('region', { name: 'Your requests' })
  await mine.getByRole('link', { name: 'Plan: Four years' }).waitFor()
  t.match(await mine.innerText(), /Plan: Four years \(Major plan\): submitted/, 'the major plan by its plan\'s name')
  t.same(await axeViolations(page), [], 'no serious or critical violation')
})

t.test('an advisor\'s dashboard leads with the inbox: what awaits her by domain, as the queues count it, within 7 requests', async (t) => {
  await startOne(t, d, 'honors_thesis', 2)
  await startOne(t, d, 'independent_research', 1)
  const { page, requests } = await dashboardLoad(t, 'fay')
  t.comment(`faculty advisor: ${requests.length} API requests: ${requests.join(', ')}`)
  t.ok(requests.length <= 7, `a full load makes ${requests.length} API requests (at most 7)`)
  t.equal((await headings(page))[0], 'Awaiting your decision', 'the inbox comes first')

  const queues = [['thesis', 'Honors thesis'], ['independent-research', 'Independent research'], ['fellowships', 'Fellowship'], ['award-nominations', 'Award nomination'], ['major-plans', 'Major plan'], ['graduate-milestones', 'Graduate milestone']] as const
  const pending = { thesis: '/api/thesis/pending-approvals', 'independent-research': '/api/independent-research/pending-approvals', fellowships: '/api/fellowships/pending-approvals', 'award-nominations': '/api/award-nominations/pending-approvals', 'major-plans': '/api/major-plan-approvals/pending-approvals', 'graduate-milestones': '/api/graduate-milestones/pending-approvals' }
  const awaiting = page.getByRole('region', { name: 'Awaiting your decision' })
  let total = 0
  for (const [key, label] of queues) {
    const count = (await get('fay', `${pending[key]}?limit=1`)).total as number
    total += count
    const link = awaiting.getByRole('link', { name: `${label}: ${count}`, exact: true })
    t.equal(await link.count(), count ? 1 : 0, `${label}: ${count}, as the queue counts it`)
    if (count) t.equal(await link.getAttribute('href'), `/approvals?domain=${key}`, `${label} links to the inbox filtered to it`)
  }
  t.ok(total >= 3, `${total} await her`)
  await awaiting.getByRole('link', { name: `${total} requests await your decision` }).waitFor()

  await awaiting.getByRole('link', { name: /^Honors thesis: / }).click()
  await page.getByRole('heading', { level: 1, name: 'Approvals' }).waitFor()
  await page.getByRole('link', { name: 'Thesis 2' }).waitFor()
  t.equal(await page.getByRole('combobox', { name: 'Domain' }).inputValue(), 'thesis', 'the inbox shows the domain chosen')
  t.equal(await page.getByRole('link', { name: 'Research 1' }).count(), 0, 'and no other domain\'s')
  await page.getByRole('combobox', { name: 'Domain' }).selectOption('')
  await page.getByRole('link', { name: 'Research 1' }).waitFor()
  t.equal(new URL(page.url()).search, '', 'all domains again, and the address says so')
})

t.test('an admin\'s dashboard leads with what needs attention: failed jobs, sync runs gone wrong, the last backup, within 7 requests', async (t) => {
  // A people run whose feed enrols someone in a class it never listed, so a row fails; then a job the feed refuses.
  const feed = await provider(t, campus())
  const configure = async (secret: string) => t.equal((await d.admin({ method: 'PUT', url: '/api/campus-sync/config', payload: { source: { ...restSource(feed.url), client_secret: secret } } })).statusCode, 200)
  await configure('s3cret')
  for (const kind of ['courses', 'sections']) await finished(d.admin, (await d.admin({ method: 'POST', url: `/api/campus-sync/${kind}`, payload: {} })).json().jobId)
  feed.feed.enrollments.push({ sourcedId: 'E9', status: 'active', dateLastModified: '2025-09-03T10:00:00Z', role: 'student', user: { sourcedId: 'S1' }, class: { sourcedId: 'K9' } })
  const people = await d.admin({ method: 'POST', url: '/api/campus-sync/people', payload: {} })
  t.equal(people.statusCode, 202)
  await finished(d.admin, people.json().jobId)
  await configure('not-the-secret')
  const { id: failedJob } = await d.app.jobs.enqueue('campus-sync', 'courses', { kind: 'courses' }, { attempts: 1 })
  t.equal((await finished(d.admin, failedJob)).state, 'failed')

  const { page, requests } = await dashboardLoad(t, 'admin')
  t.comment(`admin: ${requests.length} API requests: ${requests.join(', ')}`)
  t.ok(requests.length <= 7, `a full load makes ${requests.length} API requests (at most 7)`)
  t.equal((await headings(page))[0], 'Needs your attention', 'what needs attention comes first')

  const attention = page.getByRole('region', { name: 'Needs your attention' })
  const failed = await get('admin', '/api/admin/jobs?state=failed&limit=1')
  t.ok(failed.total >= 1)
  const jobs = attention.getByRole('link', { name: failed.total === 1 ? '1 failed job' : `${failed.total} failed jobs` })
  t.equal(await jobs.count(), 1, 'the failed jobs, as the API counts them')
  const [run] = (await get('admin', '/api/campus-sync/runs?kind=people&limit=1')).items as { errors: unknown[] }[]
  t.ok(run!.errors.length > 0, 'the people run left rows in error')
  t.match(await attention.innerText(), `The people sync of`, 'the people run is named')
  t.match(await attention.innerText(), `completed with ${run!.errors.length === 1 ? '1 row' : `${run!.errors.length} rows`} in error`, 'with its errors counted as the API has them')
  t.match(await attention.innerText(), 'No backup yet', 'and no backup yet')

  await jobs.click()
  await page.getByRole('heading', { level: 1, name: 'Jobs' }).waitFor()
  await loaded(page)
  t.equal(await page.getByRole('combobox', { name: 'State' }).inputValue(), 'failed', 'the jobs page opens on the failed jobs')
  await page.getByRole('button', { name: `Retry job ${failedJob}` }).waitFor()
  t.pass('with the failed job to retry')
})

t.test('the navigation is grouped, and offers Approvals to those who may decide, not to a student', async (t) => {
  const groups = async (page: Page) => {
    const lists = nav(page).getByRole('list').filter({ has: page.getByRole('link') })
    const named: Record<string, string[]> = {}
    for (const name of ['Your work', 'Department', 'Account']) {
      const list = nav(page).getByRole('list', { name, exact: true })
      if (await list.count()) named[name] = await list.getByRole('link').allInnerTexts()
    }
    t.ok(await lists.count() >= 3, 'groups are lists')
    return named
  }
  const student = await signedIn(t, 'una')
  const una = await groups(student)
  t.notOk(una['Your work']!.includes('Approvals'), 'a student is offered no Approvals')
  t.same(una.Department, ['People', 'Courses', 'Labs', 'Publications', 'Search'])
  t.same(una.Account, ['Profile', 'API keys'])

  const fay = await groups(await signedIn(t, 'fay'))
  t.ok(fay['Your work']!.includes('Approvals'), 'an advisor is')
  const admin = await groups(await signedIn(t, 'admin'))
  t.ok(admin['Your work']!.includes('Administration') && admin['Your work']!.includes('Approvals'), 'an admin\'s work includes Administration')
  for (const [name, links] of Object.entries(admin)) t.ok(links.length <= 6, `${name}: ${links.length} entries`)
})

t.test('on a phone the navigation folds under "Menu", and a link followed folds it again', async (t) => {
  const page = await signedIn(t, 'una')
  await page.setViewportSize({ width: 375, height: 800 })
  const menu = page.getByRole('button', { name: 'Menu' })
  t.equal(await menu.getAttribute('aria-expanded'), 'false')
  t.notOk(await nav(page).getByRole('link', { name: 'People' }).isVisible(), 'folded')
  await menu.click()
  t.equal(await menu.getAttribute('aria-expanded'), 'true')
  await nav(page).getByRole('link', { name: 'People' }).click()
  await page.getByRole('heading', { level: 1, name: 'People' }).waitFor()
  t.equal(await menu.getAttribute('aria-expanded'), 'false', 'folded again on the new page')
  await page.setViewportSize({ width: 1280, height: 800 })
  t.ok(await nav(page).getByRole('link', { name: 'People' }).isVisible(), 'on a wide screen the navigation is always shown')
  t.equal(await menu.isVisible(), false, 'and there is no Menu button')
})

t.test('a major plan reads by plan and student: the service titles it so, in the inbox and on its page', async (t) => {
  const queue = (await get('fay', '/api/major-plan-approvals/pending-approvals?limit=200')).items as { id: string; title: string; submitter_name: string }[]
  const review = queue.find((item) => item.title === 'Major plan: Four years — Una Under')
  t.ok(review, 'the service titles it by plan name and student')
  const page = await signedIn(t, 'fay', '/approvals?domain=major-plans')
  const link = page.getByRole('link', { name: review!.title })
  await link.waitFor()
  await link.click()
  await page.getByRole('heading', { level: 1, name: 'Major plan: Four years — Una Under' }).waitFor()
  t.pass('the approval page names the plan and the student')
  t.same(await axeViolations(page), [], 'no serious or critical violation')
})
