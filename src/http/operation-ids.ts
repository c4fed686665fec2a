import type { RouteOptions } from 'fastify'

const pascal = (segment: string) => segment.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]!.toUpperCase() + w.slice(1)).join('')
const camel = (segment: string) => pascal(segment).replace(/^./, (c) => c.toLowerCase())

/** One of a collection: `people` is a Person, `categories` a Category, `jobs` a Job. */
export function singular(word: string): string {
  if (/people$/i.test(word)) return word.replace(/eople$/, 'erson')
  if (/ies$/.test(word)) return word.replace(/ies$/, 'y')
  if (/(ss|us|is)$/.test(word)) return word
  return word.replace(/s$/, '')
}

/**
 * The noun a path addresses, as English compounds it: every word but the last singular (a
 * `/fellowships/applications` item is a FellowshipApplication), the last plural unless a parameter picks
 * one item of it, and a word its predecessor already ends with said once (`/award-nominations/nominations`).
 */
function nounOf(segments: readonly string[], one = false): string {
  const words: { word: string; plural: boolean }[] = []
  segments.forEach((segment, i) => {
    if (segment.startsWith(':')) return
    const next = segments[i + 1]
    const plural = next === undefined ? !one : !next.startsWith(':') && segments.slice(i + 1).every((s) => s.startsWith(':'))
    const word = pascal(segment)
    const previous = words.at(-1)
    if (previous && singular(previous.word).endsWith(singular(word))) previous.plural = plural
    else words.push({ word, plural })
  })
  return words.map(({ word, plural }) => (plural ? word : singular(word))).join('')
}

interface ListShape { type?: unknown; properties?: { items?: { type?: unknown } } }
const pageFields = new Set(['items', 'total', 'limit', 'offset'])

/** A list answer: an array, or a page `{items, total, limit, offset}` (or some of them). */
function answersList(route: RouteOptions): boolean {
  const ok = (route.schema?.response as Record<string, ListShape> | undefined)?.['200']
  if (ok?.type === 'array') return true
  return ok?.type === 'object' && ok.properties?.items?.type === 'array' && Object.keys(ok.properties).every((name) => pageFields.has(name))
}

/** Action segments that are nouns, as the verb an operationId wants. */
const verbs: Record<string, string> = { decision: 'decide' }

/**
 * The operationId of a route without one of its own, from its method, path and answers, so that it is
 * stable as long as the route is: GET of a list `list<Nouns>` (listPeople), GET of one `get<Noun>`
 * (getPerson), POST answering 201 `create<Noun>` (createPerson), PUT and PATCH `update<Noun>`, DELETE
 * `delete<Noun>`; a POST that starts a job (202) on a collection `start<Nouns>`, and any other POST is
 * the action its last segment names (`/thesis/requests/:id/approve` is approveThesisRequest).
 */
export function derivedOperationId(method: string, route: RouteOptions): string {
  const segments = route.url.split('/').filter((s) => s && s !== 'api')
  const last = segments.at(-1) ?? ''
  const answers = Object.keys(route.schema?.response ?? {})
  switch (method) {
    // A list under a parameter (`/student-plans/:studentId`) is still many.
    case 'GET': return answersList(route) ? `list${nounOf(segments.filter((s) => !s.startsWith(':') || s !== last))}` : `get${nounOf(segments)}`
    case 'PUT': case 'PATCH': return `update${nounOf(segments, true)}`
    case 'DELETE': return `delete${nounOf(segments, true)}`
    case 'POST': break
    default: return `${method.toLowerCase()}${nounOf(segments)}`
  }
  if (answers.includes('201')) return `create${nounOf(segments, true)}`
  if (last.startsWith(':') || segments.length < 2) return `${answers.includes('202') ? 'start' : 'create'}${nounOf(segments, true)}`
  if (answers.includes('202') && singular(last) !== last) return `start${nounOf(segments)}`
  return `${verbs[last] ?? camel(last)}${nounOf(segments.slice(0, -1))}`
}

/**
 * Gives every route an operationId (its own, or derived) and stops start-up when two routes would share
 * one, as client generators need them unique. Registered before the routes, so it sees each as it is added.
 */
export function operationIds(): (route: RouteOptions) => void {
  const taken = new Map<string, string>()
  return (route) => {
    const schema = (route.schema ?? {}) as { operationId?: string; hide?: boolean }
    const methods = [route.method].flat().map((m) => m.toUpperCase()).filter((m) => m !== 'HEAD')
    if (!methods.length || schema.hide) return
    const label = `${methods.join(',')} ${route.url}`
    if (methods.length > 1) throw new Error(`route ${label}: register one route per method, so that each has an operationId of its own`)
    // A copy: a schema object may be shared by several routes, each with its own operationId.
    const operationId = schema.operationId ?? derivedOperationId(methods[0]!, route)
    route.schema = { ...schema, operationId }
    const holder = taken.get(operationId)
    if (holder && holder !== label) throw new Error(`route ${label}: operationId ${operationId} is already that of ${holder}`)
    taken.set(operationId, label)
  }
}
