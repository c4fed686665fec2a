import { api } from '../../api/client'
import type { Me } from '../../shell'

/**
 * The caller's Person record, linked as the server links it: by campus id, else by email. Null when
 * none is (an admin with no Person acts under their User id).
 */
export async function ownPerson(me: Me): Promise<string | null> {
  if (me.campusId) {
    const page = await api('get', '/api/people', { query: { search: me.campusId, limit: 10 } })
    const found = page.items.find((person) => person.campus_id === me.campusId)
    if (found) return found._id
  }
  const email = me.email.toLowerCase()
  const page = await api('get', '/api/people', { query: { search: me.email, limit: 10 } })
  return page.items.find((person) => person.email?.toLowerCase() === email)?._id ?? null
}
