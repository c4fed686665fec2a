import type { LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import { documentedCodes } from './error-codes.js'

const codes = documentedCodes()

/**
 * Checks an error answer: the status, the exact `{success: false, error, statusCode, code}` shape with a
 * code listed for that status, a message that mentions what was wrong, and nothing of the server's insides.
 */
export function refused(t: Test, answer: LightMyRequestResponse, status: number, mention: RegExp | string, label: string): void {
  let body: Record<string, unknown> = {}
  try {
    body = answer.json()
  } catch {
    t.fail(`${label}: the answer is JSON`, { body: answer.body })
    return
  }
  t.equal(answer.statusCode, status, `${label}: ${status}`, { body: answer.body })
  t.same(Object.keys(body).sort(), ['code', 'error', 'statusCode', 'success'], `${label}: the error shape`, { body: answer.body })
  t.same([body.success, body.statusCode], [false, status], `${label}: success false and the status`)
  t.equal(codes.get(String(body.code))?.status, status, `${label}: ${String(body.code)} is a listed code of status ${status}`)
  t.match(String(body.error), mention, `${label}: the message names the problem`)
  t.notMatch(answer.body, /\bat \S+ \(|node_modules|\.[jt]s:\d+|stack/i, `${label}: no stack or source path`)
}
