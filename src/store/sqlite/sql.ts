/** SQL text the adapter builds from names it did not choose: collection and field names. */

export function quoteName(name: string): string {
  return `"${name.replaceAll('"', '""')}"`
}

/**
 * A field's JSON path as an SQL literal. It is written into the statement, not bound, because SQLite
 * uses an expression index only for a query whose expression is written exactly as the index's.
 */
export function jsonPath(field: string): string {
  const segments = field.split('.')
  for (const segment of segments) {
    if (!segment || /["'\\]/.test(segment)) throw new TypeError(`${field} is not a field name the store can index`)
  }
  return `'$.${segments.map((segment) => `"${segment}"`).join('.')}'`
}

/** The expression an index on a field is built on, and the one queries must write to use it. */
export function fieldExpression(field: string): string {
  return field === '_id' ? '_id' : `json_extract(doc, ${jsonPath(field)})`
}

/** The smallest string after every string that starts with `prefix`, in SQLite's (UTF-8 byte) order. */
export function prefixEnd(prefix: string): string {
  return `${prefix}\u{10FFFF}`
}

/** Characters as SQLite's substr counts them: code points, not UTF-16 units. */
export function codePoints(text: string): number {
  let n = 0
  for (const _ of text) n++
  return n
}
