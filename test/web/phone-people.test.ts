/** The pages a visitor, a student and a faculty advisor open, on a phone and a desktop (phone-support.ts). */
import t from 'tap'
import { path } from '../routes/workflows/support.js'
import { phoneFixture } from './phone-support.js'

const { d, data, checkPages } = await phoneFixture(t, { syncRuns: false })
const una = path(d.ids.una)

t.test('every page a visitor, a student and an advisor open fits a 375 px screen, and axe-core finds nothing serious at 375 and 1280 px', async (t) => {
  const { thesis, plan, course } = await data(t)
  await checkPages(t, [
    [null, '/sign-in', 'Sign in'],
    [null, '/auth/saml-callback?error=Signature%20validation%20failed', 'Sign-in failed'],
    ['una', '/dashboard', 'Dashboard'],
    ['una', `/students/${una}/progress`, 'Degree progress: Una Under'],
    ['una', `/students/${una}/transcript`, 'Transcript: Una Under'],
    ['una', `/students/${una}/plans`, /plan/i],
    ['una', '/requests', 'My requests'],
    ['una', `/requests?domain=thesis&id=${path(thesis)}`, 'My requests'],
    ['una', '/profile', 'Your profile'],
    ['una', '/notifications', 'Notifications'],
    ['una', '/settings/api-keys', 'API keys'],
    ['una', '/no/such/page', 'Page not found'],
    ['fay', '/dashboard', 'Dashboard'],
    ['fay', '/approvals', 'Approvals'],
    ['fay', `/approvals/thesis/${path(thesis)}`, 'Thesis 1'],
    ['fay', `/approvals/major-plans/${path(plan)}`, /Major plan/],
    ['fay', '/advisees', 'Advisees'],
    ['fay', '/people', 'People'],
    ['fay', `/people/${path(d.ids.fay)}`, 'fay Faculty'],
    ['fay', '/courses', 'Courses'],
    ['fay', `/courses/${path(course)}`, /^CS 101/],
    ['fay', '/labs', 'Labs'],
    ['fay', '/publications', 'Publications'],
    ['fay', '/search?q=CS', 'Search'],
  ])
})
