import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FetchResult } from '../fetch/fetcher'
import type { Site } from '../sites/site'
import { forceSeriesPoll, requireSeries } from '../store/series'
import { recordSighting } from '../store/sightings'
import { FakeClock } from '../testing/clock'
import { FakeFetcher, testSite } from '../testing/fakes'
import { passOnClock } from '../testing/pass'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { cadenceWords, planAfterCheck, readBelief, readReleases, UNPROVEN_REST_FACTOR } from './cadence'
import { WallWatch } from './pass'
import { DAY, HOUR, WEEK, type ReleaseObservation } from './rhythm'

const MIN = 60_000
/** Tuesday 3 November 2026, 00:00 UTC. */
const TUESDAY = Date.UTC(2026, 10, 3)
const pace = { restMs: HOUR, ceilingMs: DAY }
const exact = (at: number): ReleaseObservation => ({ at, exact: true })
const none = { rhythm: '', releases: '', rhythm_misses: 0 }

describe('planning after a check (pure)', () => {
  const weeklyDates = Array.from({ length: 8 }, (_, i) => exact(TUESDAY + i * WEEK + 15 * HOUR))
  const afterLast = TUESDAY + 7 * WEEK + 16 * HOUR

  it('no history: the fixed rest, and no rhythm believed', () => {
    const plan = planAfterCheck({ row: none, pageReleases: [], newChapter: false, previousCheckAt: 0, now: afterLast, pace })
    expect(plan).toMatchObject({ next_check_at: afterLast + HOUR, rhythm_misses: 0 })
    expect(readBelief(plan.rhythm).rhythm).toBeNull()
    expect(cadenceWords({ rhythm: plan.rhythm, rhythm_misses: 0 }, HOUR)).toBe(
      'no rhythm yet — checked every hour, less often while it stays silent (at most every 2 hours)',
    )
  })

  it('irregular releases: the fixed rest', () => {
    const irregular = [0, 1.2, 6.5, 7, 15.3, 16, 30].map((d) => exact(TUESDAY + d * DAY))
    const now = TUESDAY + 31 * DAY
    const plan = planAfterCheck({ row: none, pageReleases: irregular, newChapter: false, previousCheckAt: 0, now, pace })
    expect(plan.next_check_at).toBe(now + HOUR)
    expect(readBelief(plan.rhythm).rhythm).toBeNull()
  })

  it('irregular and silent for ten days: two rests; a New Chapter found (after a long rest, so no exact release) ends the silence', () => {
    const irregular = [0, 1.2, 6.5, 7, 15.3, 16, 20].map((d) => exact(TUESDAY + d * DAY))
    const now = TUESDAY + 30 * DAY
    const silent = planAfterCheck({ row: none, pageReleases: irregular, newChapter: false, previousCheckAt: 0, now, pace })
    expect(silent.next_check_at - now).toBe(2 * HOUR)
    const found = planAfterCheck({ row: silent, pageReleases: irregular, newChapter: true, previousCheckAt: 0, now: now + 2 * HOUR, pace })
    expect(found.next_check_at - (now + 2 * HOUR)).toBe(HOUR)
    expect(readReleases(found.releases)).toEqual(readReleases(silent.releases))
    // Two days on, still within three silent days of that chapter: the rest.
    const later = planAfterCheck({ row: found, pageReleases: irregular, newChapter: false, previousCheckAt: 0, now: now + 2 * DAY, pace })
    expect(later.next_check_at - (now + 2 * DAY)).toBe(HOUR)
  })

  it('a weekly history read from the page, never proven: rests outside the window a few rests, not the ceiling', () => {
    const plan = planAfterCheck({ row: none, pageReleases: weeklyDates, newChapter: false, previousCheckAt: 0, now: afterLast, pace })
    expect(plan.next_check_at - afterLast).toBe(UNPROVEN_REST_FACTOR * HOUR)
    expect(cadenceWords({ rhythm: plan.rhythm, rhythm_misses: plan.rhythm_misses }, HOUR)).toBe('weekly, Tuesdays ~15:00 UTC')
  })

  it('a New Chapter inside the predicted window proves the rhythm: then it rests up to the ceiling off its day', () => {
    const first = planAfterCheck({ row: none, pageReleases: weeklyDates, newChapter: false, previousCheckAt: 0, now: afterLast, pace })
    const window = readBelief(first.rhythm).window!
    expect(Math.abs(window.at - (TUESDAY + 8 * WEEK + 15 * HOUR))).toBeLessThan(MIN)
    const foundAt = TUESDAY + 8 * WEEK + 15 * HOUR + 20 * MIN
    // The check at the window's opening sees nothing yet; the next one finds the chapter.
    const opening = planAfterCheck({
      row: first,
      pageReleases: weeklyDates,
      newChapter: false,
      previousCheckAt: 0,
      now: foundAt - 30 * MIN,
      pace,
    })
    const hit = planAfterCheck({
      row: opening,
      pageReleases: [...weeklyDates, exact(foundAt - 10 * MIN)],
      newChapter: true,
      previousCheckAt: foundAt - 30 * MIN,
      now: foundAt,
      pace,
    })
    expect(readBelief(hit.rhythm).hits).toBe(1)
    expect(hit.next_check_at - foundAt).toBe(DAY)
  })

  it('a New Chapter found at the window after resting through its release proves nothing: a miss', () => {
    const first = planAfterCheck({ row: none, pageReleases: weeklyDates, newChapter: false, previousCheckAt: 0, now: afterLast, pace })
    // The Series rested from a day before the window; the check at the window finds a chapter that came out
    // sometime in that day — the rhythm cannot claim it.
    const dayBefore = TUESDAY + 8 * WEEK - 9 * HOUR
    const resting = planAfterCheck({ row: first, pageReleases: weeklyDates, newChapter: false, previousCheckAt: 0, now: dayBefore, pace })
    const foundAt = TUESDAY + 8 * WEEK + 14 * HOUR + 5 * MIN
    const found = planAfterCheck({ row: resting, pageReleases: weeklyDates, newChapter: true, previousCheckAt: 0, now: foundAt, pace })
    expect(found.rhythm_misses).toBe(1)
    expect(readBelief(found.rhythm).hits).toBe(0)
  })

  it("a release known only to its day keeps a daily rhythm's hour: the next window is tomorrow at that hour, not at noon", () => {
    // Daily at 19:00, learnt from exact releases; the newest release is known only by the page's date.
    const daily = Array.from({ length: 6 }, (_, i) => exact(TUESDAY + i * DAY + 19 * HOUR))
    const lastDay = TUESDAY + 6 * DAY
    const now = lastDay + 23 * HOUR
    const plan = planAfterCheck({
      row: none,
      pageReleases: [...daily, { at: lastDay, exact: false }],
      newChapter: false,
      previousCheckAt: 0,
      now,
      pace,
    })
    const window = readBelief(plan.rhythm).window!
    expect(Math.abs(window.at - (lastDay + DAY + 19 * HOUR))).toBeLessThan(MIN)
  })

  describe("on the Site's clock, which a step of the wall clock does not move", () => {
    /** Weeks 9 and 10 of a weekly Series checked at its window, seen through a wall clock `lagMs` behind the Site's. */
    function twoWeeks(lagMs: number, dated = true) {
      const at = (site: number) => site - lagMs
      const offset = dated ? { siteOffsetMs: lagMs } : {}
      let row = planAfterCheck({
        row: none,
        pageReleases: weeklyDates,
        newChapter: false,
        previousCheckAt: 0,
        now: at(afterLast),
        pace,
        siteOffsetMs: lagMs,
      })
      for (const week of [8, 9]) {
        const release = TUESDAY + week * WEEK + 15 * HOUR
        const before = planAfterCheck({
          row,
          pageReleases: [],
          newChapter: false,
          previousCheckAt: 0,
          now: at(release - 20 * MIN),
          pace,
          ...offset,
        })
        row = planAfterCheck({
          row: before,
          pageReleases: [exact(release)],
          newChapter: true,
          previousCheckAt: 0,
          now: at(release + 10 * MIN),
          pace,
          ...offset,
        })
      }
      return { row, now: at(TUESDAY + 9 * WEEK + 15 * HOUR + 10 * MIN) }
    }

    it('a wall clock hours behind learns the same rhythm, the same window and the same wait', () => {
      const straight = twoWeeks(0)
      const behind = twoWeeks(5 * HOUR)
      expect(readBelief(behind.row.rhythm)).toMatchObject({ rhythm: readBelief(straight.row.rhythm).rhythm, hits: 2 })
      expect(readBelief(behind.row.rhythm).window).toEqual(readBelief(straight.row.rhythm).window)
      expect(behind.row.rhythm_misses).toBe(0)
      expect(behind.row.next_check_at - behind.now).toBe(straight.row.next_check_at - straight.now)
      expect(cadenceWords(behind.row, HOUR)).toBe('weekly, Tuesdays ~15:00 UTC')
    })

    it("a sighting is kept on the Site's clock: the middle of the two reads, not the wall clock's", () => {
      const { row } = twoWeeks(5 * HOUR)
      const sighting = TUESDAY + 9 * WEEK + 15 * HOUR - 5 * MIN
      // The newest release kept: the page's date (15:00) and the sighting (14:55, exact) are one release.
      expect(readReleases(row.releases).at(-1)).toEqual({ at: sighting, exact: true })
    })

    it('a response with no date: the offset the last dated one measured', () => {
      const first = planAfterCheck({
        row: none,
        pageReleases: weeklyDates,
        newChapter: false,
        previousCheckAt: 0,
        now: afterLast - 5 * HOUR,
        pace,
        siteOffsetMs: 5 * HOUR,
      })
      const undated = planAfterCheck({
        row: first,
        pageReleases: weeklyDates,
        newChapter: false,
        previousCheckAt: 0,
        now: afterLast - 4 * HOUR,
        pace,
      })
      const dated = planAfterCheck({
        row: first,
        pageReleases: weeklyDates,
        newChapter: false,
        previousCheckAt: 0,
        now: afterLast - 4 * HOUR,
        pace,
        siteOffsetMs: 5 * HOUR,
      })
      expect(undated).toEqual(dated)
      expect(readBelief(undated.rhythm)).toMatchObject({ offsetMs: 5 * HOUR, readAt: afterLast + HOUR })
    })

    it("without a date ever, the wall clock is taken for the Site's (as before there was one)", () => {
      const plan = planAfterCheck({ row: none, pageReleases: weeklyDates, newChapter: false, previousCheckAt: 0, now: afterLast, pace })
      expect(readBelief(plan.rhythm)).toMatchObject({ offsetMs: 0, readAt: afterLast })
    })

    it("a page date after the Site's now is not a release yet, whatever the wall clock says", () => {
      const ahead = exact(afterLast + 2 * HOUR)
      // The wall clock is 3 h ahead of the Site: by the wall, the date has passed; by the Site's clock, not.
      const plan = planAfterCheck({
        row: none,
        pageReleases: [...weeklyDates, ahead],
        newChapter: false,
        previousCheckAt: 0,
        now: afterLast + 3 * HOUR,
        pace,
        siteOffsetMs: -3 * HOUR,
      })
      expect(readReleases(plan.releases).map((r) => r.at)).not.toContain(ahead.at)
    })

    it('the sighting counts from the previous check that read the page: a failed check between says nothing', () => {
      const release = TUESDAY + 8 * WEEK + 15 * HOUR
      const read = planAfterCheck({
        row: none,
        pageReleases: weeklyDates,
        newChapter: false,
        previousCheckAt: 0,
        now: release - 2 * HOUR,
        pace,
      })
      // A check at release − 30 min failed (its stamp is the Series' last); the one after finds the chapter.
      const found = planAfterCheck({
        row: read,
        pageReleases: [],
        newChapter: true,
        previousCheckAt: release - 30 * MIN,
        now: release + 10 * MIN,
        pace,
      })
      // Two hours and ten minutes since the last read: too long for an exact sighting.
      expect(readReleases(found.releases).filter((r) => r.exact && r.at > release - DAY)).toEqual([])
    })
  })

  it('wrong twice (two New Chapters outside the window): back to the quiet rest, and the owner is told', () => {
    let row = planAfterCheck({ row: none, pageReleases: weeklyDates, newChapter: false, previousCheckAt: 0, now: afterLast, pace })
    // The Series moved to Fridays: each chapter comes when the rhythm says Tuesday.
    for (const week of [8, 9]) {
      const at = TUESDAY + week * WEEK + 3 * DAY + 15 * HOUR
      row = planAfterCheck({ row, pageReleases: [], newChapter: true, previousCheckAt: at - 3 * HOUR, now: at, pace })
    }
    expect(row.rhythm_misses).toBe(2)
    const now = TUESDAY + 9 * WEEK + 3 * DAY + 15 * HOUR
    expect(row.next_check_at - now).toBe(HOUR)
    // The second chapter was just found: no silence yet, so the plain rest.
    expect(cadenceWords(row, HOUR)).toMatch(/wrong 2 times, checked every hour, less often while it stays silent/)
  })
})

describe('an adaptive Site, pass by pass (real SQLite file, fake clock)', () => {
  let store: TestStore
  let clock: FakeClock
  let http: FakeFetcher
  let alice: number
  let wallWatch: WallWatch

  /** A Site whose page body is JSON: [[chapter, ISO release time], …]. */
  const site = (cadence: 'fixed' | 'adaptive'): Site => {
    const base = testSite('a', { pace: { cadence, maxPassMs: 24 * HOUR } })
    return {
      ...base,
      adapter: {
        request: (url) => ({ url: url.href, method: 'GET' }),
        read: (page) => ({
          kind: 'parsed',
          result: {
            chapters: (JSON.parse(page.body) as Array<[number, number]>).map(([n, at]) => ({
              number: n,
              label: `Chapter ${n}`,
              url: `${page.url}/c/${n}`,
              released: { at, exact: true },
            })),
          },
        }),
      },
    }
  }
  /** Weekly on Tuesdays at 15:00 UTC: chapter n came out n weeks after the first. */
  const releases = Array.from({ length: 20 }, (_, i) => [i + 1, TUESDAY + i * WEEK + 15 * HOUR] as [number, number])
  const page = (): FetchResult => ({
    kind: 'page',
    page: {
      url: 'https://a.example/manga/w',
      status: 200,
      contentType: 'application/json',
      body: JSON.stringify(releases.filter(([, at]) => at <= clock.now())),
    },
  })

  beforeEach(async () => {
    store = openTestStore()
    // Wednesday of week 8: eight releases behind it.
    clock = new FakeClock(TUESDAY + 7 * WEEK + DAY + 9 * HOUR)
    http = new FakeFetcher('http', clock, page)
    wallWatch = new WallWatch()
    alice = await seedReader(store.db, 'alice')
    await seedSeries(store.db, { id: 'w', readers: [alice] })
  })
  afterEach(() => store.dispose())

  const pass = (s: Site) => passOnClock({ db: store.db, site: s, clock, fetchers: { http }, wallWatch })

  /**
   * Runs the Lane's passes until `until`, as its loop would (each pass, then its sleep) — less the idle passes
   * that would find nothing due: after a pass that checked nothing, the clock goes on to the Series' next turn.
   */
  async function runUntil(s: Site, until: number) {
    while (clock.now() < until) {
      const r = await pass(s)
      let next = clock.now() + Math.max(r.sleepMs, 1_000)
      if (!r.row?.checked) {
        const row = await requireSeries(store.db, { site: 'a', seriesId: 'w' })
        next = Math.max(next, row.next_check_at > 0 ? row.next_check_at : row.latest_checked_at + s.pace.restMs)
      }
      await clock.advance(Math.min(next, until) - clock.now() || 1_000)
    }
  }
  const checksBetween = (from: number, to: number) => http.calls.filter((c) => c.at >= from && c.at < to).length

  it('a weekly Series is checked rarely off its day and often at its window, and each chapter is found within the hour', async () => {
    const start = clock.now()
    const end = TUESDAY + 11 * WEEK
    await runUntil(site('adaptive'), end)
    // Week 10 (Wednesday to Tuesday), once the rhythm proved itself on week 9's chapter.
    const weekStart = TUESDAY + 9 * WEEK + DAY
    const window = (t: number) => Math.abs(t - (TUESDAY + 10 * WEEK + 15 * HOUR)) <= 3 * HOUR
    const week = http.calls.filter((c) => c.at >= weekStart && c.at < weekStart + WEEK)
    const offDay = week.filter((c) => !window(c.at)).length
    // Off its day, once a ceiling; at its window, every half rest (10 checks in all, here).
    expect(offDay).toBeLessThanOrEqual(7)
    expect(week.filter((c) => window(c.at)).length).toBeGreaterThanOrEqual(3)
    // A fixed rest would have made 168 checks that week.
    expect(week.length).toBeLessThan(168 / 4)
    const series = await requireSeries(store.db, { site: 'a', seriesId: 'w' })
    expect(series.latest_chapter).toBe(11)
    expect(cadenceWords(series, HOUR)).toBe('weekly, Tuesdays ~15:00 UTC')
    expect(series.next_check_at).toBeGreaterThan(clock.now())
    // Every chapter released during the run found within an hour.
    for (const n of [9, 10, 11]) {
      const at = releases[n - 1]![1]
      const finding = http.calls.find((c) => c.at >= at)!
      expect(finding.at - at).toBeLessThanOrEqual(HOUR)
    }
    expect(checksBetween(start, end)).toBeGreaterThan(0)
  })

  it('the same Series on a fixed Site is checked every rest and writes no plan', async () => {
    const from = clock.now()
    await runUntil(site('fixed'), from + DAY)
    expect(checksBetween(from, from + DAY)).toBe(24)
    const series = await requireSeries(store.db, { site: 'a', seriesId: 'w' })
    expect(series).toMatchObject({ next_check_at: 0, rhythm: '', releases: '', rhythm_misses: 0 })
  })

  it('a Check now and a Sighting on a resting Series act exactly as on a fixed Site', async () => {
    const s = site('adaptive')
    // Prove the rhythm on week 9's chapter, then the Series rests toward week 10's window.
    await runUntil(s, TUESDAY + 8 * WEEK + DAY)
    const resting = await requireSeries(store.db, { site: 'a', seriesId: 'w' })
    expect(resting.next_check_at - clock.now()).toBeGreaterThan(HOUR)
    const before = http.calls.length
    await forceSeriesPoll(store.db, { site: 'a', seriesId: 'w' }, clock.now())
    await pass(s)
    expect(http.calls.length).toBe(before + 1)
    // A Sighting of one Reader defers the next check as on a fixed Site: not due within the rest after it.
    await clock.advance(2 * HOUR)
    await recordSighting(store.db, { readerId: alice, site: 'a', seriesId: 'w', chapter: 10, sightedAt: clock.now(), now: clock.now() })
    await store.db
      .updateTable('series')
      .set({ next_check_at: clock.now() - 1 })
      .execute()
    await pass(s)
    expect(http.calls.length).toBe(before + 1)
  })
  it('a wall clock set forward, then back just before the window: the rhythm holds, each chapter found within the hour', async () => {
    // The Site releases and dates its pages on true time; the app's wall clock is what gets stepped.
    const seen: number[] = []
    http.respond = () => {
      seen.push(clock.monotonic())
      const shown = releases.filter(([, at]) => at <= clock.monotonic())
      return {
        kind: 'page',
        page: {
          url: 'https://a.example/manga/w',
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify(shown),
          date: clock.monotonic(),
        },
      }
    }
    const s = site('adaptive')
    await runUntil(s, TUESDAY + 8 * WEEK + 3 * DAY)
    // Friday: the wall clock jumps 4 h ahead; the next Tuesday at 08:00 (true), 6 h back: it is now 2 h behind.
    clock.stepWall(4 * HOUR)
    await runUntil(s, TUESDAY + 9 * WEEK + 8 * HOUR + 4 * HOUR)
    const resting = await requireSeries(store.db, { site: 'a', seriesId: 'w' })
    clock.stepWall(-6 * HOUR)
    // The Lane's next pass (it runs every idle requery) sees the step and moves the plan with it.
    await pass(s)
    const moved = await requireSeries(store.db, { site: 'a', seriesId: 'w' })
    expect(resting.next_check_at - moved.next_check_at).toBe(6 * HOUR)
    await runUntil(s, TUESDAY + 11 * WEEK - 2 * HOUR)
    for (const n of [10, 11]) {
      const at = releases[n - 1]![1]
      expect(seen.find((t) => t >= at)! - at).toBeLessThanOrEqual(HOUR)
    }
    const series = await requireSeries(store.db, { site: 'a', seriesId: 'w' })
    expect(series.latest_chapter).toBe(11)
    expect(series.rhythm_misses).toBe(0)
    expect(cadenceWords(series, HOUR)).toBe('weekly, Tuesdays ~15:00 UTC')
    // Off its window it still rests: far fewer checks than a fixed rest's 168 a week.
    expect(seen.filter((t) => t >= TUESDAY + 9 * WEEK + DAY && t < TUESDAY + 10 * WEEK + DAY).length).toBeLessThan(168 / 4)
  })
})

describe('the wall watch (a Lane sees its wall clock set back)', () => {
  it('reports a drop of the wall clock against the monotonic one, once; a rise or a jitter, never', () => {
    const watch = new WallWatch()
    expect(watch.steppedBack(1_000_000, 1_000_000)).toBe(0)
    // Both clocks moved an hour: nothing.
    expect(watch.steppedBack(1_000_000 + HOUR, 1_000_000 + HOUR)).toBe(0)
    // The wall clock a few seconds off (a slewing correction): nothing.
    expect(watch.steppedBack(1_000_000 + 2 * HOUR - 5_000, 1_000_000 + 2 * HOUR)).toBe(0)
    // Set back 3 h: reported, then not again.
    expect(watch.steppedBack(1_000_000 + 3 * HOUR - 3 * HOUR, 1_000_000 + 3 * HOUR)).toBe(3 * HOUR - 5_000)
    expect(watch.steppedBack(1_000_000 + 4 * HOUR - 3 * HOUR, 1_000_000 + 4 * HOUR)).toBe(0)
    // Set forward 8 h (or a machine that slept): not reported.
    expect(watch.steppedBack(1_000_000 + 13 * HOUR, 1_000_000 + 5 * HOUR)).toBe(0)
    // Just over a minute back: reported.
    expect(watch.steppedBack(1_000_000 + 13 * HOUR - 61_000, 1_000_000 + 5 * HOUR)).toBe(61_000)
  })
})
