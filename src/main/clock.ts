/**
 * Time is a Clock: the core never reads the wall clock or sleeps on its own, so tests move
 * a fake clock instead of waiting.
 */
export interface Clock {
  /** Unix milliseconds. */
  now(): number
  /** Resolves after `ms`, or early (without throwing) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export const systemClock: Clock = {
  now: () => Date.now(),
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
