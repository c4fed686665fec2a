import type { FastifyBaseLogger } from 'fastify'
import type { Actor } from '../actor.js'
import type { RecordService } from '../records/service.js'
import type { CompiledSchema } from '../schema/index.js'

/**
 * Permissions the service no longer has. `view_audit` opened the audit log to a group's members, where
 * the interface spec has it read by admins only (docs/auth.md, "Permissions, roles and groups").
 */
export const retiredPermissions: readonly string[] = ['view_audit']

/**
 * Takes every retired permission out of the groups that still hold one, so no group lists a permission
 * the schema no longer knows. Run at start-up, before serving; a second run finds nothing to change.
 * Returns how many groups changed.
 */
export async function dropRetiredPermissions(records: RecordService, schema: CompiledSchema, actor: Actor, log: FastifyBaseLogger): Promise<number> {
  const group = schema.class('Group')
  if (!group) return 0
  const holding = await records.find(group, { permissions: { $in: [...retiredPermissions] } })
  for (const found of holding) {
    // Wider than the generated Permission[]: what these groups hold is exactly what the schema dropped.
    const held: readonly string[] = found.permissions
    const kept = held.filter((name) => !retiredPermissions.includes(name))
    await records.update(found._id, { permissions: kept }, { actor })
  }
  if (holding.length) log.info({ groups: holding.length, permissions: retiredPermissions }, 'retired permissions removed from groups')
  return holding.length
}
