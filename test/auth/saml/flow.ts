import { inflateRawSync } from 'node:zlib'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import type { AppOptions } from '../../../src/app.js'
import { buildTestApp, type TestApp } from '../../helpers/app.js'
import { TestIdp } from './idp.js'

export const spUrl = 'https://sp.dept.edu'
export const frontendUrl = 'https://app.dept.edu'
export const acsUrl = `${spUrl}/api/auth/saml/callback`

/** A test IdP whose assertions are addressed to the service that samlEnv configures. */
export const newIdp = () => new TestIdp(acsUrl, spUrl)

export function samlEnv(idp: TestIdp, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PUBLIC_URL: spUrl,
    FRONTEND_URL: frontendUrl,
    SAML_IDP_SSO_URL: idp.ssoUrl,
    SAML_IDP_LOGOUT_URL: idp.logoutUrl,
    SAML_IDP_CERT: idp.keys.certificate,
    SAML_IDP_ENTITY_ID: idp.entityId,
    ...extra,
  }
}

export async function buildSamlApp(t: Test, idp: TestIdp, extra: Record<string, string> = {}, options: AppOptions = {}): Promise<TestApp> {
  return buildTestApp(t, samlEnv(idp, extra), options)
}

export interface StartedLogin {
  /** The AuthnRequest's ID, which the response must answer. */
  readonly requestId: string
  readonly relayState: string
  readonly location: URL
  readonly authnRequest: string
}

/** GET /api/auth/saml/login and read the AuthnRequest out of the redirect, as the IdP would. */
export async function startLogin(app: FastifyInstance, returnTo?: string): Promise<StartedLogin> {
  const query = returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(returnTo)}`
  const response = await app.inject({ method: 'GET', url: `/api/auth/saml/login${query}` })
  if (response.statusCode !== 302) throw new Error(`login answered ${response.statusCode}: ${response.body}`)
  const location = new URL(String(response.headers.location))
  const authnRequest = inflateRawSync(Buffer.from(location.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8')
  const requestId = /\sID="([^"]+)"/.exec(authnRequest)![1]!
  return { requestId, relayState: location.searchParams.get('RelayState')!, location, authnRequest }
}

/** POST the SAMLResponse as the browser's auto-submitted form does; `json` asks for a JSON answer. */
export function postCallback(app: FastifyInstance, samlResponse: string, relayState?: string, json = false): Promise<LightMyRequestResponse> {
  const form = new URLSearchParams({ SAMLResponse: samlResponse, ...(relayState ? { RelayState: relayState } : {}) })
  return app.inject({
    method: 'POST',
    url: '/api/auth/saml/callback',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: json ? 'application/json' : 'text/html,application/xhtml+xml' },
    payload: form.toString(),
  })
}

/** The frontend URL a callback redirected to, with its query as an object. */
export function frontendRedirect(response: LightMyRequestResponse): { url: URL; params: Record<string, string> } {
  const url = new URL(String(response.headers.location))
  return { url, params: Object.fromEntries(url.searchParams) }
}

/** Log lines the app writes, parsed; lets a test see why a sign-in was rejected. */
export class LogCapture {
  readonly lines: string[] = []
  readonly stream = { write: (line: string) => { this.lines.push(line) } }

  /** The reason logged for the most recent rejected sign-in. */
  lastReason(): string | undefined {
    for (let i = this.lines.length - 1; i >= 0; i--) {
      const entry = JSON.parse(this.lines[i]!) as { msg?: string; reason?: string }
      if (entry.msg === 'SAML sign-in rejected') return entry.reason
    }
    return undefined
  }
}

export interface Harness extends TestApp {
  readonly logs: LogCapture
}

/** An app with SAML configured for `idp` whose warnings are captured. */
export async function harness(t: Test, idp: TestIdp, extra: Record<string, string> = {}): Promise<Harness> {
  const logs = new LogCapture()
  const built = await buildSamlApp(t, idp, { LOG_LEVEL: 'warn', ...extra }, { logStream: logs.stream })
  return { ...built, logs }
}

export interface Expected {
  readonly message: 'SAML validation failed' | 'Signature validation failed' | 'User not found after SAML login'
  readonly status?: number
  /** What the log must give as the reason, so the test fails if something else rejected it. */
  readonly reason?: RegExp
}

/** The code of each spec message; a 400 is a post that is not a SAML response at all. */
function samlCode(expected: Expected): string {
  if (expected.status === 400) return 'ADKS_SAML_MALFORMED'
  const codes: Record<string, string> = {
    'SAML validation failed': 'ADKS_SAML_INVALID',
    'Signature validation failed': 'ADKS_SAML_SIGNATURE_INVALID',
    'User not found after SAML login': 'ADKS_SAML_USER_UNUSABLE',
  }
  return codes[expected.message] ?? 'unknown message'
}

/** Posts the response as a JSON client and checks that it is rejected with the spec's message and its code. */
export async function expectRejected(t: Test, h: Harness, samlResponse: string, expected: Expected, relayState?: string): Promise<void> {
  const before = h.logs.lines.length
  const response = await postCallback(h.app, samlResponse, relayState, true)
  t.equal(response.statusCode, expected.status ?? 401, `answers ${expected.status ?? 401}`)
  t.same(response.json(), { success: false, error: expected.message, statusCode: expected.status ?? 401, code: samlCode(expected) })
  if (expected.reason) {
    t.ok(h.logs.lines.length > before, 'the rejection is logged')
    t.match(h.logs.lastReason(), expected.reason, `for the expected reason (${h.logs.lastReason()})`)
  }
}

/** Posts the response as a JSON client and expects a custom token. */
export async function expectAccepted(t: Test, h: Harness, samlResponse: string, relayState?: string): Promise<{ token: string; returnTo: string }> {
  const response = await postCallback(h.app, samlResponse, relayState, true)
  t.equal(response.statusCode, 200, `accepted${response.statusCode === 200 ? '' : `: ${h.logs.lastReason()}`}`)
  return response.json()
}
