import t from 'tap'
import { appPath, happened } from '../../web/src/notifications/events.js'
import { UnreadCount } from '../../web/src/lib/unread.js'
import { eventTypes } from '../../src/domain/notifications/events.js'

t.test('every event type the API sends has its words', async (t) => {
  t.same(Object.keys(happened).sort(), [...eventTypes].sort())
  t.equal(happened['workflow.stage_activated'], 'Awaits your decision')
  t.equal(new Set(Object.values(happened)).size, eventTypes.length, 'no two types read alike')
})

t.test('an item links only to a path of the app', async (t) => {
  t.equal(appPath('/approvals/thesis/ThesisRequest%2Fx'), '/approvals/thesis/ThesisRequest%2Fx')
  for (const bad of ['https://evil.example/', '//evil.example/x', 'javascript:alert(1)', '/a b', '']) t.equal(appPath(bad), null, `${bad} is not linked`)
})

t.test('the unread count keeps the answer of the read that started last', async (t) => {
  const count = new UnreadCount()
  let heard = 0
  count.subscribe(() => { heard++ })
  t.equal(count.get(), null, 'unknown before the first answer')
  const early = count.start()
  const late = count.start()
  count.answered(late, 0)
  count.answered(early, 3)
  t.equal(count.get(), 0, 'an older read answering last is dropped')
  t.equal(heard, 1, 'listeners told once')

  await count.refresh(async () => 2)
  t.equal(count.get(), 2)
  await count.refresh(async () => { throw new Error('down') })
  t.equal(count.get(), 2, 'a failed read leaves the last count')

  const pending = count.start()
  count.clear()
  t.equal(count.get(), null, 'cleared at sign-out')
  count.answered(pending, 5)
  t.equal(count.get(), null, 'a read begun before the sign-out is dropped')
  const unsubscribe = count.subscribe(() => t.fail('unsubscribed'))
  unsubscribe()
  await count.refresh(async () => 1)
  t.equal(count.get(), 1)
})
