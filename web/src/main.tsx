import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createBrowserRouter, redirect, RouterProvider, useRouteError } from 'react-router'
import { captureCallbackParams } from './auth/callback-params'
import { pages } from './pages'
import { loadMe, sessionRouteId } from './session/me'
import { Shell } from './shell/shell'
import { messageOf } from './lib/errors'
import { Alert, Title } from './components/ui'
import './style.css'

// Before anything else: the custom token leaves the address bar.
captureCallbackParams()

function NotFound() {
  return (
    <>
      <Title>Page not found</Title>
      <p>Nothing is at this address. Use the navigation to find your way.</p>
    </>
  )
}

function Failure() {
  const error = useRouteError()
  return (
    <main id="main">
      <Title>Something went wrong</Title>
      <Alert>{messageOf(error)}</Alert>
    </main>
  )
}

const page = (load: () => Promise<{ default: React.ComponentType }>) => async () => ({ Component: (await load()).default })

const router = createBrowserRouter([
  { path: '/sign-in', lazy: page(() => import('./auth/sign-in')) },
  { path: '/auth/saml-callback', lazy: page(() => import('./auth/saml-callback')) },
  {
    id: sessionRouteId,
    Component: Shell,
    loader: loadMe,
    // A failed start-up call (the store down) is shown, not a blank page.
    ErrorBoundary: Failure,
    HydrateFallback: () => null,
    children: [
      { path: '/', loader: () => redirect('/dashboard') },
      ...pages.map(({ path, load }) => ({ path, lazy: page(load) })),
      { path: '*', Component: NotFound },
    ],
  },
])

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <RouterProvider router={router} />
  </StrictMode>,
)
