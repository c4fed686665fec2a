import t from 'tap'
import { backupOutcomeOf, everyText, madeByText, outcomeText, sizeText } from '../../web/src/backups/text.js'

t.test('sizes in decimal units, one decimal below ten', async (t) => {
  t.equal(sizeText(0), '0 B')
  t.equal(sizeText(999), '999 B')
  t.equal(sizeText(1000), '1.0 KB')
  t.equal(sizeText(31_456), '31 KB')
  t.equal(sizeText(1_540_000), '1.5 MB')
  t.equal(sizeText(999_600), '1.0 MB', 'not 1000 KB')
  t.equal(sizeText(2_000_000_000_000_000), '2000 TB', 'the largest unit goes on counting')
})

t.test('BACKUP_EVERY in words, in the largest unit that divides it', async (t) => {
  t.equal(everyText(0), null, 'nothing scheduled')
  t.equal(everyText(86_400_000), 'every day')
  t.equal(everyText(172_800_000), 'every 2 days')
  t.equal(everyText(43_200_000), 'every 12 hours')
  t.equal(everyText(5_400_000), 'every 90 minutes')
  t.equal(everyText(1_500), 'every 2 seconds', 'a fraction of a second rounded')
})

t.test('who made a backup', async (t) => {
  t.equal(madeByText(null), 'Not known')
  t.equal(madeByText({ kind: 'schedule', user: null, email: null }), 'The schedule')
  t.equal(madeByText({ kind: 'admin', user: 'u1', email: 'ada@dept.edu' }), 'ada@dept.edu')
  t.equal(madeByText({ kind: 'admin', user: 'u1', email: null }), 'u1')
})

t.test('a backup job\'s result, checked before it is told', async (t) => {
  t.equal(backupOutcomeOf(null), null)
  t.equal(backupOutcomeOf({ file: 'a.backup', bytes: '12' }), null, 'a field of another type')
  const outcome = backupOutcomeOf({ file: 'a.backup', bytes: 2_500, documents: 1, encrypted: true, removed: ['b.backup', 'c.backup'] })
  t.same(outcome, { file: 'a.backup', bytes: 2_500, documents: 1, removed: 2 })
  t.equal(outcomeText(outcome!), 'Backed up 1 document to a.backup (2.5 KB). The 2 oldest backups were removed.')
  t.equal(outcomeText({ file: 'a.backup', bytes: 10, documents: 40, removed: 0 }), 'Backed up 40 documents to a.backup (10 B).')
})
