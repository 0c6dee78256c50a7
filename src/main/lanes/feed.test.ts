/** The pure rules of a Site's updates page (docs/adr/0165-site-feeds.md): coverage, its cadence, the verdicts. */
import { describe, expect, it } from 'vitest'
import type { FeedEntry } from '../sites/feeds'
import {
  changedEntries,
  coveredSince,
  feedVerdicts,
  FEED_LONGEST_RESTS,
  FEED_MAX_RESTS,
  FEED_MIN_RESTS,
  FEED_NEW_SHARE,
  FEED_READ_SHARE,
  FEED_RETRY_RESTS,
  FeedWatch,
  nextInterval,
  olderThan,
  safetyCeilingMs,
} from './feed'

const HOUR = 3_600_000
const pace = { restMs: HOUR, ceilingMs: 24 * HOUR, minGapMs: 5_000 }
const line = (id: string, chapter: number | null, updatedAt?: number): FeedEntry => ({
  seriesUrl: `https://a.example/manga/${id}`,
  chapter,
  label: chapter === null ? 'Extra' : `Chapter ${chapter}`,
  ...(updatedAt === undefined ? {} : { updatedAt }),
})

describe('coverage', () => {
  const now = 100 * HOUR
  it('a first read covers only Series checked from now on', () => {
    expect(coveredSince(null, [line('a', 1)], null, now, 0)).toBe(now)
  })
  it('a line of the previous read still shown unchanged (any of them): the coverage goes on; none left: from now', () => {
    const before = [line('a', 1), line('b', 4)]
    expect(coveredSince(before, [line('c', 2), line('a', 1)], now - 3 * HOUR, now, 0)).toBe(now - 3 * HOUR)
    // The newest Series moved again: the page still reaches back to `b` as the previous read showed it (ADR 0200).
    expect(coveredSince(before, [line('a', 2), line('c', 2), line('b', 4)], now - 3 * HOUR, now, 0)).toBe(now - 3 * HOUR)
    // The same Series with another chapter is another line: it moved, and what fell off in between is unknown.
    expect(coveredSince(before, [line('a', 2)], now - 3 * HOUR, now, 0)).toBe(now)
    expect(coveredSince(before, [line('c', 2), line('d', 7)], now - 3 * HOUR, now, 0)).toBe(now)
  })
  it('a page older than the previous read (a Series shows a lower chapter): from now', () => {
    const before = [line('a', 3), line('b', 4)]
    expect(coveredSince(before, [line('a', 2), line('b', 4)], now - 3 * HOUR, now, 0)).toBe(now)
  })
  it('lines with times cover from the oldest, turned to the wall clock, a minute inside', () => {
    const site = now + 2 * HOUR // the Site's clock is two hours ahead
    const entries = [line('a', 3, site - HOUR), line('b', 9, site - 5 * HOUR)]
    expect(coveredSince(null, entries, null, now, 2 * HOUR)).toBe(now - 5 * HOUR + 60_000)
  })
})

describe('a page that failed', () => {
  it('is tried again after its interval, twice as long after each failure in a row, at most a rest; a read resets it', () => {
    const watch = new FeedWatch(pace)
    const t = 100 * HOUR
    watch.parsed([line('a', 1)], t, 0, pace)
    const interval = watch.status.intervalMs
    expect(interval).toBeLessThan(HOUR / 2)
    watch.failed('HTTP 503', t + interval, pace)
    expect(watch.status.nextReadAt).toBe(t + 2 * interval)
    watch.failed('HTTP 503', t + 2 * interval, pace)
    expect(watch.status.nextReadAt).toBe(t + 4 * interval)
    watch.failed('HTTP 503', t + 4 * interval, pace)
    expect(watch.status.nextReadAt).toBe(t + 4 * interval + FEED_RETRY_RESTS * HOUR)
    watch.parsed([line('a', 1)], t + 5 * HOUR, 0, pace)
    watch.failed('HTTP 503', t + 6 * HOUR, pace)
    expect(watch.status.nextReadAt).toBe(t + 6 * HOUR + watch.status.intervalMs)
  })
})

describe('a stale page (older than the last read)', () => {
  it('is a read that failed: covers nobody, keeps the chain for the next read, is tried again after the interval', () => {
    const watch = new FeedWatch(pace)
    const t = 100 * HOUR
    expect(olderThan([line('a', 3)], [line('a', 2), line('b', 1)])).toBe(true)
    expect(olderThan([line('a', 3)], [line('a', 3), line('b', 1)])).toBe(false)
    watch.parsed([line('a', 3), line('b', 4)], t, 0, pace)
    const interval = watch.status.intervalMs
    expect(watch.parsed([line('a', 2), line('b', 4)], t + interval, 0, pace)).toBe(false)
    expect(watch.status.coveredSince).toBeNull()
    expect(watch.status.nextReadAt).toBe(t + 2 * interval)
    // The next fresh read overlaps the last one that parsed: the coverage goes on from the first read.
    expect(watch.parsed([line('c', 1), line('a', 3)], t + 2 * interval, 0, pace)).toBe(true)
    expect(watch.status.coveredSince).toBe(t)
  })
  it('twice in a row is the page as it is now (a chapter renumbered down): read, the chain broken', () => {
    const watch = new FeedWatch(pace)
    const t = 100 * HOUR
    watch.parsed([line('a', 3), line('b', 4)], t, 0, pace)
    expect(watch.parsed([line('a', 2), line('b', 4)], t + HOUR, 0, pace)).toBe(false)
    expect(watch.parsed([line('a', 2), line('b', 4)], t + 2 * HOUR, 0, pace)).toBe(true)
    expect(watch.status.coveredSince).toBe(t + 2 * HOUR)
    expect(watch.parsed([line('a', 2), line('b', 4)], t + 3 * HOUR, 0, pace)).toBe(true)
    expect(watch.status.coveredSince).toBe(t + 2 * HOUR)
  })
})

describe('a wall clock set back', () => {
  it('moves the reads and the coverage back with it: the page is read when planned, its Series stay covered', () => {
    const watch = new FeedWatch(pace)
    const t = 100 * HOUR
    watch.parsed([line('a', 1)], t, 0, pace)
    const { nextReadAt } = watch.status
    watch.steppedBack(5 * HOUR)
    expect(watch.status.coveredSince).toBe(t - 5 * HOUR)
    expect(watch.status.nextReadAt).toBe(nextReadAt - 5 * HOUR)
    expect(watch.due(nextReadAt - 5 * HOUR - 1)).toBe(false)
    expect(watch.due(nextReadAt - 5 * HOUR)).toBe(true)
    // The chain goes on from the moved coverage.
    watch.parsed([line('b', 2), line('a', 1)], nextReadAt - 5 * HOUR, 0, pace)
    expect(watch.status.coveredSince).toBe(t - 5 * HOUR)
  })
  it('a clock that reads before the last read, with no step seen: the page is due', () => {
    const watch = new FeedWatch(pace)
    watch.parsed([line('a', 1)], 100 * HOUR, 0, pace)
    expect(watch.due(100 * HOUR + 1)).toBe(false)
    expect(watch.due(95 * HOUR)).toBe(true)
  })
})

describe('a wall clock set forward (ADR 0238)', () => {
  // Three clocks at each read: the wall, the monotonic one, the Site's (its Date).
  const read = (watch: FeedWatch, wall: number, monotonic: number, site?: number) => watch.steppedForward(wall, monotonic, site)
  it("is the wall's rise over both the monotonic clock and the Site's; the coverage on the old clock moves with it", () => {
    const watch = new FeedWatch(pace)
    const t = 100 * HOUR
    expect(read(watch, t, t, t)).toBeNull()
    watch.parsed([line('a', 1)], t, 0, pace)
    // An hour later on the monotonic and Site clocks, five on the wall: set forward by four.
    const step = read(watch, t + 5 * HOUR, t + HOUR, t + HOUR)
    expect(step?.ms).toBe(4 * HOUR)
    // Stamps up to the last read plus the step were written on the old clock; later ones on the new.
    expect(step?.before).toBe(t + HOUR - 1)
    expect(watch.status.coveredSince).toBe(t + 4 * HOUR)
    // The next read compares with this one: no step again.
    expect(read(watch, t + 6 * HOUR, t + 2 * HOUR, t + 2 * HOUR)).toBeNull()
  })
  it("a machine that slept moves the Site's clock with the wall: no step", () => {
    const watch = new FeedWatch(pace)
    const t = 100 * HOUR
    read(watch, t, t, t)
    expect(read(watch, t + 5 * HOUR, t + HOUR, t + 5 * HOUR)).toBeNull()
  })
  it('a Site clock that lags (a stale Date) without a step of the wall moves nothing, nor a page without a Date', () => {
    const watch = new FeedWatch(pace)
    const t = 100 * HOUR
    read(watch, t, t, t)
    expect(read(watch, t + HOUR, t + HOUR, t - HOUR)).toBeNull()
    expect(read(watch, t + 9 * HOUR, t + 2 * HOUR, undefined)).toBeNull()
  })
  it('a rise within a minute is the clocks drifting apart, not a step', () => {
    const watch = new FeedWatch(pace)
    const t = 100 * HOUR
    read(watch, t, t, t)
    expect(read(watch, t + HOUR + 60_000, t + HOUR, t + HOUR)).toBeNull()
    expect(read(watch, t + 2 * HOUR + 3 * 60_000, t + 2 * HOUR, t + 2 * HOUR)?.ms).toBe(2 * 60_000)
  })
})

describe('a page that failed once', () => {
  it('covers nobody until it reads again; a read that overlaps the last good one carries its coverage on', () => {
    const pace = { restMs: HOUR, ceilingMs: 24 * HOUR, minGapMs: 5_000 }
    const watch = new FeedWatch(pace)
    const t = 100 * HOUR
    watch.parsed([line('a', 1), line('b', 4)], t, 0, pace)
    expect(watch.status.coveredSince).toBe(t)
    watch.failed('HTTP 503', t + HOUR, pace)
    expect(watch.status.coveredSince).toBeNull()
    watch.parsed([line('c', 2), line('a', 1)], t + 2 * HOUR, 0, pace)
    expect(watch.status.coveredSince).toBe(t)
    // No overlap with the last good read: only Series checked from now on.
    watch.failed('HTTP 503', t + 3 * HOUR, pace)
    watch.parsed([line('d', 9)], t + 4 * HOUR, 0, pace)
    expect(watch.status.coveredSince).toBe(t + 4 * HOUR)
  })
})

describe('the page cadence', () => {
  it('halves when most of the page is new, lengthens when little is, within its bounds', () => {
    const q = 20 * 60_000
    expect(nextInterval(q, 15, 20, pace)).toBe(15 * 60_000) // halved, to the quarter-rest floor
    expect(nextInterval(q, 0, 20, pace)).toBe(30 * 60_000) // lengthened by half
    // Between a quarter and half of the page new: it stays.
    expect(nextInterval(q, FEED_NEW_SHARE * 20, 20, pace)).toBe(q)
    expect(nextInterval(q, 10, 20, pace)).toBe(q)
    // Fewer than a quarter new: toward the interval that would show a quarter, by half at most.
    expect(nextInterval(q, 4, 20, pace)).toBe(25 * 60_000)
    expect(nextInterval(q, 1, 20, pace)).toBe(30 * 60_000)
    expect(nextInterval(FEED_MAX_RESTS * HOUR, 0, 20, pace)).toBe(FEED_MAX_RESTS * HOUR)
    expect(nextInterval(FEED_MIN_RESTS * HOUR, 20, 20, pace)).toBe(FEED_MIN_RESTS * HOUR)
  })
  it('reads no more often than its share of the checks of the Series it stands for, at most every two rests', () => {
    const q = 20 * 60_000
    // 22 bookmarked Series: a read costs at most 0.09 × 22 checks a rest, every 30.3 minutes at least.
    expect(nextInterval(q, 3, 20, pace, 22)).toBe(Math.round(HOUR / (FEED_READ_SHARE * 22)))
    expect(nextInterval(q, 3, 20, pace, 5)).toBe(FEED_LONGEST_RESTS * HOUR)
    // Hundreds of bookmarks: the learnt interval alone.
    expect(nextInterval(q, 5, 20, pace, 400)).toBe(q)
    expect(nextInterval(q, 0, 20, pace, 400)).toBe(30 * 60_000)
  })
  it("on a Lane whose Series outnumber a rest's requests, at least every half of the time it takes to go round them", () => {
    // 200 Series a minute apart: the fixed schedule comes round every 200 minutes, the page at least every 100.
    const crowded = { restMs: HOUR, ceilingMs: 24 * HOUR, minGapMs: 60_000 }
    expect(nextInterval(90 * 60_000, 1, 20, crowded, 200)).toBe(100 * 60_000)
    expect(nextInterval(HOUR, 0, 20, crowded, 200)).toBe(90 * 60_000)
    // 40 Series a minute apart go round within the rest: half a rest, as before.
    expect(nextInterval(HOUR, 0, 20, crowded, 40)).toBe(FEED_MAX_RESTS * HOUR)
  })
  it('counts new lines against the previous read', () => {
    expect(changedEntries(null, [line('a', 1)])).toBe(1)
    expect(changedEntries([line('a', 1)], [line('a', 2), line('a', 1)])).toBe(1)
  })
  it('the safety ceiling is 24 rests, never past the Site ceiling', () => {
    expect(safetyCeilingMs(pace)).toBe(24 * HOUR)
    expect(safetyCeilingMs({ restMs: HOUR / 2, ceilingMs: 24 * HOUR })).toBe(12 * HOUR)
    expect(safetyCeilingMs({ restMs: 4 * HOUR, ceilingMs: 24 * HOUR })).toBe(24 * HOUR)
  })
})

describe('verdicts', () => {
  const row = (id: string, latest: number | null) => ({ series_id: id, latest_chapter: latest, latest_checked_at: 0, next_check_at: 1 })
  it('above the Latest Chapter: sighted; at or below it: unchanged; no number: sighted only when the line changed', () => {
    const lines = new Map([
      ['up', line('up', 6)],
      ['same', line('same', 5)],
      ['stale', line('stale', 3)],
      ['new', line('new', 1)],
      ['extra', line('extra', null)],
    ])
    const rows = [row('up', 5), row('same', 5), row('stale', 5), row('new', null), row('extra', 5), row('absent', 5)]
    expect(feedVerdicts(lines, rows, new Set())).toEqual({ sighted: ['up', 'new', 'extra'], unchanged: ['same', 'stale'] })
    const shownBefore = new Set([`${line('extra', null).seriesUrl}\nExtra`])
    expect(feedVerdicts(lines, rows, shownBefore).sighted).toEqual(['up', 'new'])
  })
})
