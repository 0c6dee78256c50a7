/**
 * One pass of a Lane in a test: the pass runs on the fake clock, which jumps through its waits until the pass
 * returns (no real sleep). The deps a test does not name are the Lane's own: a fresh browser health and pacer on
 * that clock, a silent log.
 */
import { BrowserHealth } from '../fetch/browser-health'
import type { Fetchers } from '../fetch/fetcher'
import { runPass, type PassDeps, type PassResult } from '../lanes/pass'
import { SitePacer } from '../lanes/pacer'
import { silentLog } from '../log'
import type { FakeClock } from './clock'

export type TestPassDeps = Pick<PassDeps, 'db' | 'site' | 'clock'> & { fetchers: Fetchers } & Partial<PassDeps>

/** Runs one pass to its end on the fake clock and returns what it returned. */
export async function passOnClock(deps: TestPassDeps, signal = new AbortController().signal): Promise<PassResult> {
  const clock = deps.clock as FakeClock
  let result: PassResult | undefined
  const running = runPass({ health: new BrowserHealth(clock), pacer: new SitePacer(clock), log: silentLog, ...deps }, signal).then(
    (r) => (result = r),
  )
  await clock.runUntil(() => result !== undefined)
  await running
  return result!
}
