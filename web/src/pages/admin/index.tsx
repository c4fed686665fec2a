import { Link } from 'react-router'
import { Title } from '../../ui'

const sections: readonly { path: string; label: string; about: string }[] = [
  { path: '/admin/records', label: 'Records', about: 'every class of record: list, create, edit' },
  { path: '/admin/users', label: 'Users', about: 'who has signed in, and their roles' },
  { path: '/admin/groups', label: 'Groups', about: 'sets of users who share extra permissions' },
  { path: '/admin/jobs', label: 'Jobs', about: 'queues and background jobs, their progress, retries' },
  { path: '/admin/sync', label: 'Campus sync', about: 'the OneRoster feed: configuration, dry runs, runs and their errors, reverting a run' },
  { path: '/admin/audit', label: 'Audit log', about: 'access to protected records, and the check of its hash chain' },
  { path: '/admin/cache', label: 'Cache', about: 'the response cache and clearing it' },
  { path: '/admin/trash', label: 'Trash', about: 'deleted records, who deleted them, and restoring them' },
]

export default function Administration() {
  return (
    <>
      <Title>Administration</Title>
      <ul>
        {sections.map((s) => <li key={s.path}><Link to={s.path}>{s.label}</Link>: {s.about}</li>)}
      </ul>
    </>
  )
}
