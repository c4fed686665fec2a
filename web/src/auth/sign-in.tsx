import { useEffect, useState } from 'react'
import { useSearchParams } from 'react-router'
import { safeReturnTo } from '../lib/return-to'
import { sessions } from '../api/token'
import { Alert, Title } from '../components/ui'

/** Whether single sign-on is configured: its public metadata route answers 404 when it is not (docs/auth.md). */
async function samlConfigured(): Promise<boolean> {
  const response = await fetch('/api/auth/saml/metadata', { method: 'HEAD', cache: 'no-store' })
  return response.ok
}

export default function SignIn() {
  const [query] = useSearchParams()
  const returnTo = safeReturnTo(query.get('returnTo') ?? sessions.takeReturnTo())
  const error = query.get('error')
  const [saml, setSaml] = useState<boolean | null>(null)
  useEffect(() => {
    // Kept for a sign-in that brings no returnTo of its own (a link from `npm run token`).
    sessions.rememberReturnTo(returnTo)
    samlConfigured().then(setSaml, () => setSaml(false))
  }, [returnTo])
  return (
    <main id="main">
      <Title>Sign in</Title>
      {error && <Alert>{error}</Alert>}
      {saml === null && <p role="status">Checking how to sign in…</p>}
      {saml === true && (
        <p><a className="button" href={`/api/auth/saml/login?returnTo=${encodeURIComponent(returnTo)}`}>Sign in with your campus account</a></p>
      )}
      {saml === false && (
        <>
          <p>Single sign-on is not configured for this service. Ask whoever runs it for a sign-in link, or, on the server, run:</p>
          <pre><code>npm run token -- EMAIL --role ROLE --link</code></pre>
          <p>and open the link it prints (it works once, within 15 minutes).</p>
        </>
      )}
    </main>
  )
}
