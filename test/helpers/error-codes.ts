import { readFileSync } from 'node:fs'
import type { FastifyPluginAsync, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import type { Test } from 'tap'

export interface DocumentedCode {
  readonly status: number
  readonly condition: string
}

/** The table of docs/errors.md: each code with its status and condition. */
export function documentedCodes(): Map<string, DocumentedCode> {
  const text = readFileSync(new URL('../../docs/errors.md', import.meta.url), 'utf8')
  const rows = new Map<string, DocumentedCode>()
  for (const [, code, status, condition] of text.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \| (.+) \|$/gm)) {
    rows.set(code!, { status: Number(status), condition: condition! })
  }
  return rows
}

function text(payload: unknown): string | undefined {
  if (typeof payload === 'string') return payload
  if (Buffer.isBuffer(payload)) return payload.toString('utf8')
  return undefined
}

/** What is wrong with an answer of this status and payload (undefined when nothing): a 4xx or 5xx names a listed code. */
export function uncoded(status: number, payload: unknown, listed: ReadonlySet<string>): string | undefined {
  if (status < 400) return undefined
  let body: { code?: unknown; statusCode?: unknown }
  try {
    body = JSON.parse(text(payload) ?? '') as typeof body
  } catch {
    return 'a body that is not JSON'
  }
  if (typeof body?.code !== 'string') return 'no code'
  if (!listed.has(body.code)) return `code ${body.code}, which docs/errors.md does not list`
  if (body.statusCode !== status) return `statusCode ${String(body.statusCode)} in its body`
  return undefined
}

/**
 * Fails `t` whenever the app answers a 4xx or 5xx without a code listed in docs/errors.md, naming the
 * request. Every route gets the check as its last onSend hook, so it sees the answer as sent (after the
 * audit hook, which may turn it into a 503); answers no route owns (the 404, the router's own refusals)
 * are checked by an app-wide onSend hook.
 */
export function errorCodeCheck(t: Test): FastifyPluginAsync {
  const listed = new Set(documentedCodes().keys())
  const check = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    // A HEAD answer has no body to carry a code; its GET twin is checked.
    if (request.method === 'HEAD') return
    const problem = uncoded(reply.statusCode, payload, listed)
    if (problem) t.fail(`${request.method} ${request.url} answered ${reply.statusCode} with ${problem}`)
  }
  const last: onSendHookHandler = (request, reply, payload, done) => {
    check(request, reply, payload)
    done(null, payload)
  }
  return fp(async (app) => {
    app.addHook('onRoute', (route) => {
      route.onSend = [...[route.onSend ?? []].flat(), last]
    })
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.is404) check(request, reply, payload)
      done(null, payload)
    })
  }, { name: 'error-code-check' })
}
