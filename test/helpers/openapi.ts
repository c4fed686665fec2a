/**
 * The OpenAPI document with its schema references replaced by the schemas they name, for tests that
 * look inside an operation's schema (the document itself references each class's component).
 */
export function inlined<T>(doc: T & { components: { schemas: Record<string, unknown> } }): T {
  const { schemas } = doc.components
  const walk = (node: unknown, within: readonly string[]): unknown => {
    if (Array.isArray(node)) return node.map((item) => walk(item, within))
    if (typeof node !== 'object' || node === null) return node
    const { $ref, ...rest } = node as { $ref?: unknown }
    const name = typeof $ref === 'string' && $ref.startsWith('#/components/schemas/') ? $ref.slice('#/components/schemas/'.length) : undefined
    // A schema that contains itself is left as its reference below its first appearance.
    if (name !== undefined && !within.includes(name)) return { ...(walk(schemas[name], [...within, name]) as object), ...rest }
    return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, walk(value, within)]))
  }
  return walk(doc, []) as T
}
