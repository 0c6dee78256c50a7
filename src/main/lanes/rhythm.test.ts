import { describe, expect, it } from 'vitest'
import {
  DAY,
  estimateRhythm,
  HOUR,
  MISSES_TO_DROP,
  QUIET_MAX_RESTS,
  QUIET_SHARE,
  quietRestMs,
  nextWindow,
  planNextCheck,
  releaseMoments,
  rhythmWords,
  WEEK,
  type ReleaseObservation,
  type Rhythm,
} from './rhythm'

const MIN = 60_000
/** Tuesday 3 November 2026, 00:00 UTC. */
const TUESDAY = Date.UTC(2026, 10, 3)
const exact = (at: number): ReleaseObservation => ({ at, exact: true })
const dated = (at: number): ReleaseObservation => ({ at: Math.floor(at / DAY) * DAY, exact: false })
/** A deterministic wobble in ±spread that averages out, so tests need no random numbers. */
const wobble = (i: number, spread: number) => [0, 1, -1, 0.5, -0.5, 0.25, -0.25, 0][i % 8]! * spread
const pace = { restMs: HOUR, ceilingMs: DAY }

describe('estimating a rhythm', () => {
  it.each<[string, ReleaseObservation[], Partial<Rhythm> | null, string]>([
    [
      'weekly at a steady time (exact): the weekday and the hour',
      Array.from({ length: 6 }, (_, i) => exact(TUESDAY + i * WEEK + 15 * HOUR + wobble(i, 20 * MIN))),
      { kind: 'periodic', periodMs: WEEK, timeKnown: true },
      'weekly, Tuesdays ~15:00 UTC',
    ],
    [
      'weekly from dates only: the weekday, not the hour',
      Array.from({ length: 6 }, (_, i) => dated(TUESDAY + i * WEEK + 15 * HOUR)),
      { kind: 'periodic', periodMs: WEEK, timeKnown: false },
      'weekly, Tuesdays',
    ],
    [
      'weekly with a skipped week is still weekly',
      [0, 1, 2, 4, 5, 6].map((w) => exact(TUESDAY + w * WEEK + 15 * HOUR)),
      { kind: 'periodic', periodMs: WEEK },
      'weekly, Tuesdays ~15:00 UTC',
    ],
    [
      'daily at a steady hour',
      Array.from({ length: 8 }, (_, i) => exact(TUESDAY + i * DAY + 9 * HOUR + wobble(i, 30 * MIN))),
      { kind: 'periodic', periodMs: DAY, timeKnown: true },
      'daily ~09:00 UTC',
    ],
    [
      'every three days',
      Array.from({ length: 6 }, (_, i) => exact(TUESDAY + i * 3 * DAY + 20 * HOUR + wobble(i, 2 * HOUR))),
      { kind: 'interval' },
      'every 3 days',
    ],
    ['irregular releases show no rhythm', [0, 1.2, 6.5, 7, 15.3, 16, 30].map((d) => exact(TUESDAY + d * DAY)), null, 'no steady rhythm'],
    [
      'bursts of several chapters a few weeks apart show no rhythm',
      [0, 17, 41, 55, 86].flatMap((d) => [0, 1, 2, 3].map((k) => exact(TUESDAY + d * DAY + k))),
      null,
      'no steady rhythm',
    ],
    ['too few releases make no estimate', [0, 1, 2].map((w) => exact(TUESDAY + w * WEEK)), null, 'no steady rhythm'],
  ])('%s', (_name, observations, expected, words) => {
    const rhythm = estimateRhythm(observations)
    if (expected === null) expect(rhythm).toBeNull()
    else expect(rhythm).toMatchObject(expected)
    expect(rhythmWords(rhythm)).toBe(words)
  })

  it("a page's date and the app's own sighting of one release are one release, the exact one kept", () => {
    const at = TUESDAY + 15 * HOUR
    expect(releaseMoments([dated(at), exact(at + 10 * MIN)])).toEqual([exact(at + 10 * MIN)])
  })
})

describe('planning the next check', () => {
  const weekly = estimateRhythm(Array.from({ length: 6 }, (_, i) => exact(TUESDAY + i * WEEK + 15 * HOUR)))!
  const last = exact(TUESDAY + 5 * WEEK + 15 * HOUR)
  const nextRelease = last.at + WEEK

  it('no rhythm: the fixed rest', () => {
    expect(planNextCheck({ rhythm: null, lastRelease: last, checkedAt: last.at, pace }).at).toBe(last.at + HOUR)
  })

  it('outside the window: rests longer than the rest, never past the ceiling', () => {
    const plan = planNextCheck({ rhythm: weekly, lastRelease: last, checkedAt: last.at + HOUR, pace })
    expect(plan.at - (last.at + HOUR)).toBe(DAY)
  })

  it('resting ends when the window opens', () => {
    const checkedAt = nextRelease - 10 * HOUR
    const plan = planNextCheck({ rhythm: weekly, lastRelease: last, checkedAt, pace })
    expect(plan.at).toBe(plan.window!.at - plan.window!.halfWidthMs)
    expect(plan.at - checkedAt).toBeGreaterThanOrEqual(HOUR)
    expect(Math.abs(plan.window!.at - nextRelease)).toBeLessThan(MIN)
  })

  it('inside the window: checked at half the rest', () => {
    const plan = planNextCheck({ rhythm: weekly, lastRelease: last, checkedAt: nextRelease - 10 * MIN, pace })
    expect(plan.at - (nextRelease - 10 * MIN)).toBe(HOUR / 2)
  })

  it('one window missed (a skipped week): it waits for the next window', () => {
    const plan = planNextCheck({ rhythm: weekly, lastRelease: last, checkedAt: nextRelease + 3 * HOUR, pace })
    expect(plan.misses).toBe(1)
    expect(Math.abs(plan.window!.at - (nextRelease + WEEK))).toBeLessThan(MIN)
  })

  it('a release on a new weekday moves the window: the next is expected a week after it', () => {
    const friday = exact(TUESDAY + 6 * WEEK + 3 * DAY + 15 * HOUR)
    const window = nextWindow(weekly, friday.at)
    expect(Math.abs(window.at - (friday.at + WEEK))).toBeLessThan(MIN)
  })

  it(`missed ${MISSES_TO_DROP} times in a row: back to the quiet rest until a New Chapter — two weeks silent, two rests`, () => {
    const checkedAt = nextRelease + WEEK + 3 * HOUR
    const plan = planNextCheck({ rhythm: weekly, lastRelease: last, checkedAt, pace })
    expect(plan).toMatchObject({ at: checkedAt + QUIET_MAX_RESTS * HOUR, misses: MISSES_TO_DROP })
    // A New Chapter seen since (no exact release, but life): the silence is short, the rest is the rest.
    const seen = planNextCheck({ rhythm: weekly, lastRelease: last, checkedAt, silentSince: checkedAt - HOUR, pace })
    expect(seen.at).toBe(checkedAt + HOUR)
  })

  it('the quiet rest: the rest for three silent days, then a seventy-second of the silence, at most two rests', () => {
    const since = TUESDAY
    expect(quietRestMs(null, since + 30 * DAY, HOUR)).toBe(HOUR)
    expect(quietRestMs(since, since + 2 * HOUR, HOUR)).toBe(HOUR)
    expect(quietRestMs(since, since + 3 * DAY, HOUR)).toBe(HOUR)
    expect(quietRestMs(since, since + 4.5 * DAY, HOUR)).toBe(1.5 * HOUR)
    expect(quietRestMs(since, since + 6 * DAY, HOUR)).toBe(2 * HOUR)
    expect(quietRestMs(since, since + 60 * DAY, HOUR)).toBe(QUIET_MAX_RESTS * HOUR)
    expect(quietRestMs(since, since + 60 * DAY, 30 * MIN)).toBe(QUIET_MAX_RESTS * 30 * MIN)
    expect(QUIET_SHARE).toBe(72)
  })

  it('a rhythm known only to the day checks at the rest inside a window that covers the day', () => {
    const byDate = estimateRhythm(Array.from({ length: 6 }, (_, i) => dated(TUESDAY + i * WEEK)))!
    const window = nextWindow(byDate, TUESDAY + 5 * WEEK + DAY / 2)
    expect(window.at - window.halfWidthMs).toBeLessThanOrEqual(TUESDAY + 6 * WEEK)
    expect(window.at + window.halfWidthMs).toBeGreaterThanOrEqual(TUESDAY + 6 * WEEK + DAY)
    const plan = planNextCheck({ rhythm: byDate, lastRelease: dated(TUESDAY + 5 * WEEK), checkedAt: TUESDAY + 6 * WEEK + 9 * HOUR, pace })
    expect(plan.at - (TUESDAY + 6 * WEEK + 9 * HOUR)).toBe(HOUR)
  })
})
