import { readFile } from 'node:fs/promises'
import t from 'tap'
import { webApiTypes } from '../../scripts/web-api-types-source.js'

t.test('web/src/api/schema.d.ts is generated from the OpenAPI document the service serves now', async (t) => {
  const checkedIn = await readFile(new URL('../../web/src/api/schema.d.ts', import.meta.url), 'utf8')
  const current = await webApiTypes()
  // Compared whole; on a difference, say how to fix it rather than print half a megabyte.
  t.ok(checkedIn === current, 'current: after changing a route or the class schema, run npm run web:types (and fix what the web type check then finds)')
})
