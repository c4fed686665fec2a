import { useEffect, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { api } from '../api/client'
import { takeCallbackParams } from './callback-params'
import { safeReturnTo } from '../lib/return-to'
import { sessions } from '../api/token'
import { messageOf } from '../lib/errors'
import { Alert, Title } from '../components/ui'

/** The exchange runs once per page load, however often the page renders. */
let exchange: Promise<string> | null = null

/** Trades the custom token for an ID token and says where to go next; rejects with the reason to show. */
async function signIn(): Promise<string> {
  const params = takeCallbackParams()
  if (params?.error) throw new Error(params.error)
  if (!params?.token) throw new Error('This sign-in link has no token; sign in again')
  const answer = await api('post', '/api/auth/token', { body: { customToken: params.token } })
  sessions.set(answer.idToken, answer.expiresIn, answer.user.samlAuthenticated)
  const remembered = sessions.takeReturnTo()
  return safeReturnTo(params.returnTo ?? remembered)
}

export default function SamlCallback() {
  const navigate = useNavigate()
  const [error, setError] = useState<string | null>(null)
  useEffect(() => {
    exchange ??= signIn()
    exchange.then((to) => navigate(to, { replace: true }), (reason: unknown) => setError(messageOf(reason)))
  }, [navigate])
  return (
    <main id="main">
      <Title>{error ? 'Sign-in failed' : 'Signing in'}</Title>
      {error ? (
        <>
          <Alert>{error}</Alert>
          <p><Link to="/sign-in">Sign in again</Link></p>
        </>
      ) : <p role="status">Signing you in…</p>}
    </main>
  )
}
