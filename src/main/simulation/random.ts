/**
 * A small seeded PRNG (sfc32, seeded through splitmix32) and the draws the simulation needs. Each concern
 * (the catalogue, the faults, the owner's and Readers' actions) draws from its own stream (`fork`), so a
 * change in one — say, a different cadence policy making other requests — does not reshuffle the others.
 */
export class Random {
  #a: number
  #b: number
  #c: number
  #d: number

  constructor(seed: number | string) {
    let s = typeof seed === 'number' ? seed >>> 0 : hashString(seed)
    const next = () => {
      // splitmix32: spreads a small seed over the four words of state.
      s = (s + 0x9e3779b9) >>> 0
      let z = s
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
      return (z ^ (z >>> 16)) >>> 0
    }
    this.#a = next()
    this.#b = next()
    this.#c = next()
    this.#d = next()
    for (let i = 0; i < 12; i++) this.next()
  }

  /** A new independent stream named `label`, derived from this one's seed state (not from its draws). */
  fork(label: string): Random {
    return new Random(`${this.#a}:${this.#b}:${this.#c}:${this.#d}:${label}`)
  }

  /** Uniform in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) >>> 0) + this.#d) >>> 0
    this.#d = (this.#d + 1) >>> 0
    this.#a = this.#b ^ (this.#b >>> 9)
    this.#b = (this.#c + (this.#c << 3)) >>> 0
    this.#c = ((this.#c << 21) | (this.#c >>> 11)) >>> 0
    this.#c = (this.#c + t) >>> 0
    return t / 4_294_967_296
  }

  /** An integer in [min, max], both included. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1))
  }

  /** Uniform in [min, max). */
  between(min: number, max: number): number {
    return min + this.next() * (max - min)
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('simulation: pick from an empty list')
    return items[Math.floor(this.next() * items.length)]!
  }

  /** One of `items`, each as likely as its weight. */
  weighted<T>(items: ReadonlyArray<readonly [T, number]>): T {
    const total = items.reduce((sum, [, w]) => sum + w, 0)
    let x = this.next() * total
    for (const [item, w] of items) {
      x -= w
      if (x < 0) return item
    }
    return items[items.length - 1]![0]
  }

  /** Exponentially distributed with this mean (the gaps of a Poisson process). */
  exponential(mean: number): number {
    return -Math.log(1 - this.next()) * mean
  }

  /** Lowercase hex digits. */
  hex(length: number): string {
    let out = ''
    while (out.length < length) out += this.int(0, 0xffff).toString(16).padStart(4, '0')
    return out.slice(0, length)
  }
}

function hashString(text: string): number {
  // FNV-1a, 32 bits.
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0
  return h
}
