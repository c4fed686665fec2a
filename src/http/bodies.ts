import type { FastifyInstance } from 'fastify'
import { BodyMalformed } from '../errors.js'

function parses(text: string): boolean {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/**
 * Request bodies are JSON and nothing else: Fastify would also take text/plain (as a string for the
 * validator to puzzle over); without a parser it is a 415 like any other type. A body that is valid JSON
 * but carries `__proto__` or `constructor.prototype` is refused saying so, not as "not valid JSON".
 */
export function installJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain')
  const parse = app.getDefaultJsonParser('error', 'error')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString()
    parse(request, text, (error, value) => {
      if (error && parses(text)) done(new BodyMalformed('Body carries a forbidden key (__proto__ or constructor.prototype)'), undefined)
      else done(error, value)
    })
  })
}
