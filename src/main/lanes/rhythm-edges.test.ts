import { describe, expect, it } from 'vitest'
import {
  DAY,
  estimateRhythm,
  HOUR,
  nextWindow,
  planNextCheck,
  quietRestMs,
  releaseMoments,
  rhythmWords,
  WEEK,
  type ReleaseObservation,
  type Rhythm,
} from './rhythm'

// The edges of the adaptive cadence's rule (docs/freshness.md, docs/adr/0014-freshness-per-request.md): where a
// release merges with another, how many intervals must agree, how far a release may stray, where a window opens
// and closes. rhythm.test.ts has the rule's ordinary cases.

const MIN = 60_000
/** Tuesday 3 November 2026, 00:00 UTC. */
const TUESDAY = Date.UTC(2026, 10, 3)
const exact = (at: number): ReleaseObservation => ({ at, exact: true })
const dated = (at: number): ReleaseObservation => ({ at: Math.floor(at / DAY) * DAY, exact: false })
const pace = { restMs: HOUR, ceilingMs: DAY }

/** Where in its period a periodic rhythm's releases come (fails the test for any other rhythm). */
function placeOf(rhythm: Rhythm | null): number {
  if (rhythm?.kind !== 'periodic') throw new Error(`expected a periodic rhythm, got ${JSON.stringify(rhythm)}`)
  return rhythm.offsetMs
}

/** Releases from a first one and the intervals after it, all exact or all dates. */
function releases(first: number, intervals: readonly number[], as: (at: number) => ReleaseObservation = exact) {
  const ats = [first]
  for (const interval of intervals) ats.push(ats.at(-1)! + interval)
  return ats.map(as)
}

describe('which sightings are one release', () => {
  it('sightings less than two hours apart are one release (a burst of chapters); two hours apart, two', () => {
    const at = TUESDAY + 15 * HOUR
    expect(releaseMoments([exact(at), exact(at + 2 * HOUR - 1)])).toEqual([exact(at)])
    expect(releaseMoments([exact(at + 2 * HOUR), exact(at)])).toEqual([exact(at), exact(at + 2 * HOUR)])
  })

  it('two exact releases on one day, hours apart, stay two releases', () => {
    const at = TUESDAY + 9 * HOUR
    expect(releaseMoments([exact(at), exact(at + 10 * HOUR)])).toHaveLength(2)
  })

  it("a page's date and an exact sighting late the same day are one release, the exact one kept", () => {
    expect(releaseMoments([exact(TUESDAY + 22 * HOUR), dated(TUESDAY)])).toEqual([exact(TUESDAY + 22 * HOUR)])
  })

  it("a date and a sighting early the next day are two releases; a sighting late the evening before a date's midnight is one", () => {
    expect(releaseMoments([dated(TUESDAY), exact(TUESDAY + DAY + 30 * MIN)])).toHaveLength(2)
    // Within two hours of one another across midnight: one release, and the exact sighting is the one kept.
    expect(releaseMoments([exact(TUESDAY - 30 * MIN), dated(TUESDAY)])).toEqual([exact(TUESDAY - 30 * MIN)])
  })

  it('only the six newest releases are read: an irregular past does not hide a weekly present', () => {
    const past = releases(TUESDAY, [2 * DAY, 9 * DAY, 4 * DAY])
    const weekly = releases(past.at(-1)!.at + 10 * DAY, [WEEK, WEEK, WEEK, WEEK, WEEK])
    expect(releaseMoments([...past, ...weekly])).toEqual(weekly)
    expect(estimateRhythm([...past, ...weekly])).toMatchObject({ kind: 'periodic', periodMs: WEEK })
  })
})

describe('how many releases and how many agreeing intervals make a rhythm', () => {
  it('four weekly releases (three intervals) are enough for a rhythm', () => {
    expect(estimateRhythm(releases(TUESDAY + 15 * HOUR, [WEEK, WEEK, WEEK]))).toMatchObject({ kind: 'periodic', periodMs: WEEK })
  })

  it('releases a day apart by their dates only read "every day": a date says nothing of the hour', () => {
    const rhythm = estimateRhythm(releases(TUESDAY, [DAY, DAY, DAY, DAY], dated))
    expect(rhythm).toEqual({ kind: 'interval', everyMs: DAY, spreadMs: DAY / 4, timeKnown: false })
    expect(rhythmWords(rhythm)).toBe('every day')
  })

  it('releases twice a day make no rhythm: the fixed rest is short enough for them', () => {
    expect(estimateRhythm(releases(TUESDAY + 9 * HOUR, [12 * HOUR, 12 * HOUR, 12 * HOUR, 12 * HOUR]))).toBeNull()
  })

  it('three intervals of four agreeing make an interval rhythm, the middle interval its length', () => {
    const rhythm = estimateRhythm(releases(TUESDAY, [10 * DAY, 10 * DAY, 20 * DAY, 10 * DAY], dated))
    expect(rhythm).toEqual({ kind: 'interval', everyMs: 10 * DAY, spreadMs: DAY / 4, timeKnown: false })
  })

  it('two intervals of three agreeing are too few: no rhythm', () => {
    expect(estimateRhythm(releases(TUESDAY, [10 * DAY, 10 * DAY, 20 * DAY], dated))).toBeNull()
  })

  it("an interval rhythm is the intervals' median, however the intervals came in order", () => {
    const rhythm = estimateRhythm(releases(TUESDAY, [9 * DAY, 9 * DAY, 11 * DAY, 10 * DAY, 10 * DAY], dated))
    expect(rhythm).toMatchObject({ kind: 'interval', everyMs: 10 * DAY })
    expect(rhythmWords(rhythm)).toBe('every 10 days')
  })

  it('an interval a fifth longer than the median still agrees with it', () => {
    expect(estimateRhythm(releases(TUESDAY, [10 * DAY, 12 * DAY, 10 * DAY], dated))).toMatchObject({ kind: 'interval', everyMs: 10 * DAY })
  })

  it('from dates only, an interval rhythm strays as much as its middle interval strays (here a day)', () => {
    const rhythm = estimateRhythm(releases(TUESDAY, [9 * DAY, 11 * DAY, 10 * DAY, 10 * DAY, 9 * DAY], dated))
    expect(rhythm).toEqual({ kind: 'interval', everyMs: 10 * DAY, spreadMs: DAY, timeKnown: false })
  })
})

describe('an interval rhythm from exact releases', () => {
  // Every three days at about 20:00, straying by the hours given.
  const strays = [0, 2, -2, 1, -1, 0].map((h) => h * HOUR)
  const threeDays = strays.map((s, i) => TUESDAY + i * 3 * DAY + 20 * HOUR + s)

  it('strays as much as the exact releases stray from it, and knows the time of day', () => {
    // Intervals 3 d + 2 h, − 4 h, + 3 h, − 2 h, + 1 h: off the median (3 d + 1 h) by 1, 5, 2, 3, 0 hours.
    const rhythm = estimateRhythm(threeDays.map(exact))
    expect(rhythm).toEqual({ kind: 'interval', everyMs: 3 * DAY + HOUR, spreadMs: 2 * HOUR, timeKnown: true })
  })

  it('a date among exact releases says nothing about the stray: only intervals between two exact releases count', () => {
    // The first release known by its date only: the interval from its midnight would stray by 20 hours.
    const rhythm = estimateRhythm([dated(threeDays[0]!), ...threeDays.slice(1).map(exact)])
    expect(rhythm).toMatchObject({ kind: 'interval', timeKnown: true })
    expect(rhythm!.spreadMs).toBeLessThanOrEqual(3 * HOUR)
  })

  it('two intervals between exact releases are enough to measure the stray; the intervals from a date do not count', () => {
    // Two dates three days apart, then exact releases 73, 66 and 70 hours apart: the interval is 72 hours; the
    // exact intervals stray by 6 and 2 hours (the upper middle, 6), while the middle stray of all four is 2 hours.
    const first = exact(TUESDAY + 6 * DAY + HOUR)
    const rhythm = estimateRhythm([dated(TUESDAY), dated(TUESDAY + 3 * DAY), ...releases(first.at, [66 * HOUR, 70 * HOUR])])
    expect(rhythm).toEqual({ kind: 'interval', everyMs: 3 * DAY, spreadMs: 6 * HOUR, timeKnown: true })
  })

  it('one exact release among dates does not make the time of day known', () => {
    const rhythm = estimateRhythm([...releases(TUESDAY, [3 * DAY, 3 * DAY, 3 * DAY], dated), exact(TUESDAY + 12 * DAY + 2 * HOUR)])
    expect(rhythm).toMatchObject({ kind: 'interval', timeKnown: false })
    expect(rhythm!.spreadMs).toBeGreaterThanOrEqual(DAY / 4)
  })

  it('two exact releases make the time of day known', () => {
    const rhythm = estimateRhythm([
      ...releases(TUESDAY, [3 * DAY, 3 * DAY], dated),
      exact(TUESDAY + 9 * DAY + 2 * HOUR),
      exact(TUESDAY + 12 * DAY + 3 * HOUR),
    ])
    // Intervals 72, 72, 74 and 73 hours: every 73 hours, straying an hour.
    expect(rhythm).toEqual({ kind: 'interval', everyMs: 73 * HOUR, spreadMs: HOUR, timeKnown: true })
  })

  it('releases that agree to the minute still stray at least an hour', () => {
    expect(estimateRhythm(releases(TUESDAY + 20 * HOUR, [3 * DAY, 3 * DAY, 3 * DAY, 3 * DAY]))).toEqual({
      kind: 'interval',
      everyMs: 3 * DAY,
      spreadMs: HOUR,
      timeKnown: true,
    })
  })
})

describe('which releases are weekly or daily', () => {
  const at15 = TUESDAY + 15 * HOUR

  it('a Series that skips two weeks now and then is still weekly', () => {
    expect(estimateRhythm(releases(at15, [WEEK, 3 * WEEK, WEEK, 3 * WEEK, WEEK]))).toMatchObject({ kind: 'periodic', periodMs: WEEK })
  })

  it('a release more than three weeks after the last breaks the weekly count', () => {
    expect(estimateRhythm(releases(at15, [WEEK, 4 * WEEK, WEEK, 4 * WEEK, WEEK]))).toBeNull()
  })

  it('a Series that skips a week half the time is still weekly; one that skips it three times in four is every two weeks', () => {
    expect(estimateRhythm(releases(at15, [WEEK, 2 * WEEK, WEEK, 2 * WEEK]))).toMatchObject({ kind: 'periodic', periodMs: WEEK })
    const fortnightly = estimateRhythm(releases(at15, [2 * WEEK, 2 * WEEK, 2 * WEEK, WEEK]))
    expect(fortnightly).toMatchObject({ kind: 'interval', everyMs: 2 * WEEK })
    expect(rhythmWords(fortnightly)).toBe('every 14 days')
  })

  it('a release a whole day off its weekday still counts a week apart (the slack is a day)', () => {
    // Tuesday, Tuesday, Wednesday (8 days), Wednesday two weeks on, Tuesday (6 days).
    expect(estimateRhythm(releases(at15, [WEEK, 8 * DAY, 2 * WEEK, 6 * DAY]))).toMatchObject({ kind: 'periodic', periodMs: WEEK })
  })

  it('weekly releases a few hours early or late are still weekly, on their weekday and hour', () => {
    const rhythm = estimateRhythm(releases(at15, [WEEK + 5 * HOUR, WEEK - 5 * HOUR, WEEK - 5 * HOUR, WEEK + 5 * HOUR]))
    expect(rhythm).toMatchObject({ kind: 'periodic', periodMs: WEEK, timeKnown: true })
    expect(rhythmWords(rhythm)).toBe('weekly, Tuesdays ~15:00 UTC')
  })

  it('one interval in four off the week (a release a day and a half late) still leaves a weekly rhythm', () => {
    expect(estimateRhythm(releases(at15, [WEEK, WEEK, WEEK, WEEK + 1.5 * DAY]))).toMatchObject({ kind: 'periodic', periodMs: WEEK })
  })

  it('two chapters a day apart each week are no weekly rhythm', () => {
    expect(estimateRhythm(releases(at15, [WEEK, DAY, 6 * DAY, DAY, 6 * DAY]))).toBeNull()
  })

  it('releases drifting later each week are an interval, not a weekday', () => {
    const rhythm = estimateRhythm(releases(TUESDAY, Array<number>(5).fill(WEEK + 20 * HOUR)))
    expect(rhythm).toMatchObject({ kind: 'interval', everyMs: WEEK + 20 * HOUR })
  })

  it('a daily release five hours late, then the next on time, is no daily rhythm (the slack is three hours)', () => {
    expect(estimateRhythm(releases(TUESDAY + 9 * HOUR, [DAY, DAY, DAY + 5 * HOUR, DAY - 5 * HOUR]))).toBeNull()
  })

  it('a daily release two hours late still counts a day apart', () => {
    const rhythm = estimateRhythm(releases(TUESDAY + 9 * HOUR, [DAY, DAY, DAY + 2 * HOUR, DAY - 2 * HOUR]))
    expect(rhythm).toMatchObject({ kind: 'periodic', periodMs: DAY })
  })

  it('weekly by dates only: the weekday at midday, straying at least half a day', () => {
    const rhythm = estimateRhythm(releases(at15, [WEEK, WEEK, WEEK, WEEK], dated))
    expect(rhythm).toEqual({ kind: 'periodic', periodMs: WEEK, offsetMs: 5 * DAY + 12 * HOUR, spreadMs: DAY / 2, timeKnown: false })
  })

  it('weekly by dates with two exact sightings: the time of day is known from the sightings', () => {
    const rhythm = estimateRhythm([...releases(at15, [WEEK, WEEK], dated), exact(at15 + 3 * WEEK), exact(at15 + 4 * WEEK)])
    expect(rhythm).toMatchObject({ kind: 'periodic', periodMs: WEEK, timeKnown: true })
    expect(placeOf(rhythm)).toBe(5 * DAY + 15 * HOUR)
    expect(rhythmWords(rhythm)).toBe('weekly, Tuesdays ~15:00 UTC')
  })

  it('the stray of a steady weekly hour is its standard deviation (releases ±20 minutes: about 13 minutes)', () => {
    const strays = [0, 20, -20, 10, -10, 0].map((m) => m * MIN)
    const rhythm = estimateRhythm(strays.map((s, i) => exact(at15 + i * WEEK + s)))
    expect(rhythm!.spreadMs).toBeGreaterThan(12 * MIN)
    expect(rhythm!.spreadMs).toBeLessThan(14 * MIN)
    expect(placeOf(rhythm)).toBeCloseTo(5 * DAY + 15 * HOUR, -1)
  })

  it('releases around midnight keep their place at midnight, not across the period', () => {
    // Wednesday 23:40 and Thursday 00:20 alternately: the week's place wraps at Thursday 00:00.
    const thursday = TUESDAY + 2 * DAY
    const weekly = estimateRhythm([0, 1, 2, 3, 4].map((w) => exact(thursday + w * WEEK + (w % 2 ? 20 : -20) * MIN)))
    expect(weekly).toMatchObject({ kind: 'periodic', periodMs: WEEK })
    expect(rhythmWords(weekly)).toBe('weekly, Thursdays ~00:00 UTC')
    // Three at 23:40 and two at 00:20: four minutes before midnight, not half a week away.
    expect(WEEK - placeOf(weekly)).toBeCloseTo(4 * MIN, -3)
    const daily = estimateRhythm([0, 1, 2, 3, 4].map((d) => exact(TUESDAY + d * DAY + (d % 2 ? 20 : -20) * MIN)))
    expect(rhythmWords(daily)).toBe('daily ~00:00 UTC')
  })

  it('identical places stray not at all', () => {
    expect(estimateRhythm(releases(at15, [WEEK, WEEK, WEEK]))).toMatchObject({ spreadMs: 0, offsetMs: 5 * DAY + 15 * HOUR })
  })
})

describe('the window of the next release', () => {
  const weekly: Rhythm = { kind: 'periodic', periodMs: WEEK, offsetMs: 5 * DAY + 15 * HOUR, spreadMs: 2 * HOUR, timeKnown: true }
  const lastTuesday = TUESDAY + 15 * HOUR

  it('an interval rhythm expects the next release one interval on, as wide as twice its stray (three hours at least)', () => {
    const every3 = { kind: 'interval', everyMs: 3 * DAY, spreadMs: 2 * HOUR, timeKnown: true } as const
    expect(nextWindow(every3, lastTuesday)).toEqual({ at: lastTuesday + 3 * DAY, halfWidthMs: 4 * HOUR, timeKnown: true })
    expect(nextWindow({ ...every3, spreadMs: HOUR }, lastTuesday).halfWidthMs).toBe(3 * HOUR)
  })

  it('an interval rhythm known to the day: the window covers the day, three hours either side', () => {
    const byDate = { kind: 'interval', everyMs: 3 * DAY, spreadMs: DAY / 4, timeKnown: false } as const
    expect(nextWindow(byDate, TUESDAY + DAY / 2)).toEqual({ at: TUESDAY + 3 * DAY + DAY / 2, halfWidthMs: 15 * HOUR, timeKnown: false })
  })

  it('a weekly rhythm known to the day: the window covers the day, two hours either side', () => {
    const byDate: Rhythm = { ...weekly, offsetMs: 5 * DAY + 12 * HOUR, spreadMs: DAY / 2, timeKnown: false }
    expect(nextWindow(byDate, TUESDAY + 12 * HOUR)).toEqual({ at: TUESDAY + WEEK + 12 * HOUR, halfWidthMs: 14 * HOUR, timeKnown: false })
  })

  it('a weekly window is two and a half strays wide (an hour at least)', () => {
    expect(nextWindow(weekly, lastTuesday).halfWidthMs).toBe(5 * HOUR)
    expect(nextWindow({ ...weekly, spreadMs: 10 * MIN }, lastTuesday).halfWidthMs).toBe(HOUR)
  })

  it("a release a little off the rhythm's place does not move it: the next is expected at the place", () => {
    expect(nextWindow(weekly, lastTuesday + 40 * MIN).at).toBe(lastTuesday + WEEK)
    // At the very edge of the window (five hours off), still the place; a minute beyond, a week after the release.
    expect(nextWindow(weekly, lastTuesday + 5 * HOUR).at).toBe(lastTuesday + WEEK)
    expect(nextWindow(weekly, lastTuesday - 5 * HOUR).at).toBe(lastTuesday + WEEK)
    expect(nextWindow(weekly, lastTuesday + 5 * HOUR + MIN).at).toBe(lastTuesday + WEEK + 5 * HOUR + MIN)
  })

  it("the place wraps at the period's end: a release just past it is near the place, not a period away", () => {
    // The place is Wednesday 23:30 (the week starts Thursday 00:00); a release Thursday 00:10 is 40 minutes late.
    const lateWednesday: Rhythm = { ...weekly, offsetMs: WEEK - 30 * MIN }
    const thursday = TUESDAY + 2 * DAY
    expect(nextWindow(lateWednesday, thursday + 10 * MIN).at).toBe(thursday + WEEK - 30 * MIN)
  })

  it('a window just missed is followed by the next one a period on', () => {
    const missed = nextWindow(weekly, lastTuesday)
    expect(nextWindow(weekly, missed.at).at).toBe(missed.at + WEEK)
  })
})

describe("the plan's edges", () => {
  const weekly = estimateRhythm(releases(TUESDAY + 15 * HOUR, [WEEK, WEEK, WEEK, WEEK]))!
  const last = exact(TUESDAY + 4 * WEEK + 15 * HOUR)
  const window = nextWindow(weekly, last.at)

  it('a check exactly when the window opens is inside it: half the rest', () => {
    const opens = window.at - window.halfWidthMs
    expect(planNextCheck({ rhythm: weekly, lastRelease: last, checkedAt: opens, pace })).toEqual({
      at: opens + HOUR / 2,
      window,
      misses: 0,
      why: 'inside the expected window',
    })
    expect(planNextCheck({ rhythm: weekly, lastRelease: last, checkedAt: opens - MIN, pace })).toMatchObject({
      at: opens - MIN + HOUR,
      why: 'resting until the expected window',
    })
  })

  it('a check exactly when the window closes is still inside it; a moment later the window is missed', () => {
    const closes = window.at + window.halfWidthMs
    expect(planNextCheck({ rhythm: weekly, lastRelease: last, checkedAt: closes, pace })).toMatchObject({ misses: 0, window })
    expect(planNextCheck({ rhythm: weekly, lastRelease: last, checkedAt: closes + 1, pace }).misses).toBe(1)
  })

  it('the owner is told why: no rhythm, or a release that did not come twice', () => {
    expect(planNextCheck({ rhythm: null, lastRelease: last, checkedAt: last.at, pace }).why).toBe('the quiet rest: no steady rhythm')
    expect(planNextCheck({ rhythm: weekly, lastRelease: null, checkedAt: last.at, pace }).why).toBe('the quiet rest: no steady rhythm')
    expect(planNextCheck({ rhythm: weekly, lastRelease: last, checkedAt: last.at + 3 * WEEK, pace })).toMatchObject({
      misses: 2,
      why: 'the quiet rest: the expected release did not come 2 times',
    })
  })

  it('an interval read from dates only is known to the day: its window covers the day, checked at the rest', () => {
    const every3 = { kind: 'interval', everyMs: 3 * DAY, spreadMs: HOUR, timeKnown: true } as const
    const day = dated(TUESDAY)
    const plan = planNextCheck({ rhythm: every3, lastRelease: day, checkedAt: TUESDAY + 3 * DAY + 2 * HOUR, pace })
    expect(plan.window).toEqual({ at: TUESDAY + 3 * DAY + DAY / 2, halfWidthMs: 15 * HOUR, timeKnown: false })
    expect(plan.at).toBe(TUESDAY + 3 * DAY + 3 * HOUR)
    // Counted from an exact release, the same rhythm knows the hour: a narrow window, half the rest inside it.
    const sharp = planNextCheck({ rhythm: every3, lastRelease: exact(TUESDAY + 2 * HOUR), checkedAt: TUESDAY + 3 * DAY + 2 * HOUR, pace })
    expect(sharp).toMatchObject({ at: TUESDAY + 3 * DAY + 2 * HOUR + HOUR / 2, window: { halfWidthMs: 3 * HOUR, timeKnown: true } })
  })

  it('a weekly rhythm that knows its hour keeps it when the newest release is known by its date only', () => {
    const weeklyAt15: Rhythm = { kind: 'periodic', periodMs: WEEK, offsetMs: 5 * DAY + 15 * HOUR, spreadMs: 2 * HOUR, timeKnown: true }
    const plan = planNextCheck({ rhythm: weeklyAt15, lastRelease: dated(TUESDAY), checkedAt: TUESDAY + DAY, pace })
    expect(plan.window).toEqual({ at: TUESDAY + WEEK + 15 * HOUR, halfWidthMs: 5 * HOUR, timeKnown: true })
  })

  it('a release on a new weekday known only by its date moves the weekday and keeps the hour', () => {
    const weeklyAt15: Rhythm = { kind: 'periodic', periodMs: WEEK, offsetMs: 5 * DAY + 15 * HOUR, spreadMs: 2 * HOUR, timeKnown: true }
    const friday = TUESDAY + 3 * DAY
    const plan = planNextCheck({ rhythm: weeklyAt15, lastRelease: dated(friday), checkedAt: friday + DAY, pace })
    expect(plan.window).toEqual({ at: friday + WEEK + 15 * HOUR, halfWidthMs: 5 * HOUR, timeKnown: true })
  })

  it('a periodic rhythm from dates keeps its day-wide window after a dated release', () => {
    const byDate = estimateRhythm(releases(TUESDAY, [WEEK, WEEK, WEEK, WEEK], dated))!
    const plan = planNextCheck({ rhythm: byDate, lastRelease: dated(TUESDAY + 4 * WEEK), checkedAt: TUESDAY + 5 * WEEK, pace })
    expect(plan.window).toEqual({ at: TUESDAY + 5 * WEEK + 12 * HOUR, halfWidthMs: 14 * HOUR, timeKnown: false })
  })

  it('silent since a time given: the quiet rest counts from it, not from the last release', () => {
    const checkedAt = last.at + 30 * DAY
    expect(planNextCheck({ rhythm: null, lastRelease: last, checkedAt, silentSince: checkedAt - 4.5 * DAY, pace }).at).toBe(
      checkedAt + 1.5 * HOUR,
    )
    expect(planNextCheck({ rhythm: null, lastRelease: null, checkedAt, pace }).at).toBe(checkedAt + HOUR)
    expect(quietRestMs(checkedAt - 4.5 * DAY, checkedAt, HOUR)).toBe(1.5 * HOUR)
  })
})

describe('a rhythm in words', () => {
  it.each([
    [0, 'Thursdays'],
    [1, 'Fridays'],
    [2, 'Saturdays'],
    [3, 'Sundays'],
    [4, 'Mondays'],
    [5, 'Tuesdays'],
    [6, 'Wednesdays'],
  ])('day %i of the epoch week reads %s', (day, weekday) => {
    const rhythm: Rhythm = { kind: 'periodic', periodMs: WEEK, offsetMs: day * DAY + 7 * HOUR + 45 * MIN, spreadMs: HOUR, timeKnown: true }
    expect(rhythmWords(rhythm)).toBe(`weekly, ${weekday} ~07:45 UTC`)
    expect(rhythmWords({ ...rhythm, timeKnown: false })).toBe(`weekly, ${weekday}`)
  })

  it.each([
    [0, '00:00'],
    [5 * MIN, '00:00'],
    [8 * MIN, '00:15'],
    [9 * HOUR + 30 * MIN, '09:30'],
    [13 * HOUR + 15 * MIN, '13:15'],
    [23 * HOUR + 50 * MIN, '23:45'],
    [23 * HOUR + 55 * MIN, '00:00'],
  ])('a daily place %i ms into the day reads ~%s, to the quarter hour', (offsetMs, hhmm) => {
    expect(rhythmWords({ kind: 'periodic', periodMs: DAY, offsetMs, spreadMs: HOUR, timeKnown: true })).toBe(`daily ~${hhmm} UTC`)
  })

  it('an interval reads in days, to the half day', () => {
    const every = (everyMs: number) => rhythmWords({ kind: 'interval', everyMs, spreadMs: HOUR, timeKnown: true })
    expect(every(DAY + 2 * HOUR)).toBe('every day')
    expect(every(2.5 * DAY - 3 * HOUR)).toBe('every 2.5 days')
    expect(every(3 * DAY)).toBe('every 3 days')
  })
})
