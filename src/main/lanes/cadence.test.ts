import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BrowserHealth } from '../fetch/browser-health'
import type { FetchResult } from '../fetch/fetcher'
import { silentLog } from '../log'
import type { Site } from '../sites/site'
import { forceSeriesPoll, requireSeries } from '../store/series'
import { recordSighting } from '../store/sightings'
import { FakeClock } from '../testing/clock'
import { FakeFetcher, testSite } from '../testing/fakes'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { cadenceWords, planAfterCheck, readBelief, UNPROVEN_REST_FACTOR } from './cadence'
import { SitePacer } from './pacer'
import { runPass } from './pass'
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
    expect(plan).toMatchObject({ next_check_at: afterLast + HOUR, rhythm: '', rhythm_misses: 0 })
    expect(cadenceWords({ rhythm: plan.rhythm, rhythm_misses: 0 }, HOUR)).toBe('no rhythm yet — checked every hour')
  })

  it('irregular releases: the fixed rest', () => {
    const irregular = [0, 1.2, 6.5, 7, 15.3, 16, 30].map((d) => exact(TUESDAY + d * DAY))
    const now = TUESDAY + 31 * DAY
    const plan = planAfterCheck({ row: none, pageReleases: irregular, newChapter: false, previousCheckAt: 0, now, pace })
    expect(plan).toMatchObject({ next_check_at: now + HOUR, rhythm: '' })
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
    const hit = planAfterCheck({
      row: first,
      pageReleases: [...weeklyDates, exact(foundAt - 10 * MIN)],
      newChapter: true,
      previousCheckAt: foundAt - 30 * MIN,
      now: foundAt,
      pace,
    })
    expect(readBelief(hit.rhythm).hits).toBe(1)
    expect(hit.next_check_at - foundAt).toBe(DAY)
  })

  it('wrong twice (two New Chapters outside the window): back to the fixed rest, and the owner is told', () => {
    let row = planAfterCheck({ row: none, pageReleases: weeklyDates, newChapter: false, previousCheckAt: 0, now: afterLast, pace })
    // The Series moved to Fridays: each chapter comes when the rhythm says Tuesday.
    for (const week of [8, 9]) {
      const at = TUESDAY + week * WEEK + 3 * DAY + 15 * HOUR
      row = planAfterCheck({ row, pageReleases: [], newChapter: true, previousCheckAt: at - 3 * HOUR, now: at, pace })
    }
    expect(row.rhythm_misses).toBe(2)
    const now = TUESDAY + 9 * WEEK + 3 * DAY + 15 * HOUR
    expect(row.next_check_at - now).toBe(HOUR)
    expect(cadenceWords(row, HOUR)).toMatch(/wrong 2 times, checked every hour$/)
  })
})

describe('an adaptive Site, pass by pass (real SQLite file, fake clock)', () => {
  let store: TestStore
  let clock: FakeClock
  let http: FakeFetcher
  let alice: number

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
    alice = await seedReader(store.db, 'alice')
    await seedSeries(store.db, { id: 'w', readers: [alice] })
  })
  afterEach(() => store.dispose())

  async function pass(s: Site) {
    let result: Awaited<ReturnType<typeof runPass>> | undefined
    const running = runPass(
      { db: store.db, site: s, fetchers: { http }, health: new BrowserHealth(clock), pacer: new SitePacer(clock), clock, log: silentLog },
      new AbortController().signal,
    ).then((r) => (result = r))
    await clock.runUntil(() => result !== undefined)
    await running
    return result!
  }

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
})
