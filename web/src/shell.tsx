import { NavLink, Outlet, redirect, useNavigate, useRouteLoaderData, type LoaderFunctionArgs } from 'react-router'
import { api } from './api/client'
import type { components } from './api/schema'
import { pages } from './pages'
import { sessions, signInPath } from './session'
import { unread, UnreadLink } from './unread'

export type Me = components['schemas']['CurrentUser']

/** Every page behind the shell needs a session: without one the visitor signs in and comes back. */
export async function shellLoader({ request }: LoaderFunctionArgs): Promise<Me> {
  const url = new URL(request.url)
  const here = url.pathname + url.search
  if (!sessions.get()) {
    sessions.rememberReturnTo(here)
    throw redirect(signInPath(here))
  }
  const me = await api('get', '/api/auth/me')
  unread.seed(me.unread_notifications)
  return me
}

/** The signed-in user, as the shell loaded it; for any page inside the shell. */
export function useMe(): Me {
  return useRouteLoaderData<typeof shellLoader>('shell')!
}

/** Revokes the token and forgets it; after single sign-on, the IdP's session is ended too (true then). */
async function signOut(): Promise<boolean> {
  const session = sessions.get()
  await api('post', '/api/auth/logout').catch(() => undefined)
  sessions.clear()
  unread.clear()
  if (!session?.saml) return false
  window.location.assign('/api/auth/saml/logout')
  return true
}

export function Shell() {
  const me = useMe()
  const navigate = useNavigate()
  return (
    <>
      <a className="skip" href="#main">Skip to content</a>
      <header>
        <nav aria-label="Main">
          <ul>
            {pages.filter(({ nav }) => nav && (!nav.roles || (nav.roles as readonly string[]).includes(me.role))).map(({ path, nav }) => (
              <li key={path}>{nav!.unread ? <UnreadLink to={path} label={nav!.label} /> : <NavLink to={path}>{nav!.label}</NavLink>}</li>
            ))}
          </ul>
        </nav>
        <p className="who">Signed in as {me.email} ({me.role})</p>
        <button type="button" onClick={() => { void signOut().then((toIdp) => { if (!toIdp) navigate('/sign-in') }) }}>Sign out</button>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  )
}
