import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { allow } from '../../auth/permissions.js'
import { principalOf } from '../../auth/plugin.js'
import { backupFilePattern } from '../../backups/files.js'
import { errorResponses } from '../responses.js'
import { emptyBody, JobAccepted, NoFields, noQuery } from '../shared.js'

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()])
const Counts = Type.Record(Type.String(), Type.Integer({ minimum: 0 }))

const MadeBy = Type.Object({
  kind: Type.Union([Type.Literal('schedule'), Type.Literal('admin')], { description: 'The scheduled job, or an admin through POST /api/admin/backups' }),
  user: Nullable(Type.String({ description: "The admin's user id" })),
  email: Nullable(Type.String({ description: "The admin's email" })),
}, { title: 'BackupMadeBy' })

const Backup = Type.Object({
  file: Type.String({ description: 'The file name in BACKUP_DIR' }),
  bytes: Type.Integer({ minimum: 0 }),
  created_at: Type.String({ format: 'date-time', description: 'The moment the backup is consistent to (from the file name until its manifest is read)' }),
  encrypted: Nullable(Type.Boolean({ description: 'Null when the file has no backup header' })),
  documents: Nullable(Type.Integer({ minimum: 0, description: 'Null until the service made or verified the file' })),
  collections: Nullable(Type.Unsafe<Record<string, number>>({ ...Counts, description: 'Documents per collection; null as documents' })),
  made_by: Nullable(MadeBy),
  job_id: Nullable(Type.String({ description: 'The job that made it, at /api/admin/jobs/{job_id}' })),
  verified_at: Nullable(Type.String({ format: 'date-time', description: 'When a verification last passed; null if never, or if the last one refused the file' })),
  verify_error: Nullable(Type.String({ description: 'Why the last verification refused the file' })),
}, { title: 'Backup' })

const BackupList = Type.Object({
  items: Type.Array(Backup, { description: 'Newest first' }),
  settings: Type.Object({
    dir: Type.String({ description: 'BACKUP_DIR' }),
    keep: Type.Integer({ description: 'BACKUP_KEEP: backups kept; the oldest beyond it are removed after each new one' }),
    every: Type.Integer({ description: 'BACKUP_EVERY in milliseconds; 0: no scheduled backup' }),
  }),
  next_run: Nullable(Type.String({ format: 'date-time', description: 'When the scheduled backup runs next' })),
  running_job: Nullable(Type.String({ description: 'A backup job waiting or running, at /api/admin/jobs/{running_job}' })),
}, { title: 'BackupList' })

const FileParams = Type.Object({
  file: Type.String({ pattern: backupFilePattern.source, maxLength: 100, description: 'A file name as the list gives it, adks-<time>.backup' }),
})

const BackupRefused = Type.Ref('ErrorBody', { description: 'The file does not check; the message names what is wrong (ADKS_BACKUP_INVALID)' })

/**
 * Backups as an operation (docs/operations.md): a backup made now as a job with progress, the files of
 * BACKUP_DIR with what is known of each, and a verification of one. Admins only; API keys never.
 */
export const backupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['Administration']
  const config = { policy: allow.admin }

  app.post('/api/admin/backups', {
    config, preValidation: emptyBody,
    schema: {
      tags, operationId: 'startBackup', summary: 'Back up the store now',
      description: 'Answers at once with the job, whose progress counts the documents written. A request while a backup waits or runs gets that job.',
      querystring: noQuery, body: NoFields, response: { 202: JobAccepted, ...errorResponses(400, 401, 403, 503) },
    },
  }, async (request, reply) => {
    const principal = principalOf(request)
    const { id } = await app.backups.start({ user: principal.userId, email: principal.email })
    reply.code(202)
    return { jobId: id }
  })

  app.get('/api/admin/backups', {
    config,
    schema: {
      tags, operationId: 'listBackups', summary: 'List the backups in BACKUP_DIR, newest first',
      description: 'Each file with its size and moment, and, once the service made or verified it, its counts, who made it and when it last verified; with the settings and the next scheduled run.',
      querystring: noQuery, response: { 200: BackupList, ...errorResponses(401, 403, 503) },
    },
  }, async () => app.backups.list())

  app.post('/api/admin/backups/:file/verify', {
    config, preValidation: emptyBody,
    schema: {
      tags, operationId: 'verifyBackup', summary: 'Verify a backup: its key and every checksum',
      description: 'Reads the whole file with the keys this service holds, as a restore would before writing anything, and records when it passed.',
      params: FileParams, querystring: noQuery, body: NoFields,
      response: { 200: Backup, ...errorResponses(400, 401, 403, 404), 422: BackupRefused, ...errorResponses(503) },
    },
  }, async (request) => app.backups.verify(request.params.file))
}
