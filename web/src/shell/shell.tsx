import { useState, type MouseEvent } from 'react'
import { NavLink, Outlet, useNavigate } from 'react-router'
import { navGroups, pages, type Page } from '../pages'
import { signOut, useMe, type Me } from '../session/me'
import { UnreadLink } from './unread-link'

/** The navigation entries `me` sees, by group; a group with none is left out. */
function navOf(me: Me): { key: string; label: string; entries: Page[] }[] {
  const seen = pages.filter(({ nav }) => nav && (!nav.roles || (nav.roles as readonly string[]).includes(me.role)))
  return navGroups
    .map(({ key, label }) => ({ key, label, entries: seen.filter(({ nav }) => nav!.group === key) }))
    .filter((group) => group.entries.length > 0)
}

export function Shell() {
  const me = useMe()
  const navigate = useNavigate()
  // On a phone the navigation folds under "Menu" (style.css); following one of its links folds it again.
  const [menuOpen, setMenuOpen] = useState(false)
  const followed = (event: MouseEvent) => { if (event.target instanceof Element && event.target.closest('a')) setMenuOpen(false) }
  return (
    <>
      <a className="skip" href="#main">Skip to content</a>
      <header className="masthead">
        <button type="button" className="menu-toggle" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen((open) => !open)}>Menu</button>
        <nav aria-label="Main" id="main-nav" className={menuOpen ? 'open' : undefined} onClick={followed}>
          <ul className="nav-groups">
            {navOf(me).map((group) => (
              <li key={group.key}>
                <span className="nav-group" id={`nav-${group.key}`}>{group.label}</span>
                <ul aria-labelledby={`nav-${group.key}`}>
                  {group.entries.map(({ path, nav }) => (
                    <li key={path}>{nav!.unread ? <UnreadLink to={path} label={nav!.label} /> : <NavLink to={path}>{nav!.label}</NavLink>}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </nav>
        <p className="who">Signed in as {me.email} ({me.role})</p>
        <button type="button" className="sign-out" onClick={() => { void signOut().then((toIdp) => { if (!toIdp) navigate('/sign-in') }) }}>Sign out</button>
      </header>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
    </>
  )
}
