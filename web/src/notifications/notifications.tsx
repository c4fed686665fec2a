import { useState, type MouseEvent } from 'react'
import { when } from '../lib/dates'
import { useFollowing } from '../hooks/use-following'
import { Link, useNavigate, useSearchParams } from 'react-router'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { appPath, happened } from './events'
import { useLoad } from '../hooks/use-load'
import { messageOf } from '../lib/errors'
import { Alert, Loaded, Title } from '../components/ui'
import { refreshUnread, unread } from '../session/unread'
import { pageSize } from '../components/record-list'
import { Pager } from '../components/pager'
import { EmailPreferences } from './email-preferences'

type Notification = components['schemas']['Notification']

const linkId = (item: Notification) => `notification-${item._id}`

/** A plain click (no new tab or window asked for), which the page may hold until the item is marked read. */
function plainClick(event: MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey
}

/**
 * The caller's notifications, newest first, paged and filtered in the address (`?unread=true&page=`),
 * and their email preference. What is marked read here is shown read at once, without reloading the
 * page, so focus and place in the list are kept; the navigation's count follows every answer.
 */
export default function Notifications() {
  const navigate = useNavigate()
  const [params, setParams] = useSearchParams()
  const unreadOnly = params.get('unread') === 'true'
  const page = Math.max(1, Number(params.get('page')) || 1)
  // The box follows a click at once; the address (and the list) follow when the router has navigated.
  const [boxChecked, setBoxChecked] = useFollowing(unreadOnly)
  // Read here since the page loaded: by id, and all of them once "Mark all as read" answered.
  const [readNow, setReadNow] = useState<ReadonlyMap<string, string>>(new Map())
  const [allReadAt, setAllReadAt] = useState<string | null>(null)
  const [outcome, setOutcome] = useState<{ done: string } | { error: string } | null>(null)
  const list = useLoad(async () => {
    const ticket = unread.start()
    const answer = await api('get', '/api/notifications', { query: { ...(unreadOnly ? { unread: true } : {}), limit: pageSize, offset: (page - 1) * pageSize } })
    unread.answered(ticket, answer.unread)
    setReadNow(new Map())
    setAllReadAt(null)
    return answer
  }, [unreadOnly, page])
  const readAt = (item: Notification) => item.read_at ?? readNow.get(item._id) ?? allReadAt

  function go(next: { unreadOnly?: boolean; page?: number }) {
    const query = new URLSearchParams()
    if (next.unreadOnly ?? unreadOnly) query.set('unread', 'true')
    if ((next.page ?? 1) > 1) query.set('page', String(next.page))
    setOutcome(null)
    setParams(query)
  }

  async function markRead(item: Notification): Promise<void> {
    const answer = await api('post', '/api/notifications/{id}/read', { path: { id: item._id } })
    setReadNow((map) => new Map(map).set(item._id, answer.read_at ?? new Date().toISOString()))
  }

  async function markOne(item: Notification) {
    setOutcome(null)
    try {
      await markRead(item)
      setOutcome({ done: `Marked as read: ${item.title}.` })
      // The button is gone with the item's unread state: focus stays on the item, at its link.
      document.getElementById(linkId(item))?.focus()
      await refreshUnread()
    } catch (error) {
      setOutcome({ error: messageOf(error) })
    }
  }

  async function markAll() {
    setOutcome(null)
    try {
      const { marked } = await api('post', '/api/notifications/read-all')
      setAllReadAt(new Date().toISOString())
      setOutcome({ done: marked === 0 ? 'Nothing was unread.' : `Marked ${marked === 1 ? '1 notification' : `${marked} notifications`} as read.` })
      await refreshUnread()
    } catch (error) {
      setOutcome({ error: messageOf(error) })
    }
  }

  /** Opening an item marks it read first (a new tab or window opens at once and is marked beside it). */
  function open(event: MouseEvent<HTMLAnchorElement>, item: Notification, to: string) {
    if (readAt(item)) return
    const marking = markRead(item).catch(() => undefined)
    if (!plainClick(event)) return
    event.preventDefault()
    void marking.then(() => navigate(to))
  }

  return (
    <>
      <Title>Notifications</Title>
      <div className="filters">
        <label className="check">
          <input type="checkbox" checked={boxChecked} onChange={(event) => { setBoxChecked(event.target.checked); go({ unreadOnly: event.target.checked }) }} /> Unread only
        </label>
        <button type="button" onClick={() => { void markAll() }}>Mark all as read</button>
      </div>
      <p role="status">{outcome && 'done' in outcome ? outcome.done : ''}</p>
      {outcome && 'error' in outcome && <Alert>{outcome.error}</Alert>}
      <Loaded state={list}>{(data) => (data.items.length === 0
        ? <p>{unreadOnly ? 'No unread notifications.' : 'No notifications yet.'}</p>
        : (
          <>
            <table className="notifications">
              <caption>
                {data.total} {unreadOnly ? 'unread ' : ''}{data.total === 1 ? 'notification' : 'notifications'}, newest first
              </caption>
              <thead>
                <tr><th scope="col">Notification</th><th scope="col">What happened</th><th scope="col">When</th><th scope="col">Status</th><th scope="col"><span className="visually-hidden">Actions</span></th></tr>
              </thead>
              <tbody>
                {data.items.map((item) => {
                  const read = readAt(item) !== null
                  const to = appPath(item.link)
                  return (
                    <tr key={item._id} className={read ? undefined : 'unread'}>
                      <td>{to ? <Link id={linkId(item)} to={to} onClick={(event) => open(event, item, to)}>{item.title}</Link> : item.title}</td>
                      <td>{happened[item.type]}</td>
                      <td><time dateTime={item.created_at}>{when(item.created_at)}</time></td>
                      <td>{read ? 'Read' : <strong>Unread</strong>}</td>
                      <td>{!read && <button type="button" aria-label={`Mark as read: ${item.title}`} onClick={() => { void markOne(item) }}>Mark as read</button>}</td>
                    </tr>
                  )
                })}
              </tbody>
            </table>
            <Pager offset={(page - 1) * pageSize} limit={pageSize} total={data.total} go={(offset) => go({ page: offset / pageSize + 1 })} />
          </>
        ))}</Loaded>
      <EmailPreferences />
    </>
  )
}
