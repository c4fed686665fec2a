import type { Doc, Frozen } from './port.js'

function freezeDeep(value: object): void {
  for (const child of Object.values(value)) if (child !== null && typeof child === 'object' && !Object.isFrozen(child)) freezeDeep(child)
  Object.freeze(value)
}

/** Freezes a document and everything in it, once: a frozen document is returned as it is. */
export function frozen<T extends Doc>(doc: T): Frozen<T> {
  if (!Object.isFrozen(doc)) freezeDeep(doc)
  return doc as Frozen<T>
}
