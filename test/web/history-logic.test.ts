import { readdir, readFile } from 'node:fs/promises'
import t from 'tap'
import { fieldOf, opWords, valueText, writePermissions } from '../../web/src/history/changes.js'
import { revertReportOf } from '../../web/src/campus-sync/revert-report.js'

t.test('each record route\'s restore is offered on the write permission the class schema names for it', async (t) => {
  const dir = new URL('../../schema/', import.meta.url)
  const named: Record<string, string> = {}
  for (const file of (await readdir(dir)).filter((f) => f.endsWith('.json'))) {
    const classes = JSON.parse(await readFile(new URL(file, dir), 'utf8')) as { '@metadata'?: { path?: string; permissions?: { write?: string } } }[]
    for (const { '@metadata': metadata } of classes) if (metadata?.path && metadata.permissions?.write) named[metadata.path] = metadata.permissions.write
  }
  t.same(writePermissions, named)
})

t.test('a change\'s JSON Pointer in words', async (t) => {
  t.equal(fieldOf('/course_code'), 'Course code')
  t.equal(fieldOf('/members/2'), 'Members, item 3')
  t.equal(fieldOf('/address/postal_code'), 'Address, postal code')
  t.equal(fieldOf('/a~1b/c~0d'), 'A/b, c~d', 'the pointer\'s escapes undone')
  t.equal(fieldOf(''), 'The whole record')
})

t.test('a value before or after: absent, null and empty told apart', async (t) => {
  t.equal(valueText(undefined, false), '(none)')
  t.equal(valueText(null, true), '(empty)')
  t.equal(valueText('', true), '(empty text)')
  t.equal(valueText('Rome', true), 'Rome')
  t.equal(valueText(3, true), '3')
  t.equal(valueText(false, true), 'false')
  t.equal(valueText(['Course/CS-101'], true), '["Course/CS-101"]')
  t.same(Object.keys(opWords), ['create', 'update', 'deactivate', 'delete'])
})

t.test('a revert job\'s result is read as a report, entries of another shape left out', async (t) => {
  t.equal(revertReportOf(null), null)
  t.equal(revertReportOf({ diff: {} }), null, 'a sync job\'s result is no revert\'s')
  const report = revertReportOf({
    reverts: 'SyncRun/a', run_id: 'SyncRun/b', dry_run: false, reverted: 2,
    changes: [{ id: 'Course/X', op: 'delete' }, { id: 'Course/Y', op: 'restore' }, { id: 'Course/Z', op: 'explode' }, 'junk'],
    conflicts: [{ id: 'Course/W', changed_by: 'User/u', changed_by_name: 'ada@dept.edu', at: '2026-11-29T10:00:00Z' }, { id: 'Course/V', changed_by: 'User/v', at: '2026-11-29T11:00:00Z' }, { id: 'Course/U' }],
    errors: [{ id: 'Course/T', message: 'a reference is gone' }, { id: 3 }],
  })
  t.same(report, {
    dryRun: false, runId: 'SyncRun/b', reverted: 2,
    changes: [{ id: 'Course/X', op: 'delete' }, { id: 'Course/Y', op: 'restore' }],
    conflicts: [{ id: 'Course/W', changedBy: 'ada@dept.edu', at: '2026-11-29T10:00:00Z' }, { id: 'Course/V', changedBy: 'User/v', at: '2026-11-29T11:00:00Z' }],
    errors: [{ id: 'Course/T', message: 'a reference is gone' }],
  })
  t.match(revertReportOf({ reverts: 'SyncRun/a', dry_run: true, reverted: 0, changes: [], conflicts: [], errors: [] }), { dryRun: true, runId: null, reverted: 0 })
})
