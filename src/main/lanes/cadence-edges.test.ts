import { describe, expect, it } from 'vitest'
import { cadenceWords, planAfterCheck, readBelief, readReleases, type Belief, type PlanAfterCheckInput } from './cadence'
import { DAY, estimateRhythm, HOUR, nextWindow, WEEK, type ReleaseObservation } from './rhythm'

// The edges of an adaptive Site's plan after a check (docs/freshness.md, docs/adr/0014-freshness-per-request.md):
// what the stored columns hold when they are damaged, where a window's hit ends, which sighting is exact, and
// when two misses drop the rhythm. cadence.test.ts has the ordinary cases and the passes.

const MIN = 60_000
/** Tuesday 3 November 2026, 00:00 UTC. */
const TUESDAY = Date.UTC(2026, 10, 3)
const pace = { restMs: HOUR, ceilingMs: DAY }
const exact = (at: number): ReleaseObservation => ({ at, exact: true })
const none = { rhythm: '', releases: '', rhythm_misses: 0 }
/** Weekly on Tuesdays at 15:00 UTC, eight weeks of it. */
const weeklyDates = Array.from({ length: 8 }, (_, i) => exact(TUESDAY + i * WEEK + 15 * HOUR))
const release = (week: number) => TUESDAY + week * WEEK + 15 * HOUR

/** A plan with the defaults of a quiet check (no New Chapter, no page dates, never checked before). */
const plan = (input: Partial<PlanAfterCheckInput> & Pick<PlanAfterCheckInput, 'now'>) =>
  planAfterCheck({ row: none, pageReleases: [], newChapter: false, previousCheckAt: 0, pace, ...input })

/** The row after a check that read the weekly page just after week 7's release: a rhythm, a window, nothing proven. */
const learnt = plan({ pageReleases: weeklyDates, now: release(7) + HOUR })

describe('what the stored columns hold', () => {
  it('an empty or damaged rhythm column believes nothing', () => {
    expect(readBelief('')).toEqual({ rhythm: null, hits: 0 })
    expect(readBelief('{"rhythm":')).toEqual({ rhythm: null, hits: 0 })
  })

  it('a belief keeps only the times that are numbers', () => {
    const belief = readBelief(JSON.stringify({ hits: 2, readAt: '1700000000000', offsetMs: -5 * MIN, newAt: null }))
    expect(belief).toEqual({ rhythm: null, hits: 2, offsetMs: -5 * MIN })
  })

  it('a belief keeps the window it waited for', () => {
    const window = { at: release(8), halfWidthMs: HOUR, timeKnown: true }
    expect(readBelief(JSON.stringify({ rhythm: null, hits: 0, window, readAt: 5, newAt: 6 }))).toEqual({
      rhythm: null,
      hits: 0,
      window,
      readAt: 5,
      newAt: 6,
    })
  })

  it('an empty, damaged or foreign releases column holds no release', () => {
    expect(readReleases('')).toEqual([])
    expect(readReleases('[[1,')).toEqual([])
    expect(readReleases('{"0":[1,1]}')).toEqual([])
    expect(readReleases('"[[1,1]]"')).toEqual([])
  })

  it('of the releases column, only pairs that start with a finite time are releases; 1 marks the exact ones', () => {
    const raw = '[[1000,1],[2000,0],[3000],{"0":4000},["5000",1],[1e400,1],[null,1],6000,[7000,true]]'
    expect(readReleases(raw)).toEqual([
      { at: 1000, exact: true },
      { at: 2000, exact: false },
      { at: 3000, exact: false },
      { at: 7000, exact: false },
    ])
  })
})

describe("what a check adds to a Series' releases", () => {
  it('the newest twelve dates of a long page are read: a catch-up of twelve chapters in a day hides older weeks', () => {
    // Thirteen weekly chapters, then twelve published together on one day: the page is listed oldest first.
    const weekly = Array.from({ length: 13 }, (_, i) => exact(TUESDAY + i * WEEK + 15 * HOUR))
    const catchUp = Array.from({ length: 12 }, (_, i) => exact(TUESDAY + 14 * WEEK + 9 * HOUR + i * MIN))
    const after = plan({ pageReleases: [...weekly, ...catchUp], now: TUESDAY + 14 * WEEK + 10 * HOUR })
    expect(readReleases(after.releases)).toEqual([catchUp[0]])
    expect(readBelief(after.rhythm).rhythm).toBeNull()
  })

  it('a page listed oldest first is read from its newest dates', () => {
    // Fourteen weekly chapters, then the Series went to every three days for six chapters.
    const weekly = Array.from({ length: 14 }, (_, i) => exact(TUESDAY + i * WEEK + 15 * HOUR))
    const threeDays = Array.from({ length: 6 }, (_, i) => exact(TUESDAY + 14 * WEEK + i * 3 * DAY + 15 * HOUR))
    const now = threeDays.at(-1)!.at + HOUR
    const after = plan({ pageReleases: [...weekly, ...threeDays], now })
    expect(readReleases(after.releases)).toEqual(threeDays)
    expect(readBelief(after.rhythm).rhythm).toMatchObject({ kind: 'interval', everyMs: 3 * DAY })
  })

  it("a date exactly at the Site's now is a release already", () => {
    const now = release(7) + HOUR
    const after = plan({ pageReleases: [exact(now)], now })
    expect(readReleases(after.releases)).toEqual([exact(now)])
  })

  it('a New Chapter found one and a half rests after the read before it is an exact release; a moment later, not', () => {
    const read = plan({ now: release(7) - HOUR })
    const readAt = readBelief(read.rhythm).readAt!
    const inTime = plan({ row: read, newChapter: true, now: readAt + 1.5 * HOUR })
    expect(readReleases(inTime.releases)).toEqual([exact(readAt + 0.75 * HOUR)])
    const late = plan({ row: read, newChapter: true, now: readAt + 1.5 * HOUR + 1 })
    expect(readReleases(late.releases)).toEqual([])
  })

  it('a New Chapter on the first check of a Series is no exact release: nothing says when it came', () => {
    const now = release(7) + 20 * MIN
    expect(readReleases(plan({ newChapter: true, now, siteOffsetMs: 3 * HOUR }).releases)).toEqual([])
    expect(readReleases(plan({ newChapter: true, now }).releases)).toEqual([])
  })

  it("a row from before reads were kept: the previous check's stamp, on the Site's clock, is the read", () => {
    // The Site's clock is 3 hours ahead; the previous check was 40 minutes before this one by the wall.
    const now = release(7) + 20 * MIN
    const found = plan({ newChapter: true, previousCheckAt: now - 40 * MIN, now, siteOffsetMs: 3 * HOUR })
    expect(readReleases(found.releases)).toEqual([exact(now + 3 * HOUR - 20 * MIN)])
  })
})

describe('a New Chapter against the window the plan waited for', () => {
  const window = readBelief(learnt.rhythm).window!
  const opens = window.at - window.halfWidthMs
  const closes = window.at + window.halfWidthMs
  /** A read of the page at `readAt` that found nothing, then the check at `now` that finds week 8's chapter. */
  const found = (readAt: number, now: number) => plan({ row: plan({ row: learnt, now: readAt }), newChapter: true, now })

  it('read a rest before the window opened, found inside it: foreseen', () => {
    const hit = found(opens - HOUR, opens + 10 * MIN)
    expect(readBelief(hit.rhythm).hits).toBe(1)
    expect(hit.rhythm_misses).toBe(0)
  })

  it('read a moment more than a rest before the window opened: it may have come before the window, a miss', () => {
    const early = found(opens - HOUR - 1, opens + 10 * MIN)
    expect(readBelief(early.rhythm).hits).toBe(0)
    expect(early.rhythm_misses).toBe(1)
  })

  it('found by a check a rest after the window closed: foreseen; later still: a miss', () => {
    expect(readBelief(found(window.at, closes + HOUR).rhythm).hits).toBe(1)
    const late = found(window.at, closes + HOUR + 1)
    expect(late.rhythm_misses).toBe(1)
    expect(readBelief(late.rhythm).hits).toBe(0)
  })

  it('a chapter found inside the window after a week with no read: it may have come any time, a miss', () => {
    expect(plan({ row: learnt, newChapter: true, previousCheckAt: opens - HOUR, now: window.at }).rhythm_misses).toBe(1)
  })
})

describe('proven, unproven and dropped', () => {
  /** A Belief row as a rhythm that foresaw `hits` chapters and missed `misses` since would have left it. */
  function row(hits: number, misses: number) {
    const rhythm = estimateRhythm(weeklyDates)!
    const belief: Belief = { rhythm, hits, window: nextWindow(rhythm, release(7)), readAt: release(7) + HOUR, offsetMs: 0 }
    return {
      rhythm: JSON.stringify(belief),
      releases: JSON.stringify(weeklyDates.map((r) => [r.at, 1])),
      rhythm_misses: misses,
    }
  }
  // A day after week 7's release: outside the window, which opens on week 8's Tuesday.
  const now = release(7) + DAY

  it('a rhythm that foresaw a chapter and missed none since rests up to the ceiling outside its window', () => {
    expect(plan({ row: row(1, 0), now }).next_check_at - now).toBe(DAY)
  })

  it('a rhythm that foresaw a chapter, then missed one, rests at most two rests again', () => {
    expect(plan({ row: row(1, 1), now }).next_check_at - now).toBe(2 * HOUR)
  })

  it('one miss kept, then a window passed with no chapter: two in a row, the quiet rest even inside the next window', () => {
    // Week 8's window passed with no chapter; the check comes inside week 9's, two weeks into the silence.
    const inside = release(9) - 10 * MIN
    const dropped = plan({ row: row(1, 1), now: inside })
    expect(dropped.next_check_at - inside).toBe(2 * HOUR)
    expect(dropped.rhythm_misses).toBe(1)
    // With no miss kept, the same check is one miss only: half the rest inside the window.
    expect(plan({ row: row(1, 0), now: inside }).next_check_at - inside).toBe(HOUR / 2)
  })

  it('a New Chapter is remembered as life: the silence counts from it on the next check', () => {
    const foundAt = release(7) + 3 * DAY
    const found = plan({ row: row(1, 0), newChapter: true, now: foundAt })
    expect(readBelief(found.rhythm).newAt).toBe(foundAt)
    const later = plan({ row: found, now: foundAt + 2 * HOUR })
    expect(readBelief(later.rhythm).newAt).toBe(foundAt)
    expect(JSON.parse(plan({ now: foundAt }).rhythm)).not.toHaveProperty('newAt')
  })
})

describe("the owner's words for the rest", () => {
  const quietWords = (restMs: number) => cadenceWords(none, restMs)

  it.each([
    [HOUR, 'checked every hour, less often while it stays silent (at most every 2 hours)'],
    [DAY, 'checked every day, less often while it stays silent (at most every 48 hours)'],
    [2 * HOUR, 'checked every 2 hours, less often while it stays silent (at most every 4 hours)'],
    [30 * MIN, 'checked every 30 minutes, less often while it stays silent (at most every hour)'],
    [45 * MIN, 'checked every 45 minutes, less often while it stays silent (at most every 90 minutes)'],
    [12 * HOUR, 'checked every 12 hours, less often while it stays silent (at most every day)'],
  ])('a rest of %i ms: "%s"', (restMs, words) => {
    expect(quietWords(restMs)).toBe(`no rhythm yet — ${words}`)
  })

  it('a rhythm wrong once is still the rhythm; wrong twice, the owner is told', () => {
    expect(cadenceWords({ rhythm: learnt.rhythm, rhythm_misses: 1 }, HOUR)).toBe('weekly, Tuesdays ~15:00 UTC')
    expect(cadenceWords({ rhythm: learnt.rhythm, rhythm_misses: 2 }, HOUR)).toBe(
      'weekly, Tuesdays ~15:00 UTC — wrong 2 times, checked every hour, less often while it stays silent (at most every 2 hours)',
    )
  })
})
