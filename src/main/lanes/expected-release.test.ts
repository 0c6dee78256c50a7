import { describe, expect, it } from 'vitest'
import { DAY, HOUR, WEEK } from './rhythm'
import { expectedRelease } from './expected-release'

/** Weekly on Tuesdays at 15:00 UTC (the week's places count from Thursday 00:00 UTC, as the epoch began). */
const weekly = { kind: 'periodic', periodMs: WEEK, offsetMs: 5 * DAY + 15 * HOUR, spreadMs: 10 * 60_000, timeKnown: true }
const tuesday = (day: number) => Date.UTC(2026, 0, day, 15)
const row = (belief: object, misses = 0) => ({ rhythm: JSON.stringify(belief), rhythm_misses: misses })

describe('expectedRelease', () => {
  const monday = Date.UTC(2026, 0, 5, 12)

  it('is the window the plan waits for', () => {
    const window = { at: tuesday(6), halfWidthMs: HOUR, timeKnown: true }
    expect(expectedRelease(row({ rhythm: weekly, hits: 2, window }), monday)).toEqual({ at: tuesday(6), timeKnown: true })
  })

  it('moves on a period at a time past windows that went by', () => {
    const window = { at: tuesday(6) - 2 * WEEK, halfWidthMs: HOUR, timeKnown: true }
    expect(expectedRelease(row({ rhythm: weekly, hits: 2, window }), monday)?.at).toBe(tuesday(6))
  })

  it('is on our clock when the Site’s runs ahead', () => {
    const window = { at: tuesday(6), halfWidthMs: HOUR, timeKnown: true }
    expect(expectedRelease(row({ rhythm: weekly, hits: 2, window, offsetMs: 60_000 }), monday)?.at).toBe(tuesday(6) - 60_000)
  })

  it('is a whole millisecond when a learnt median falls between two', () => {
    const window = { at: tuesday(6) + 0.5, halfWidthMs: HOUR, timeKnown: true }
    expect(expectedRelease(row({ rhythm: weekly, hits: 2, window, offsetMs: -0.25 }), monday)?.at).toBe(tuesday(6) + 1)
  })

  it('is unknown with no rhythm, a dropped one, or a column that does not parse', () => {
    expect(expectedRelease({ rhythm: '', rhythm_misses: 0 }, monday)).toBeNull()
    expect(expectedRelease(row({ rhythm: null, hits: 0 }), monday)).toBeNull()
    expect(expectedRelease(row({ rhythm: weekly, hits: 0 }, 2), monday)).toBeNull()
    expect(expectedRelease({ rhythm: '{not json', rhythm_misses: 0 }, monday)).toBeNull()
  })

  it('says when only the day is known', () => {
    const window = { at: tuesday(6), halfWidthMs: DAY / 2, timeKnown: false }
    expect(expectedRelease(row({ rhythm: { ...weekly, timeKnown: false }, hits: 1, window }), monday)).toEqual({
      at: tuesday(6),
      timeKnown: false,
    })
  })
})
