import type { FastifyRequest } from 'fastify'
import { principalOf } from '../../auth/plugin.js'
import { RecordNotFound, StudentAccessDenied } from '../../errors.js'
import { auditNote } from '../../http/audit.js'
import type { ApiRecord } from '../../records/service.js'

export const studentDenial = 'Permission denied: only the student, their advisors and admins may see these records'

/**
 * The student a /api/students/:id/... request names, once the caller is allowed to see their records;
 * the basis of the decision goes into the request's audit entry. A caller who is not allowed is refused
 * with 403 whether or not the student exists, so the answer reveals nothing; admins get a 404 for an id
 * that names no student.
 */
export async function openStudent(request: FastifyRequest, id: string): Promise<ApiRecord> {
  const { record, basis } = await request.server.protectedAccess.student(principalOf(request), id)
  auditNote(request).basis = basis
  if (basis === 'none') throw new StudentAccessDenied(studentDenial)
  if (!record) throw new RecordNotFound(`${id} not found`)
  return record
}
