/**
 * A fake Clock for tests (STYLE habit 7). Time moves only when a test says so: `advance(ms)` fires the
 * timers due on the way, in order, letting the code they wake run before the next one fires; `runUntil`
 * jumps from timer to timer until a condition holds. Real I/O in flight (a loopback fetch) is waited for
 * with real ticks, but never with real sleeps of the fake durations.
 *
 * Like a real machine, it keeps two times: a monotonic one that timers run on, and the wall clock `now()`
 * that can be corrected. `stepWall(ms)` moves the wall clock by ±ms while every pending sleep still ends after
 * its own duration. Without a step the two are equal, so tests that never step see one time.
 */
import type { Clock } from '../clock'

interface Timer {
  at: number
  seq: number
  resolve(): void
}

export class FakeClock implements Clock {
  /** Monotonic time: what timers run on. */
  #now: number
  /** How far the wall clock has been stepped from monotonic time. */
  #wallOffset = 0
  #timers: Timer[] = []
  #seq = 0

  constructor(start = 1_700_000_000_000) {
    this.#now = start
  }

  /** The wall clock: monotonic time plus every step so far. */
  now(): number {
    return this.#now + this.#wallOffset
  }

  /** Monotonic time (starts equal to the wall clock; never stepped). */
  monotonic(): number {
    return this.#now
  }

  /**
   * Steps the wall clock by `ms` (negative: back), as a clock correction does. Pending sleeps are not
   * touched: each still ends after its own duration.
   */
  stepWall(ms: number): void {
    this.#wallOffset += ms
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve()
      const timer: Timer = {
        at: this.#now + Math.max(0, ms),
        seq: this.#seq++,
        resolve: () => {
          signal?.removeEventListener('abort', cancel)
          resolve()
        },
      }
      const cancel = () => {
        this.#timers = this.#timers.filter((t) => t !== timer)
        timer.resolve()
      }
      signal?.addEventListener('abort', cancel, { once: true })
      // Insert in order (by time, then by creation): the queue stays sorted without re-sorting it.
      let index = this.#timers.length
      while (index > 0 && this.#timers[index - 1]!.at > timer.at) index--
      this.#timers.splice(index, 0, timer)
    })
  }

  /** Sleepers waiting now. */
  get pending(): number {
    return this.#timers.length
  }

  /** Moves time forward by `ms`, firing every timer due on the way. */
  async advance(ms: number): Promise<void> {
    const until = this.#now + ms
    await settle()
    while (this.#timers[0] && this.#timers[0].at <= until) {
      this.#fireNext()
      await settle()
    }
    this.#now = until
    await settle()
  }

  /** Sets the wall time without firing anything (e.g. a machine that slept); monotonic time moves with it. */
  set(now: number): void {
    this.#now = now - this.#wallOffset
  }

  /** When the next timer fires (monotonic), or undefined when nothing sleeps. */
  get nextTimerAt(): number | undefined {
    return this.#timers[0]?.at
  }

  /**
   * Fires every timer due within `ms` of monotonic time, in order, ending with the clock at now + ms. For code
   * with no real I/O in flight (everything in process, a synchronous database): between two timers it lets
   * the woken code run for only `rounds` turns of the event loop (one drains every promise chain), which
   * is what makes a simulation of weeks take minutes. Returns how many timers fired.
   */
  async runQuiet(ms: number, { rounds = 1 } = {}): Promise<number> {
    const limit = this.#now + ms
    let fired = 0
    for (;;) {
      await settle(rounds)
      const next = this.#timers[0]
      if (!next || next.at > limit) break
      this.#fireNext()
      fired++
    }
    this.#now = Math.max(this.#now, limit)
    await settle(rounds)
    return fired
  }

  /**
   * Lets the code run, firing timers in order, until `done()` holds. Throws when fake time passes
   * `withinMs` or the real wait exceeds `realMs` (something is stuck on I/O).
   */
  async runUntil(done: () => boolean, { withinMs = 7 * 86_400_000, realMs = 15_000 } = {}): Promise<void> {
    const limit = this.#now + withinMs
    const started = Date.now()
    for (;;) {
      await settle()
      if (done()) return
      if (Date.now() - started > realMs) throw new Error(`FakeClock.runUntil: still waiting after ${realMs} ms of real time`)
      const next = this.#timers[0]
      if (next && next.at <= limit) {
        this.#fireNext()
      } else if (next) {
        throw new Error(`FakeClock.runUntil: condition not met within ${withinMs} ms of fake time`)
      } else {
        // Nothing sleeps: something is on real I/O. Give it a real moment.
        await new Promise((r) => setTimeout(r, 2))
      }
    }
  }

  /**
   * Lets the code run for `ms` of fake time, firing timers in order and waiting (in real time) for I/O in
   * flight between them; ends with the clock at now + ms.
   */
  async runFor(ms: number, { realMs = 15_000 } = {}): Promise<void> {
    const limit = this.#now + ms
    const started = Date.now()
    let idleRounds = 0
    while (Date.now() - started <= realMs) {
      await settle()
      const next = this.#timers[0]
      if (next && next.at <= limit) {
        idleRounds = 0
        this.#fireNext()
        continue
      }
      // Nothing more is due in the window; give I/O in flight a few real moments to add earlier timers.
      if (++idleRounds > 10) break
      await new Promise((r) => setTimeout(r, 5))
    }
    this.#now = Math.max(this.#now, limit)
    await settle()
  }

  #fireNext(): void {
    const timer = this.#timers.shift()!
    this.#now = Math.max(this.#now, timer.at)
    timer.resolve()
  }
}

/** Lets pending promise chains and immediate callbacks run. */
export async function settle(rounds = 5): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r))
}
