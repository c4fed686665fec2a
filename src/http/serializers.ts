import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'
import type { FastifyServerOptions } from 'fastify'
import { isDeeplyFrozen } from '../store/freeze.js'

type Text = (value: unknown) => string
/** Fastify sends a serializer's Buffer as it is, with its length as Content-Length. */
type Serialize = (value: unknown) => string | Buffer
type Build = ReturnType<ReturnType<typeof SerializerSelector>>
type RouteSchema = Parameters<Build>[0]

interface ObjectSchema {
  readonly type?: unknown
  readonly properties?: Readonly<Record<string, { readonly type?: unknown; readonly items?: object }>>
}

/** A list answer `{items, total, limit, offset}`: its items are encoded one by one. */
function listEnvelope(schema: unknown): schema is ObjectSchema & { properties: { items: { items: object } } } {
  const { type, properties } = (schema ?? {}) as ObjectSchema
  if (type !== 'object' || !properties) return false
  const names = Object.keys(properties)
  return names[0] === 'items' && properties.items?.type === 'array' && typeof properties.items.items === 'object'
    && ['total', 'limit', 'offset'].every((name) => names.includes(name))
}

const open = Buffer.from('{"items":[')

/** Bytes in a buffer of their own: a slice of Node's shared pool would keep the whole pool slab alive. */
function ownBytes(text: string): Buffer {
  const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(text))
  bytes.write(text)
  return bytes
}
const comma = Buffer.from(',')

/**
 * Fastify's serializer factory (fast-json-stringify, shared schemas resolved) with two changes.
 *
 * Compiled on first use instead of at start-up: generating every route's serializer made start-up take
 * most of a second; compiled lazily, a route pays a few milliseconds on its first answer instead.
 *
 * A deeply frozen object is encoded once per schema and its UTF-8 bytes remembered. The store's views
 * are frozen all the way down by the store itself (store/freeze.ts, which marks what it froze so), and a
 * write stores a new object rather than changing one, so the bytes of a record read before are exactly
 * its bytes now. A list answer is put together from its items' bytes, so a page of records already seen
 * costs one copy, not fifty encodings and a conversion of the whole text. Anything else, even an object
 * Object.isFrozen calls frozen (which looks at its top level only), is encoded afresh every time.
 *
 * Cache rule. Holds: per schema, the bytes of each object `freezeDeep` froze, weakly (they go with the
 * object once no one holds it). Invalidated by: nothing, and nothing needs to: such an object can never
 * change, and a write to its record makes a new object, which is encoded afresh. Test:
 * test/http/serializers.test.ts (a shallow-frozen object whose nested array changes is sent with its new
 * content), test/cache/invalidation.test.ts (a person read after an update shows the update).
 */
type SerializerFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildSerializer']

export function answerSerializers(): SerializerFactory {
  const select = SerializerSelector()
  return ((externalSchemas: unknown, options: unknown) => {
    const build = select(externalSchemas as never, options as never)
    const remembered = new WeakMap<object, WeakMap<object, Buffer>>()

    /** The encoder of one schema, and the bytes of a value under it (remembered for deeply frozen values). */
    function encoder(route: RouteSchema) {
      const text = build(route) as Text
      const schema = route.schema as object
      let known = remembered.get(schema)
      if (!known) remembered.set(schema, (known = new WeakMap()))
      const memo = known
      const bytes = (value: unknown): Buffer => {
        if (!isDeeplyFrozen(value)) return Buffer.from(text(value))
        let encoded = memo.get(value)
        if (encoded === undefined) memo.set(value, (encoded = ownBytes(text(value))))
        return encoded
      }
      const serialize: Serialize = (value) => (isDeeplyFrozen(value) ? bytes(value) : text(value))
      return { bytes, serialize }
    }

    function list(route: RouteSchema & { schema: { properties: { items: { items: object } }; required?: readonly string[] } }): Serialize {
      const { items, ...others } = route.schema.properties
      const item = encoder({ ...route, schema: items.items }).bytes
      const required = (route.schema.required ?? []).filter((name) => name !== 'items')
      const rest = build({ ...route, schema: { ...route.schema, properties: others, required } }) as Text
      return (value) => {
        const page = value as { items: readonly unknown[] }
        const tail = rest(page)
        const parts: Buffer[] = [open]
        for (let i = 0; i < page.items.length; i++) {
          if (i > 0) parts.push(comma)
          parts.push(item(page.items[i]))
        }
        parts.push(Buffer.from(tail.length > 2 ? `],${tail.slice(1)}` : ']}'))
        return Buffer.concat(parts)
      }
    }

    return (route: RouteSchema): Serialize => {
      let compiled: Serialize | undefined
      return (value) => {
        compiled ??= listEnvelope(route.schema) ? list(route as Parameters<typeof list>[0]) : encoder(route).serialize
        return compiled(value)
      }
    }
  }) as unknown as SerializerFactory // Fastify's types promise strings; at run time it sends a Buffer as it is (see Serialize).
}
