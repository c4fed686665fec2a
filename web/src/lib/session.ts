/** What sessionStorage offers, so the store can be tested without a browser. */
export interface KeyValueStore {
  getItem(key: string): string | null
  setItem(key: string, value: string): void
  removeItem(key: string): void
}

export interface Session {
  readonly idToken: string
  /** Milliseconds since the epoch after which the server refuses the token. */
  readonly expiresAt: number
  /** Signed in through single sign-on: signing out also ends the IdP's session. */
  readonly saml: boolean
}

const sessionKey = 'adks.session'
const returnToKey = 'adks.returnTo'
/** Forget the token a little before the server would refuse it, so no request is sent with a dying one. */
const marginMs = 10_000

/**
 * The ID token, in memory and in the tab's sessionStorage (so a reload keeps it and closing the tab
 * forgets it); never localStorage, never a cookie (docs/web.md, "Signing in"). It holds only the caller's own token,
 * never data, and decides no access: the server checks the token on every request. It is dropped when
 * read within 10 s of expiry, at sign-out, and when the API answers 401 to it (a revocation, by this tab
 * or another instance). Shown by test/web/logic.test.ts (expiry, storage) and test/web/sign-in.test.ts
 * (sign-out revokes and forgets it).
 */
export class SessionStore {
  private current: Session | null | undefined

  constructor(private readonly storage: KeyValueStore, private readonly now: () => number = Date.now) {}

  get(): Session | null {
    if (this.current === undefined) this.current = this.read()
    if (this.current && this.current.expiresAt - marginMs <= this.now()) this.clear()
    return this.current ?? null
  }

  set(idToken: string, expiresInSeconds: number, saml: boolean): Session {
    this.current = { idToken, expiresAt: this.now() + expiresInSeconds * 1000, saml }
    this.storage.setItem(sessionKey, JSON.stringify(this.current))
    return this.current
  }

  clear(): void {
    this.current = null
    this.storage.removeItem(sessionKey)
  }

  /** Remembers where a signed-out visitor was going, for a sign-in that carries no returnTo (a link). */
  rememberReturnTo(path: string): void {
    this.storage.setItem(returnToKey, path)
  }

  /** The remembered path, once. */
  takeReturnTo(): string | null {
    const path = this.storage.getItem(returnToKey)
    this.storage.removeItem(returnToKey)
    return path
  }

  private read(): Session | null {
    const raw = this.storage.getItem(sessionKey)
    if (!raw) return null
    try {
      const value = JSON.parse(raw) as Partial<Session>
      if (typeof value.idToken === 'string' && typeof value.expiresAt === 'number') return { idToken: value.idToken, expiresAt: value.expiresAt, saml: value.saml === true }
    } catch {
      // A damaged entry is no session.
    }
    this.storage.removeItem(sessionKey)
    return null
  }
}
