/**
 * Time is a Clock: the core never reads the wall clock or sleeps on its own, so tests move a fake clock
 * instead of waiting. Two times, as on a real machine (docs/adr/0011-time-and-the-wall-clock.md): the wall
 * clock, which is what the store records and people read, and may be corrected by hours at any moment; and a
 * monotonic time, which only moves forward at the pace of real time, and is what every wait and spacing uses.
 */
export interface Clock {
  /** The wall clock, unix milliseconds. */
  now(): number
  /** Monotonic milliseconds: never steps; only differences between two readings mean anything. */
  monotonic(): number
  /** Resolves after `ms` of monotonic time, or early (without throwing) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.timeOrigin + performance.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve) => {
      if (signal?.aborted) return resolve()
      const timer = setTimeout(done, Math.max(0, ms))
      signal?.addEventListener('abort', done, { once: true })
      function done() {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
    }),
}
