import { existsSync } from 'node:fs'
import { join } from 'node:path'
import helmet from '@fastify/helmet'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance } from 'fastify'
import { allow } from '../auth/permissions.js'
import { UrlTooLong, WebAppNotBuilt, withHeaders } from '../errors.js'
import { maxParamLength } from './ids.js'

/** Pages and assets are public and, like /health, never counted: a campus behind one address loads them freely. */
const uncounted = { policy: allow.public, rateLimit: false as const }
const yearMs = 365 * 24 * 3600 * 1000

/**
 * The app's own scripts and styles only: nothing inline, no eval, no other origin, never framed.
 * Browsers upgrade nothing (the service is also run over plain http on a laptop or behind a proxy).
 */
const contentSecurityPolicy = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", 'data:'],
    fontSrc: ["'self'"],
    connectSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
}

function notBuilt(): never {
  throw withHeaders(new WebAppNotBuilt('The web app is not built: run `npm run build:web` (`npm start` builds it)'), { 'cache-control': 'no-store' })
}

/**
 * Pages: every GET path no other route claims answers index.html (the app routes in the browser),
 * never cached, so a new build is picked up at the next load; `/assets/` holds Vite's fingerprinted
 * files, cached for a year. Helmet's headers (the CSP, `Referrer-Policy: no-referrer`, frame denial)
 * are set here only, so the API's requests do not pay for them.
 */
async function pages(app: FastifyInstance, { root }: { root: string }) {
  if (!existsSync(join(root, 'index.html'))) {
    app.get('/*', { config: uncounted, schema: { hide: true } }, () => notBuilt())
    return
  }
  await app.register(helmet, { contentSecurityPolicy, referrerPolicy: { policy: 'no-referrer' }, frameguard: { action: 'deny' } })
  // The build writes .br and .gz beside each text file (web/compress.ts): sent as the browser accepts.
  await app.register(fastifyStatic, { root, serve: false, preCompressed: true })
  app.get<{ Params: { '*': string } }>('/assets/*', { config: uncounted, schema: { hide: true } }, (request, reply) =>
    reply.sendFile(`assets/${request.params['*']}`, { immutable: true, maxAge: yearMs, cacheControl: true }))
  app.get('/*', { config: uncounted, schema: { hide: true } }, (_request, reply) =>
    reply.header('cache-control', 'no-store').sendFile('index.html', { cacheControl: false }))
}

/**
 * The web app (docs/web.md) at `/`, from the built directory. A GET under /api that no route claims
 * still gets the API's JSON 404, counted against the caller's rate limit like any unrouted request.
 */
export async function webAppPlugin(app: FastifyInstance, { root }: { root: string }) {
  app.get('/api/*', { config: { policy: allow.public }, schema: { hide: true } }, (request, reply) => {
    // The router falls back to this route when a segment is too long for a parameter; it stays the 414 it was.
    if (request.url.split('?')[0]!.split('/').some((segment) => segment.length > maxParamLength)) throw new UrlTooLong('A path parameter is too long')
    return reply.callNotFound()
  })
  await app.register(pages, { root })
}
