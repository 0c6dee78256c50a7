/**
 * Sleep and wake (docs/design.md#the-lane-pass): on suspend the Lanes stop (a pass in flight is abandoned whole); on resume they
 * start again with fresh passes — the gap holds, so there is no catch-up burst. Events are serialised: a
 * resume that arrives while the stop is still draining waits for it, and repeated events are harmless.
 */
export interface PowerSequencer {
  suspend(): Promise<void>
  resume(): Promise<void>
}

export function powerSequencer(lanes: { stop(): Promise<void>; start(): Promise<void> }, log?: (message: string) => void): PowerSequencer {
  let chain: Promise<void> = Promise.resolve()
  let running = true
  const step = (want: boolean) => {
    chain = chain.then(async () => {
      if (running === want) return
      log?.(want ? 'power: resumed; starting the Lanes' : 'power: suspending; stopping the Lanes')
      try {
        await (want ? lanes.start() : lanes.stop())
        running = want
      } catch (error) {
        // Said, not swallowed: the next event tries again (running still says what really is).
        log?.(`power: ${want ? 'starting' : 'stopping'} the Lanes failed: ${(error as Error).message}`)
      }
    })
    return chain
  }
  return { suspend: () => step(false), resume: () => step(true) }
}
