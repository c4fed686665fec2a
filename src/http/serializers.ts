import { SerializerSelector } from '@fastify/fast-json-stringify-compiler'

type Serialize = (value: unknown) => string
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

/**
 * Fastify's serializer factory (fast-json-stringify, shared schemas resolved) with two changes.
 *
 * Compiled on first use instead of at start-up: generating every route's serializer made start-up take
 * most of a second; compiled lazily, a route pays a few milliseconds on its first answer instead.
 *
 * A frozen object is encoded once per schema and its text remembered. The store's views are frozen
 * snapshots (a write stores a new object rather than changing one), so the text of a record read
 * before is exactly its text now, and is dropped with the object once no one holds it. A list answer's
 * items are encoded one by one this way, so a page of records already seen costs a join, not fifty
 * encodings. Anything not frozen is encoded afresh every time.
 */
export function answerSerializers() {
  const select = SerializerSelector()
  return (externalSchemas: unknown, options: unknown) => {
    const build = select(externalSchemas as never, options as never)
    const texts = new WeakMap<object, WeakMap<object, string>>()

    function remembering(route: RouteSchema): Serialize {
      const encode = build(route) as Serialize
      const schema = route.schema as object
      let known = texts.get(schema)
      if (!known) texts.set(schema, (known = new WeakMap()))
      const memo = known
      return (value) => {
        if (value === null || typeof value !== 'object' || !Object.isFrozen(value)) return encode(value)
        let text = memo.get(value)
        if (text === undefined) memo.set(value, (text = encode(value)))
        return text
      }
    }

    function list(route: RouteSchema & { schema: { properties: { items: { items: object } }; required?: readonly string[] } }): Serialize {
      const { items, ...others } = route.schema.properties
      const item = remembering({ ...route, schema: items.items })
      const required = (route.schema.required ?? []).filter((name) => name !== 'items')
      const rest = build({ ...route, schema: { ...route.schema, properties: others, required } }) as Serialize
      return (value) => {
        const page = value as { items: readonly unknown[] }
        const encoded = new Array<string>(page.items.length)
        for (let i = 0; i < encoded.length; i++) encoded[i] = item(page.items[i])
        const tail = rest(page)
        return `{"items":[${encoded.join(',')}]${tail.length > 2 ? `,${tail.slice(1)}` : '}'}`
      }
    }

    return (route: RouteSchema): Serialize => {
      let compiled: Serialize | undefined
      return (value) => {
        compiled ??= listEnvelope(route.schema) ? list(route as Parameters<typeof list>[0]) : remembering(route)
        return compiled(value)
      }
    }
  }
}
