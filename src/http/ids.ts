import type { IncomingMessage } from 'node:http'

/** The longest path segment the router matches to a parameter; a longer one is a 414. */
export const maxParamLength = 300

/**
 * Lets an id travel as two raw path segments: /api/people/Faculty/jsmith/publications is routed as
 * /api/people/Faculty%2Fjsmith/publications. Only a segment that names a stored class followed by another
 * segment is joined, so static paths such as /api/schemas/Faculty are untouched.
 */
export function idPathRewriter(classNames: ReadonlySet<string>): (req: IncomingMessage) => string {
  return (req) => {
    const url = req.url ?? '/'
    if (!url.startsWith('/api/')) return url
    const query = url.indexOf('?')
    const end = query === -1 ? url.length : query
    // Nothing to join without two segments after the resource's: /api/<resource>/<Class>/<key>.
    const afterResource = url.indexOf('/', 5)
    if (afterResource === -1 || afterResource >= end) return url
    const afterClass = url.indexOf('/', afterResource + 1)
    if (afterClass === -1 || afterClass >= end) return url
    const path = url.slice(0, end)
    const segments = path.split('/')
    for (let i = 3; i < segments.length - 1; i++) {
      if (classNames.has(segments[i]!) && segments[i + 1]) {
        segments.splice(i, 2, `${segments[i]}%2F${segments[i + 1]}`)
        return segments.join('/') + (query === -1 ? '' : url.slice(query))
      }
    }
    return url
  }
}
