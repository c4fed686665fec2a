import t from 'tap'
import { nextWatermark } from '../../../src/domain/campus-sync/watermark.js'

t.test("the watermark is the source's newest dateLastModified, by time, not by text", async (t) => {
  const rows = [{ dateLastModified: '2025-09-01T10:00:00Z' }, { dateLastModified: '2025-09-01T11:00:00+01:00' }, { dateLastModified: '2025-09-01T10:30:00.000Z' }, {}, { dateLastModified: 'garbage' }]
  t.equal(nextWatermark(undefined, rows), '2025-09-01T10:30:00.000Z')
  t.equal(nextWatermark('2026-01-01T00:00:00Z', rows), '2026-01-01T00:00:00Z', 'an older feed does not move it back')
  t.equal(nextWatermark(undefined, []), undefined)
})
