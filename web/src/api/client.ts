import type { paths } from './schema'
import { sessions, signInPath } from './token'

type Method = 'get' | 'post' | 'put' | 'delete'
/** The API paths that answer `M`. */
export type PathsWith<M extends Method> = { [P in keyof paths]: paths[P][M] extends { responses: unknown } ? P : never }[keyof paths]
type Operation<P extends keyof paths, M extends Method> = Extract<paths[P][M], { responses: unknown }>
type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never
/** The body of the operation's success answer (200, 201, or 202 for work it queued). */
export type Answer<O> = O extends { responses: infer R } ? (R extends { 200: infer A } ? Json<A> : R extends { 201: infer A } ? Json<A> : R extends { 202: infer A } ? Json<A> : undefined) : never
type PathParams<O> = O extends { parameters: { path: infer A } } ? ([A] extends [never | undefined] ? never : A) : never
type Query<O> = O extends { parameters: { query?: infer Q } } ? Q : never
type HeaderParams<O> = O extends { parameters: { header?: infer H } } ? H : never
type Body<O> = O extends { requestBody?: { content: { 'application/json': infer B } } } ? B : never

export interface RequestOptions<O> {
  readonly path?: PathParams<O>
  readonly query?: Query<O>
  readonly body?: Body<O>
  /** The request headers the operation documents, such as a restore's `if-match`. */
  readonly headers?: HeaderParams<O>
}

/** A refusal or failure, with the server's own message (docs/web.md: shown as it is). */
export class ApiError extends Error {
  /** `code` is the answer's ADKS_* code, where a page must tell refusals of one status apart (409s). */
  constructor(readonly status: number, message: string, readonly code?: string) {
    super(message)
  }
}

function urlOf(path: string, params: unknown, query: unknown): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String((params as Record<string, unknown> | undefined)?.[name] ?? '')))
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries((query ?? {}) as Record<string, unknown>)) if (value !== undefined) search.set(name, String(value))
  const text = search.toString()
  return text ? `${filled}?${text}` : filled
}

/**
 * Calls the public API with the tab's ID token, typed by the operation the path names in the served
 * OpenAPI document (api/schema.d.ts). Nothing is cached by the browser. A 401 to a request that sent a
 * token means the session ended: it is forgotten and the visitor is sent to sign in, coming back here.
 */
export async function api<M extends Method, P extends PathsWith<M>>(method: M, path: P, options: RequestOptions<Operation<P, M>> = {}): Promise<Answer<Operation<P, M>>> {
  const session = sessions.get()
  const headers: Record<string, string> = { ...(options.headers as Record<string, string> | undefined), accept: 'application/json' }
  if (session) headers.authorization = `Bearer ${session.idToken}`
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(urlOf(path, options.path, options.query), {
    method: method.toUpperCase(),
    headers,
    cache: 'no-store',
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
  })
  const text = await response.text()
  const json = text ? (JSON.parse(text) as unknown) : undefined
  if (!response.ok) {
    if (response.status === 401 && session) {
      sessions.clear()
      const here = window.location.pathname + window.location.search
      sessions.rememberReturnTo(here)
      window.location.assign(signInPath(here))
    }
    const { error: message, code } = (json ?? {}) as { error?: unknown; code?: unknown }
    throw new ApiError(response.status, typeof message === 'string' ? message : `The server answered ${response.status}`, typeof code === 'string' ? code : undefined)
  }
  return json as Answer<Operation<P, M>>
}
