import type { FastifyInstance } from 'fastify'
import { SchemaChanged } from '../errors.js'
import type { SchemaGuard } from '../migrations/guard.js'

const reads = new Set(['GET', 'HEAD', 'OPTIONS'])

/** Every write is refused once the store has moved to another schema than this instance's (migrations/guard.ts). */
export function installSchemaGuard(app: FastifyInstance, guard: SchemaGuard): void {
  app.addHook('preHandler', async function refuseWritesOnAnotherSchema(request) {
    if (reads.has(request.method) || !request.url.startsWith('/api/')) return
    if (!(await guard.current())) throw new SchemaChanged('the store has moved to another version of the class schema; this instance serves reads only until it is restarted')
  })
}
