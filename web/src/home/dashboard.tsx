import { Link } from 'react-router'
import { useMe, type Me } from '../session/me'
import { useLoad } from '../hooks/use-load'
import { Title } from '../components/ui'
import { AdminHome } from './admin'
import { AwaitingSection, inReview, NotificationsSection, RequestsSection } from './sections'
import { StudentHome } from './student'
import { ownRequests } from '../workflows'

/**
 * Anyone who may be asked to decide (faculty, staff): the inbox first, then their notifications and
 * the requests they made. The shell's /api/auth/me, the instances in review, and their applications
 * and nominations: four requests.
 */
function ApproverHome({ me }: { me: Me }) {
  const { id, personId, role } = me
  const review = useLoad(() => inReview({ id, personId }), [id, personId])
  const requests = useLoad(() => ownRequests({ role, personId }), [role, personId])
  return (
    <>
      <AwaitingSection loaded={review} />
      <NotificationsSection />
      <RequestsSection loaded={requests} />
      {me.role === 'faculty' && <p><Link to="/advisees">Your advisees and their progress</Link></p>}
    </>
  )
}

/** Each role's home is its work (docs/web.md, "The dashboard"): a student's progress, an approver's inbox, an admin's concerns. */
export default function Dashboard() {
  const me = useMe()
  return (
    <>
      <Title>Dashboard</Title>
      {me.role === 'student' ? <StudentHome me={me} /> : me.role === 'admin' ? <AdminHome me={me} /> : <ApproverHome me={me} />}
    </>
  )
}
