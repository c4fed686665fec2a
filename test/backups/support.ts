import type { Test } from 'tap'
import type { JobView } from '../../src/jobs/port.js'
import { buildTestApp } from '../helpers/app.js'
import { accepted, finished, type Caller } from '../routes/campus-sync/support.js'

export const adminEmail = 'ops@dept.example.edu'

export interface Listed {
  items: { file: string; bytes: number; created_at: string; encrypted: boolean | null; documents: number | null; collections: Record<string, number> | null; made_by: { kind: string; user: string | null; email: string | null } | null; job_id: string | null; verified_at: string | null; verify_error: string | null }[]
  settings: { dir: string; keep: number; every: number }
  next_run: string | null
  running_job: string | null
}

/** The service on a fresh store, its admin signed in once (so the admins' notices have someone to reach). */
export async function backupApp(t: Test, env: Record<string, string> = {}) {
  const setup = await buildTestApp(t, env)
  const ops = setup.as(adminEmail, 'admin')
  await ops({ method: 'GET', url: '/api/auth/me' })
  const list = async () => (await ops({ method: 'GET', url: '/api/admin/backups' })).json() as Listed
  return { ...setup, ops, list }
}

/** POST /api/admin/backups, then the job once it has finished. */
export async function backUp(t: Test, ops: Caller): Promise<JobView> {
  return finished(ops, await accepted(t, ops, '/api/admin/backups'))
}

export const verifyUrl = (file: string) => `/api/admin/backups/${encodeURIComponent(file)}/verify`
