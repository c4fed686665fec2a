/** 32-bit FNV-1a: turns a label into a seed, so each generator stream is named, not numbered. */
function hashSeed(label: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/**
 * A seeded pseudo-random stream (mulberry32). The sample data must come out the same on every machine
 * and every run, so nothing here may touch Math.random or the clock.
 */
export class Random {
  private state: number

  constructor(label: string) {
    this.state = hashSeed(label)
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  chance(probability: number): boolean {
    return this.next() < probability
  }

  pick<T>(items: readonly T[]): T {
    if (!items.length) throw new RangeError('cannot pick from an empty list')
    return items[Math.floor(this.next() * items.length)]!
  }

  /** A new array with the items in random order (Fisher-Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items]
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1))
      ;[copy[i], copy[j]] = [copy[j]!, copy[i]!]
    }
    return copy
  }

  /** `count` distinct items (fewer when the list is shorter). */
  sample<T>(items: readonly T[], count: number): T[] {
    return this.shuffle(items).slice(0, count)
  }

  /** An item drawn with probability proportional to its weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    const total = entries.reduce((sum, [, w]) => sum + w, 0)
    let roll = this.next() * total
    for (const [item, weight] of entries) {
      roll -= weight
      if (roll < 0) return item
    }
    return entries[entries.length - 1]![0]
  }

  /** Roughly normal (mean 0, deviation 1): the sum of uniforms, good enough for grades. */
  normal(): number {
    let sum = 0
    for (let i = 0; i < 6; i++) sum += this.next()
    return (sum - 3) / Math.sqrt(0.5)
  }
}
