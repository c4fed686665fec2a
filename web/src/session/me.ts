import { redirect, useRouteLoaderData, type LoaderFunctionArgs } from 'react-router'
import { api } from '../api/client'
import type { components } from '../api/schema'
import { sessions, signInPath } from '../api/token'
import { unread } from './unread'

export type Me = components['schemas']['CurrentUser']

/** The id of the route whose loader reads the signed-in user: the shell, parent of every page behind it. */
export const sessionRouteId = 'shell'

/** Every page behind the shell needs a session: without one the visitor signs in and comes back. */
export async function loadMe({ request }: LoaderFunctionArgs): Promise<Me> {
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

/** The signed-in user, as the shell's route loaded it; for any page inside the shell. */
export function useMe(): Me {
  return useRouteLoaderData<typeof loadMe>(sessionRouteId)!
}

/** Revokes the token and forgets it; after single sign-on, the IdP's session is ended too (true then). */
export async function signOut(): Promise<boolean> {
  const session = sessions.get()
  await api('post', '/api/auth/logout').catch(() => undefined)
  sessions.clear()
  unread.clear()
  if (!session?.saml) return false
  window.location.assign('/api/auth/saml/logout')
  return true
}
