import { readFileSync } from 'node:fs'

// From src/backups (run by tsx) or dist/src/backups (built), the project's root.
const root = new URL(import.meta.url.includes('/dist/') ? '../../../' : '../../', import.meta.url)

/** The service's version, as its package.json gives it: what a backup's manifest records it was made by. */
export const serviceVersion = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string }).version
