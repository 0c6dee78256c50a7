/** A release expected and not found is followed up soon after its window, a bounded while (issue 43). */
import { describe, expect, it } from 'vitest'
import { estimateRhythm, LATE_FOLLOW_UP_RESTS, lateFollowUpMs, nextWindow, planNextCheck, type ReleaseObservation } from './rhythm'

const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR
const WEEK = 7 * DAY
const TUESDAY = Date.UTC(2026, 10, 3)
const pace = { restMs: HOUR, ceilingMs: DAY }
const exact = (at: number): ReleaseObservation => ({ at, exact: true })
const weekly = estimateRhythm([0, 1, 2, 3, 4].map((n) => exact(TUESDAY + 15 * HOUR + n * WEEK)))!
const last = exact(TUESDAY + 4 * WEEK + 15 * HOUR)
const window = nextWindow(weekly, last.at)
const closes = window.at + window.halfWidthMs

describe('a window that passed with nothing found', () => {
  it('is followed up about one, two, four and eight rests after it closed, not a ceiling later', () => {
    let at = closes + 10 * MIN
    const follow: number[] = []
    while (at < closes + 12 * HOUR) {
      const plan = planNextCheck({ rhythm: weekly, lastRelease: last, checkedAt: at, pace })
      expect(plan.misses).toBe(1)
      at = plan.at
      follow.push(Math.round((at - closes) / MIN))
    }
    expect(follow).toEqual([70, 140, 280, 560, 560 + 24 * 60].slice(0, follow.length))
    // Past the follow-ups, the rest until the next window (here the ceiling) applies again.
    expect(follow.at(-1)).toBe(560 + 24 * 60)
  })

  it('is bounded: no follow-up before any window passed, nor after LATE_FOLLOW_UP_RESTS rests', () => {
    expect(lateFollowUpMs(0, closes, HOUR)).toBe(Number.POSITIVE_INFINITY)
    expect(lateFollowUpMs(closes, closes + LATE_FOLLOW_UP_RESTS * HOUR + 1, HOUR)).toBe(Number.POSITIVE_INFINITY)
    expect(lateFollowUpMs(closes, closes + 10 * MIN, HOUR)).toBe(HOUR)
  })
})
