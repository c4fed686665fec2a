import type { Doc, Update } from '../port.js'

type Container = Record<string, unknown> | unknown[]

function isContainer(value: unknown): value is Container {
  return value !== null && typeof value === 'object'
}

/** A numeric segment addresses an array's element, as in MongoDB's dotted paths. */
function child(parent: Container, key: string): unknown {
  return Array.isArray(parent) ? parent[Number(key)] : parent[key]
}

function setChild(parent: Container, key: string, value: unknown): void {
  if (Array.isArray(parent)) parent[Number(key)] = value
  else parent[key] = value
}

/** The container that holds the path's last segment, made on the way where `create` allows. */
function parentOf(doc: Doc, path: string, create: boolean): { parent: Container; key: string } | null {
  const segments = path.split('.')
  let current: Container = doc
  for (const segment of segments.slice(0, -1)) {
    let next = child(current, segment)
    if (next === undefined || next === null) {
      if (!create) return null
      next = {}
      setChild(current, segment, next)
    }
    if (!isContainer(next)) throw new TypeError(`cannot reach ${path}: ${segment} holds a ${typeof next}`)
    current = next
  }
  return { parent: current, key: segments.at(-1)! }
}

/**
 * Applies an update to a document the caller owns (a fresh copy of the stored one), with MongoDB's
 * meaning for the port's four operators: `$set` makes the objects a path needs, `$inc` of a missing
 * field sets it, `$push` onto a missing field makes the array, and a type that cannot take the
 * operator is refused as MongoDB refuses it, so that nothing is written.
 */
export function applyUpdate(doc: Doc, update: Update): Doc {
  for (const [path, value] of Object.entries(update.$set ?? {})) {
    const { parent, key } = parentOf(doc, path, true)!
    setChild(parent, key, value === undefined ? null : value)
  }
  for (const path of Object.keys(update.$unset ?? {})) {
    const found = parentOf(doc, path, false)
    if (!found) continue
    // MongoDB leaves a null where an array's element was, so that later elements keep their positions.
    if (Array.isArray(found.parent)) found.parent[Number(found.key)] = null
    else delete found.parent[found.key]
  }
  for (const [path, amount] of Object.entries(update.$inc ?? {})) {
    const { parent, key } = parentOf(doc, path, true)!
    const current = child(parent, key)
    if (current !== undefined && typeof current !== 'number') throw new TypeError(`cannot $inc ${path}: it holds a ${typeof current}`)
    setChild(parent, key, (current ?? 0) + amount)
  }
  for (const [path, value] of Object.entries(update.$push ?? {})) {
    const { parent, key } = parentOf(doc, path, true)!
    const current = child(parent, key)
    if (current === undefined) setChild(parent, key, [value])
    else if (Array.isArray(current)) current.push(value)
    else throw new TypeError(`cannot $push onto ${path}: it is not an array`)
  }
  return doc
}
