import type { Doc, Frozen } from './port.js'

/**
 * Every value `freezeDeep` froze, with all it holds. Object.isFrozen looks at one level only, so a
 * shallow-frozen object may still change inside; membership here is what promises it cannot.
 */
const deeplyFrozen = new WeakSet<object>()

/** Whether `freezeDeep` froze this value, so that nothing in it can change any more. */
export function isDeeplyFrozen(value: unknown): value is object {
  return typeof value === 'object' && value !== null && deeplyFrozen.has(value)
}

/** Freezes a value and everything in it, even what someone else froze only at its top level. */
export function freezeDeep<T extends object>(value: T): T {
  if (deeplyFrozen.has(value)) return value
  for (const child of Object.values(value)) if (child !== null && typeof child === 'object') freezeDeep(child)
  Object.freeze(value)
  deeplyFrozen.add(value)
  return value
}

/** Freezes a document and everything in it, once: a document frozen so before is returned as it is. */
export function frozen<T extends Doc>(doc: T): Frozen<T> {
  return freezeDeep(doc) as Frozen<T>
}
