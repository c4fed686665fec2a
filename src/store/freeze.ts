import type { Doc, Frozen } from './port.js'

/** Freezes a value and everything in it; the answer serializer remembers a frozen value's bytes. */
export function freezeDeep<T extends object>(value: T): T {
  for (const child of Object.values(value)) if (child !== null && typeof child === 'object' && !Object.isFrozen(child)) freezeDeep(child)
  return Object.freeze(value)
}

/** Freezes a document and everything in it, once: a frozen document is returned as it is. */
export function frozen<T extends Doc>(doc: T): Frozen<T> {
  if (!Object.isFrozen(doc)) freezeDeep(doc)
  return doc as Frozen<T>
}
