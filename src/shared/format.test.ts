import { afterEach, describe, expect, it } from 'vitest'
import { untilWords } from './format'

const zone = process.env.TZ
afterEach(() => {
  if (zone === undefined) delete process.env.TZ
  else process.env.TZ = zone
})

describe('untilWords', () => {
  it.each([
    // Tokyo is UTC+9: 15:30 UTC on 1 March is 00:30 on 2 March there — the UTC date would name the wrong day.
    ['Asia/Tokyo', '2026-03-01T10:00:00Z', '2026-03-01T15:30:00Z', '2026-03-02 00:30'],
    ['Asia/Tokyo', '2026-03-01T10:00:00Z', '2026-03-01T14:59:00Z', '23:59'],
    // New York is UTC−5 in March: 02:00 UTC on 2 March is still 1 March, 21:00, there — today.
    ['America/New_York', '2026-03-01T20:00:00Z', '2026-03-02T02:00:00Z', '21:00'],
    ['America/New_York', '2026-03-01T20:00:00Z', '2026-03-02T06:00:00Z', '2026-03-02 01:00'],
    ['UTC', '2026-03-01T10:00:00Z', '2026-03-02T00:05:00Z', '2026-03-02 00:05'],
  ])('in %s, at %s: until %s is "%s"', (tz, now, at, words) => {
    process.env.TZ = tz
    expect(untilWords(Date.parse(at), Date.parse(now))).toBe(words)
  })
})
