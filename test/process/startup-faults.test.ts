import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { tempDir } from '../helpers/temp-dir.js'
import { expectStartupFailure } from './server-process.js'

t.test('faults found while building the app also stop start-up with one line naming them', async (t) => {
  const brokenSchema = await tempDir(t)
  await writeFile(join(brokenSchema, 'broken.json'), '[{"@type": "Class", "@id": "Broken",]')
  const cases: [string, Record<string, string>, RegExp][] = [
    ['a placeholder JWT_SECRET', { JWT_SECRET: 'changeme'.repeat(5) }, /^configuration: JWT_SECRET looks like a placeholder/],
    [
      'a missing JWT key file',
      { JWT_PRIVATE_KEY_PATH: '/nonexistent/private.pem', JWT_PUBLIC_KEY_PATH: '/nonexistent/public.pem' },
      /^configuration: JWT_(PRIVATE|PUBLIC)_KEY_PATH cannot be read \("\/nonexistent\/(private|public)\.pem"\): ENOENT/,
    ],
    ['a broken schema file', { SCHEMA_DIR: brokenSchema }, /^schema error in broken\.json: not valid JSON/],
  ]
  await Promise.all(cases.map(async ([fault, env, line]) => expectStartupFailure(t, fault, { DATA_DIR: await tempDir(t), ...env }, line)))
})
