/**
 * Upcoming (docs/adr/0075-…, issue 26 §3): when a Series' next chapter is expected, from the rhythm an adaptive
 * Site learnt (docs/adr/0014-freshness-per-request.md) — the window its plan waits for, or the next one after
 * it once that passed. Pure. The rhythm is learnt on the Site's clock; the answer is on ours.
 */
import type { SeriesRow } from '../store/schema'
import { readBelief } from './cadence'
import { MISSES_TO_DROP, nextWindow } from './rhythm'

export interface ExpectedRelease {
  /** The middle of the window the next release is expected in (wall clock, whole unix ms: a learnt median may fall between two). */
  at: number
  /** Whether the hour is known (else only the day). */
  timeKnown: boolean
}

/** Windows looked through to find one not yet passed (a weekly rhythm: over a year). */
const MAX_STEPS = 60

/** When the next chapter is expected, or null: no rhythm, or one dropped after its windows passed empty. */
export function expectedRelease(row: Pick<SeriesRow, 'rhythm' | 'rhythm_misses'>, now: number): ExpectedRelease | null {
  if (row.rhythm_misses >= MISSES_TO_DROP) return null
  const belief = readBelief(row.rhythm)
  if (!belief.rhythm) return null
  const offset = belief.offsetMs ?? 0
  const siteNow = now + offset
  let window = belief.window ?? nextWindow(belief.rhythm, belief.newAt ?? siteNow)
  for (let i = 0; i < MAX_STEPS && window.at + window.halfWidthMs < siteNow; i++) window = nextWindow(belief.rhythm, window.at)
  if (window.at + window.halfWidthMs < siteNow) return null
  return { at: Math.round(window.at - offset), timeKnown: window.timeKnown }
}
