import t from 'tap'
import { path, startOne } from '../routes/workflows/support.js'
import { launchBrowser } from './browser.js'
import { signInAs, webDepartment } from './support.js'

const browser = await launchBrowser(t)
const d = await webDepartment(t)

const signedIn = signInAs(browser, d)

t.test('a student\'s progress bars carry the values the API gives, per requirement group, with satisfied and remaining rules', async (t) => {
  const url = `/students/${path(d.ids.una)}/progress`
  const page = await signedIn(t, 'una', url)
  await page.getByRole('heading', { level: 1, name: 'Degree progress: Una Under' }).waitFor()
  const api = (await d.callers.una({ method: 'GET', url: `/api${url.replace('/progress', '/degree-progress')}` })).json()
  const overall = page.getByRole('progressbar', { name: 'Overall progress' })
  t.equal(Number(await overall.getAttribute('aria-valuenow')), api.overall_progress, 'overall')
  t.equal(api.groups.length, 1)
  const group = api.groups[0]
  const bar = page.getByRole('progressbar', { name: `${d.groupName} progress` })
  t.equal(Number(await bar.getAttribute('aria-valuenow')), group.progress, `group ${d.groupName}`)
  t.ok(group.progress > 0 && group.progress < 1, 'a value strictly between 0 and 1, so a rounded or fixed bar would differ')
  const section = page.getByRole('region', { name: d.groupName })
  const text = await section.innerText()
  for (const rule of group.rules) t.match(text, rule.name, `rule ${rule.name} is listed`)
  t.match(text, /Remaining[\s\S]*Introduction: /, 'what remains of a rule, in the API\'s words')
})

t.test('a student opening another student\'s progress sees the refusal and nothing of the record', async (t) => {
  const page = await signedIn(t, 'otto', `/students/${path(d.ids.una)}/progress`)
  const alert = page.getByRole('alert')
  await alert.waitFor()
  const refusal = await d.callers.otto({ method: 'GET', url: `/api/students/${path(d.ids.una)}/degree-progress` })
  t.equal(refusal.statusCode, 403)
  t.equal(await alert.innerText(), refusal.json().error, 'the server\'s message')
  t.equal(await page.getByRole('progressbar').count(), 0, 'no progress shown')
  t.notMatch(await page.locator('main').innerText(), 'Una', 'nothing of the refused record')
})

t.test('an advisor approves a thesis from the inbox with a comment, and the API records it', async (t) => {
  const started = await startOne(t, d, 'honors_thesis', 1)
  const page = await signedIn(t, 'fay')
  // Away from the app first, so nothing the dashboard asked for is counted; the tab keeps its session.
  await page.goto('about:blank')
  const apiCalls: string[] = []
  page.on('request', (request) => { if (new URL(request.url()).pathname.startsWith('/api/')) apiCalls.push(request.url()) })
  await page.goto(`${d.base}/approvals`)
  const row = page.getByRole('link', { name: 'Thesis 1' })
  await row.waitFor()
  t.ok(apiCalls.length <= 7, `a full load of the inbox makes ${apiCalls.length} API requests (at most 7)`)
  await row.click()
  await page.getByRole('heading', { level: 1, name: 'Thesis 1' }).waitFor()
  await page.getByRole('textbox', { name: 'Comment' }).fill('A fine topic')
  await page.getByRole('button', { name: 'Approve' }).click()
  await page.getByRole('status').filter({ hasText: 'Approved.' }).waitFor()
  const instance = (await d.admin({ method: 'GET', url: `/api/workflows/instances/${path(started.instance)}` })).json()
  t.ok(instance.history.some((h: { action: string; comment?: string }) => /approve/.test(h.action) && h.comment === 'A fine topic'), 'the approval and its comment are in the instance\'s history')
})

t.test('the same approval with the keyboard alone', async (t) => {
  const started = await startOne(t, d, 'honors_thesis', 2)
  const page = await signedIn(t, 'fay', '/approvals')
  await page.getByRole('link', { name: 'Thesis 2' }).waitFor()
  const focused = () => page.evaluate<string>('document.activeElement?.textContent ?? ""')
  const tabTo = async (text: string) => {
    for (let i = 0; i < 40 && await focused() !== text; i++) await page.keyboard.press('Tab')
    t.equal(await focused(), text, `Tab reaches ${text}`)
  }
  await tabTo('Thesis 2')
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { level: 1, name: 'Thesis 2' }).waitFor()
  for (let i = 0; i < 40 && await page.evaluate<string>('document.activeElement?.id ?? ""') !== 'comment'; i++) await page.keyboard.press('Tab')
  await page.keyboard.type('Approved by keyboard')
  await tabTo('Approve')
  await page.keyboard.press('Enter')
  await page.getByRole('status').filter({ hasText: 'Approved.' }).waitFor()
  const instance = (await d.admin({ method: 'GET', url: `/api/workflows/instances/${path(started.instance)}` })).json()
  t.ok(instance.history.some((h: { action: string; comment?: string }) => /approve/.test(h.action) && h.comment === 'Approved by keyboard'), 'recorded with its comment')
})

t.test('a faculty member creates an API key, uses it, revokes it and deletes it', async (t) => {
  const page = await signedIn(t, 'cal', '/settings/api-keys')
  await page.getByRole('heading', { level: 1, name: 'API keys' }).waitFor()
  await page.getByRole('textbox', { name: 'Name' }).fill('Lab website')
  await page.getByRole('checkbox', { name: 'read_people' }).check()
  await page.getByRole('spinbutton', { name: 'Expires in (days)' }).fill('30')
  await page.getByRole('button', { name: 'Create key' }).click()
  const key = await page.getByTestId('new-key').innerText()
  t.match(key, /^adks_/, 'the key is shown once')
  await page.getByRole('button', { name: 'Copy' }).waitFor()
  const row = page.getByRole('row').filter({ hasText: 'Lab website' })
  await row.getByRole('cell', { name: 'active' }).waitFor()

  const use = () => fetch(`${d.base}/api/people?limit=1`, { headers: { 'X-API-Key': key } })
  t.equal((await use()).status, 200, 'the key reads people')
  await row.getByRole('button', { name: 'Revoke' }).click()
  await row.getByRole('cell', { name: 'revoked' }).waitFor()
  t.equal((await use()).status, 401, 'revoked, it is refused')
  await row.getByRole('button', { name: 'Delete' }).click()
  await page.getByRole('row').filter({ hasText: 'Lab website' }).waitFor({ state: 'detached' })
  const listed = (await d.callers.cal({ method: 'GET', url: '/api/api-keys' })).json().items as { name: string }[]
  t.notOk(listed.some((k) => k.name === 'Lab website'), 'and deleted')
})
