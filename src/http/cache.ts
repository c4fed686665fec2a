import { gzip } from 'node:zlib'
import { Negotiator } from '@fastify/accept-negotiator'
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import { LRUCache } from 'lru-cache'
import type { CacheKey } from '../cache/port.js'
import type { CacheLookup, ResponseCache } from '../cache/response-cache.js'
import { isAdmin } from '../privacy/relations.js'
import type { StudentReferences } from '../privacy/student-references.js'
import type { CompiledSchema } from '../schema/index.js'
import { fieldsOf } from './fields.js'

/** A route's cache declaration: how long its answers live and which collections they are computed from. */
export interface CachePolicy {
  readonly ttlSeconds: number
  readonly dependsOn: readonly string[]
  /** The resource the answers belong to (`people`, `courses`), for clearing one type. */
  readonly group: string
  /** Whether answers may name students in reference fields (a publication's dept_authors), so differ by caller. */
  readonly namesStudents?: boolean
}

interface Pending {
  readonly key: CacheKey
  readonly generations: readonly string[]
  readonly policy: CachePolicy
  readonly admin: boolean
}

declare module 'fastify' {
  interface FastifyContextConfig {
    cache?: CachePolicy
  }
  interface FastifyRequest {
    /** Set on a cache miss that may be stored once the answer is ready. */
    cacheMiss: Pending | null
  }
}

function sorted(value: object): string {
  return JSON.stringify(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

type KeyOf = (request: FastifyRequest, admin: boolean) => string

/**
 * How a route's requests become cache keys: everything that changes the answer. The route, its path
 * parameters (an id in either path form arrives here as the same value), the validated query with
 * defaults applied (so parameter order and an explicit default do not matter), and the caller's
 * visibility class. Only admins see student records; every other caller with the route's permission
 * gets the same answer, so non-admins share entries. On routes whose answers may name students in their
 * references, a non-admin who may see some student by relation does not share (see lookupFor). Where
 * the query schema admits only the parameters it names, the key reads those, in a fixed order;
 * otherwise every parameter sent, sorted.
 */
function keyRecipe(route: RouteOptions): KeyOf {
  const params = [...route.url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!).sort()
  const query = route.schema?.querystring as { properties?: object; additionalProperties?: unknown } | undefined
  const names = query?.additionalProperties === false ? Object.keys(query.properties ?? {}).sort() : null
  const head = `\n${route.method} ${route.url}`
  return (request, admin) => {
    let id = (admin ? 'admin' : 'member') + head
    const values = fieldsOf(request.params)
    for (const name of params) id += `\n${JSON.stringify(values[name])}`
    const q = fieldsOf(request.query)
    if (!names) return `${id}\n${sorted(q)}`
    for (const name of names) id += q[name] === undefined ? '\n' : `\n${JSON.stringify(q[name])}`
    return id
  }
}

/** Bodies this large or larger are also kept gzip-compressed; below it compression gains too little. */
const compressFrom = 1024

/** A strong validator names one representation; the compressed one gets the weak form (RFC 9110 8.8.1). */
function weak(etag: string): string {
  return etag.startsWith('W/') ? etag : `W/${etag}`
}

function hooksOf<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value]
}

async function responseCache(app: FastifyInstance, { cache, schema, students }: { cache: ResponseCache; schema: CompiledSchema; students: StudentReferences }) {
  app.decorateRequest('cacheMiss', null)
  if (!cache.enabled) return
  const studentClasses = new Set([...schema.model.classes.values()].filter((c) => c.metadata.student || c.metadata.visible_to).map((c) => c.name))
  const isStudent = (record: unknown) => studentClasses.has((record as { type?: string } | null)?.type ?? '')

  /**
   * An answer about a student reached a non-admin only through a relation (the student, an advisor), so
   * it must not be shared with other non-admins: neither a student record nor anything under one's id.
   */
  function concernsStudent(request: FastifyRequest, payload: unknown): boolean {
    const id = fieldsOf(request.params).id
    if (typeof id === 'string' && studentClasses.has(schema.classOfId(id)?.name ?? '')) return true
    const items = (payload as { items?: unknown } | null)?.items
    return isStudent(payload) || (Array.isArray(items) && items.some(isStudent))
  }

  // Cache rule. Holds: the encoding chosen for each of the last 64 Accept-Encoding values. Invalidated
  // by: nothing, and nothing needs to: the answer depends on the header text and the two encodings
  // offered, both fixed, and on no data. Test: test/cache/compression.test.ts.
  const encodings = new Negotiator({ supportedValues: ['gzip', 'identity'], cache: new LRUCache<string, string>({ max: 64 }) })

  /**
   * On a hit, answers from the cache and never calls `done`: compressed to a client that accepts gzip,
   * when the entry has a compressed form. Otherwise notes the miss and goes on.
   */
  function answer(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction, key: CacheKey, admin: boolean, found: CacheLookup) {
    if (found.state === 'hit') {
      const { entry } = found
      reply.header('content-type', entry.contentType).header('x-cache', 'hit')
      const accept = request.headers['accept-encoding']
      if (entry.gzip && accept && encodings.negotiate(accept) === 'gzip') {
        reply.header('content-encoding', 'gzip')
        if (entry.etag) reply.header('etag', weak(entry.etag))
        reply.send(entry.gzip)
        return
      }
      if (entry.etag) reply.header('etag', entry.etag)
      reply.send(entry.body)
      return
    }
    reply.header('x-cache', found.state)
    if (found.state === 'miss') request.cacheMiss = { key, generations: found.generations, policy: request.routeOptions.config.cache!, admin }
    done()
  }

  // Runs after the request gate, so a caller without permission never reaches a cached answer. Callback
  // style, so a hit in the in-process cache is answered without waiting on a promise.
  function lookupFor(route: RouteOptions, policy: CachePolicy) {
    const keyOf = keyRecipe(route)
    const consult = (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction, admin: boolean) => {
      const key = { group: policy.group, id: keyOf(request, admin) }
      const found = cache.lookup(key, policy.dependsOn)
      if (!(found instanceof Promise)) return answer(request, reply, done, key, admin, found)
      found.then((result) => answer(request, reply, done, key, admin, result), done)
    }
    return function lookUpCachedAnswer(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
      // Whether this answer comes compressed depends on Accept-Encoding, so shared caches must know it.
      reply.header('vary', 'accept-encoding')
      const principal = request.principal
      const admin = principal !== null && isAdmin(principal)
      if (!policy.namesStudents || admin || principal?.kind !== 'user') return consult(request, reply, done, admin)
      // Non-admins share one answer, with every student left out of it; a caller who may see some student
      // (one themselves, or an advisor) gets an answer of their own, neither read from nor stored for others.
      students.visibleByRelation(principal).then((seen) => {
        if (!seen.size) return consult(request, reply, done, admin)
        reply.header('x-cache', 'bypass')
        done()
      }, done)
    }
  }

  function screen(request: FastifyRequest, _reply: FastifyReply, payload: unknown, done: (error: Error | null, payload: unknown) => void) {
    if (request.cacheMiss && !request.cacheMiss.admin && concernsStudent(request, payload)) request.cacheMiss = null
    done(null, payload)
  }

  function store(request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload: unknown) => void) {
    const miss = request.cacheMiss
    if (miss && reply.statusCode === 200 && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      const etag = reply.getHeader('etag')
      const entry = {
        generations: miss.generations,
        contentType: String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8'),
        ...(typeof etag === 'string' ? { etag } : {}),
        body: typeof payload === 'string' ? Buffer.from(payload) : payload,
      }
      cache.save(miss.key, entry, miss.policy.ttlSeconds)
      // Compressed once, off the event loop, then added to the entry if it is still stored (a clear may
      // come first); until then, and if compression fails, hits are answered uncompressed.
      if (entry.body.length >= compressFrom) gzip(entry.body, (error, compressed) => { if (!error) cache.amend(miss.key, { ...entry, gzip: compressed }) })
    }
    done(null, payload)
  }

  // A write answers only after its invalidation has landed, so a read that follows it never sees the old answer.
  async function settle(_request: FastifyRequest, _reply: FastifyReply, payload: unknown) {
    await cache.settled()
    return payload
  }

  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = hooksOf(route.method)
    if (methods.length === 1 && methods[0] === 'GET' && route.config?.cache) {
      route.preHandler = [...hooksOf(route.preHandler), lookupFor(route, route.config.cache)] as RouteOptions['preHandler']
      route.preSerialization = [...hooksOf(route.preSerialization), screen] as RouteOptions['preSerialization']
      route.onSend = [...hooksOf(route.onSend), store] as RouteOptions['onSend']
    } else if (methods.some((m) => m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS')) {
      route.onSend = [...hooksOf(route.onSend), settle] as RouteOptions['onSend']
    }
  })
}

export const responseCachePlugin = fp(responseCache, { name: 'response-cache', dependencies: ['auth'] })
