/**
 * No adaptive plan passes the ceiling (issue 24): the quiet rest is two rests, and a pace whose two rests exceed
 * its ceiling (rest 18 h, ceiling 24 h) would plan a silent Series 36 h out. sites.json refuses such a pace
 * (sites-file.test.ts); a pace that reaches the planner anyway is still capped.
 */
import { describe, expect, it } from 'vitest'
import { planAfterCheck } from './cadence'
import { DAY, HOUR } from './rhythm'

const TUESDAY = Date.UTC(2026, 10, 3)
const none = { rhythm: '', releases: '', rhythm_misses: 0 }

describe('the ceiling bounds every plan', () => {
  it('a Series silent for half a year on a pace of rest 18 h, ceiling 24 h is planned at the ceiling, not two rests', () => {
    const releases = [0, 1.2, 6.5, 7, 15.3, 16, 20].map((d) => ({ at: TUESDAY + d * DAY, exact: true }))
    const now = TUESDAY + 200 * DAY
    const pace = { restMs: 18 * HOUR, ceilingMs: 24 * HOUR }
    const plan = planAfterCheck({ row: none, pageReleases: releases, newChapter: false, previousCheckAt: 0, now, pace })
    expect(plan.next_check_at - now).toBe(24 * HOUR)
  })

  it('a pace whose two rests fit keeps the quiet rest of two rests', () => {
    const releases = [0, 1.2, 6.5, 7, 15.3, 16, 20].map((d) => ({ at: TUESDAY + d * DAY, exact: true }))
    const now = TUESDAY + 30 * DAY
    const plan = planAfterCheck({
      row: none,
      pageReleases: releases,
      newChapter: false,
      previousCheckAt: 0,
      now,
      pace: { restMs: HOUR, ceilingMs: DAY },
    })
    expect(plan.next_check_at - now).toBe(2 * HOUR)
  })
})
