/**
 * What a request to the app would have waited while it worked: `/api/v1/health` asked every 10 ms on the sync
 * port, and the event loop's own longest delay (`monitorEventLoopDelay`, every 1 ms). The app runs in the bench's
 * process, so a stall that falls inside the probe's 10 ms sleep is still seen by the loop's delay (issue 40: a
 * probe asking between sleeps alone missed them).
 */
import { monitorEventLoopDelay } from 'node:perf_hooks'

export interface LoopProbe {
  /** Stops probing; answers the slowest `/health` reply and the longest loop delay, in milliseconds. */
  stop(): Promise<{ health: number; loop: number; worst: number }>
}

export function loopProbe(port: number): LoopProbe {
  let slowest = 0
  let running = true
  const delay = monitorEventLoopDelay({ resolution: 1 })
  delay.enable()
  const loop = (async () => {
    while (running) {
      const started = performance.now()
      await fetch(`http://127.0.0.1:${port}/api/v1/health`).then((r) => r.arrayBuffer())
      slowest = Math.max(slowest, performance.now() - started)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  })()
  return {
    async stop() {
      running = false
      await loop
      delay.disable()
      // The histogram is in nanoseconds, and counts the timer's own 1 ms.
      const longest = Math.max(0, delay.max / 1e6 - 1)
      return { health: slowest, loop: longest, worst: Math.max(slowest, longest) }
    },
  }
}
