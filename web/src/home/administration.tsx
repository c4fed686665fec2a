import { Link } from 'react-router'
import { api } from '../api/client'
import { useLoad } from '../hooks/use-load'
import { when } from '../lib/dates'
import { Title } from '../components/ui'

const sections: readonly { path: string; label: string; about: string }[] = [
  { path: '/admin/records', label: 'Records', about: 'every class of record: list, create, edit' },
  { path: '/admin/users', label: 'Users', about: 'who has signed in, and their roles' },
  { path: '/admin/groups', label: 'Groups', about: 'sets of users who share extra permissions' },
  { path: '/admin/jobs', label: 'Jobs', about: 'queues and background jobs, their progress, retries' },
  { path: '/admin/sync', label: 'Campus sync', about: 'the OneRoster feed: configuration, dry runs, runs and their errors, reverting a run' },
  { path: '/admin/audit', label: 'Audit log', about: 'access to protected records, and the check of its hash chain' },
  { path: '/admin/cache', label: 'Cache', about: 'the response cache and clearing it' },
  { path: '/admin/trash', label: 'Trash', about: 'deleted records, who deleted them, and restoring them' },
  { path: '/admin/backups', label: 'Backups', about: 'backups of the whole store, backing up now, verifying a file' },
]

/** The newest backup and whether it verified, so a stale one shows where admins start. */
function LastBackup() {
  const list = useLoad(() => api('get', '/api/admin/backups'), [])
  // The Backups page shows a refusal in full; here the line is left out.
  if (list.state !== 'ready') return null
  const [last] = list.data.items
  if (!last) return <p>No backup yet.</p>
  return (
    <p>
      {'Last backup: '}<time dateTime={last.created_at}>{when(last.created_at)}</time>
      {last.verified_at ? <>{', verified '}<time dateTime={last.verified_at}>{when(last.verified_at)}</time></> : last.verify_error ? ', refused by its last verification' : ', not verified'}.
    </p>
  )
}

export default function Administration() {
  return (
    <>
      <Title>Administration</Title>
      <LastBackup />
      <ul>
        {sections.map((s) => <li key={s.path}><Link to={s.path}>{s.label}</Link>: {s.about}</li>)}
      </ul>
    </>
  )
}
