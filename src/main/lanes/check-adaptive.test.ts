/**
 * What one check writes for an adaptive Site's plan (docs/adr/0014-freshness-per-request.md), and what it does
 * not write for a fixed Site's: the rest planned with the stamp, the time since the previous check, the page's
 * release dates, and the Site's clock from the response's `Date`. A real SQLite file and a fake clock.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FetchResult } from '../fetch/fetcher'
import { silentLog } from '../log'
import type { AdapterStep, Page, Site } from '../sites/site'
import { requireSeries } from '../store/series'
import { FakeClock } from '../testing/clock'
import { FakeFetcher, testSite } from '../testing/fakes'
import { openTestStore, seedReader, seedSeries, type SeedSeries, type TestStore } from '../testing/store'
import { readBelief, readReleases } from './cadence'
import { checkSeries } from './check'

const MIN = 60_000
const HOUR = 60 * MIN
const SERIES_URL = 'https://a.example/manga/s'
const LIST_URL = `${SERIES_URL}/list`
const key = { site: 'a', seriesId: 's' }

let store: TestStore
let clock: FakeClock
let http: FakeFetcher
let alice: number

beforeEach(async () => {
  store = openTestStore()
  clock = new FakeClock()
  http = new FakeFetcher('http', clock)
  alice = await seedReader(store.db, 'alice')
})
afterEach(() => store.dispose())

const seed = (over: Partial<SeedSeries> = {}) => seedSeries(store.db, { id: 's', readers: [alice], ...over })
const series = () => requireSeries(store.db, key)

/** A page answered now: `body` is JSON `[[chapter, release time or 0], …]`; `date` is the Site's clock, if it gives one. */
function page(url: string, chapters: Array<[number, number]>, date?: number): FetchResult {
  return {
    kind: 'page',
    page: { url, status: 200, contentType: 'application/json', body: JSON.stringify(chapters), ...(date === undefined ? {} : { date }) },
  }
}

/**
 * A Site whose Series page lists chapters with their release times (0: none printed); with `follow`, the Series
 * page only points to its chapter list.
 */
function site(cadence: 'fixed' | 'adaptive', follow = false): Site {
  const base = testSite('a', { pace: { cadence } })
  const read = (p: Page): AdapterStep =>
    follow && p.url === SERIES_URL
      ? { kind: 'follow', request: { url: LIST_URL, method: 'GET' } }
      : {
          kind: 'parsed',
          result: {
            chapters: (JSON.parse(p.body) as Array<[number, number]>).map(([n, at]) => ({
              number: n,
              label: `Chapter ${n}`,
              url: `${SERIES_URL}/c/${n}`,
              ...(at ? { released: { at, exact: true } } : {}),
            })),
          },
        }
  return { ...base, adapter: { request: (url) => ({ url: url.href, method: 'GET' }), read } }
}

const check = (s: Site) =>
  checkSeries({ db: store.db, clock, log: silentLog }, s, http, { site: 'a', series_id: 's', series_url: SERIES_URL })

describe('the plan a check writes', () => {
  it('an adaptive Site: the stamp plans the next check a rest ahead, and a check that fails keeps that plan', async () => {
    await seed({ checkedAt: clock.now() - 2 * HOUR })
    http.respond = () => ({ kind: 'error', reason: 'timed out' })
    expect(await check(site('adaptive'))).toMatchObject({ outcome: 'error' })
    expect(await series()).toMatchObject({ latest_checked_at: clock.now(), next_check_at: clock.now() + HOUR, rhythm: '' })
  })

  it('a fixed Site: no plan, whether the check fails or finds a chapter', async () => {
    await seed({ checkedAt: clock.now() - 2 * HOUR, latest: 10 })
    http.respond = () => ({ kind: 'error', reason: 'timed out' })
    await check(site('fixed'))
    http.respond = () => page(SERIES_URL, [[11, clock.now() - HOUR]])
    expect(await check(site('fixed'))).toMatchObject({ outcome: 'chapter' })
    expect(await series()).toMatchObject({ latest_chapter: 11, next_check_at: 0, rhythm: '', releases: '', rhythm_misses: 0 })
  })

  it('a New Chapter within a rest and a half of the previous check came out, as far as it knows, midway between them', async () => {
    await seed({ checkedAt: clock.now() - 30 * MIN, latest: 10 })
    http.respond = () => page(SERIES_URL, [[11, 0]])
    expect(await check(site('adaptive'))).toMatchObject({ outcome: 'chapter', latest: { newChapter: true } })
    expect(readReleases((await series()).releases)).toEqual([{ at: clock.now() - 15 * MIN, exact: true }])
  })

  it("the page's release dates are learnt, and a chapter the page gives no date adds none", async () => {
    await seed({ checkedAt: clock.now() - 2 * HOUR, latest: 11 })
    const week = 7 * 24 * HOUR
    http.respond = () =>
      page(SERIES_URL, [
        [10, clock.now() - 2 * week],
        [11, clock.now() - week],
        [12, 0],
      ])
    await check(site('adaptive'))
    const learnt = readReleases((await series()).releases).map((r) => r.at)
    expect(learnt).toEqual(expect.arrayContaining([clock.now() - 2 * week, clock.now() - week]))
    expect(learnt).toHaveLength(2)
  })

  it("the Site's clock, from the response's Date, is where the plan learns: a later page without a Date keeps it", async () => {
    await seed({ checkedAt: clock.now() - 2 * HOUR, latest: 10 })
    http.respond = (request) => (request.url === SERIES_URL ? page(SERIES_URL, [], clock.now() + 2 * HOUR) : page(LIST_URL, [[10, 0]]))
    expect(await check(site('adaptive', true))).toMatchObject({ outcome: 'chapter' })
    expect(readBelief((await series()).rhythm)).toMatchObject({ offsetMs: 2 * HOUR, readAt: clock.now() + 2 * HOUR })
  })

  it("the newest response's Date wins over an earlier one's", async () => {
    await seed({ checkedAt: clock.now() - 2 * HOUR, latest: 10 })
    http.respond = (request) =>
      request.url === SERIES_URL ? page(SERIES_URL, [], clock.now() + 2 * HOUR) : page(LIST_URL, [[10, 0]], clock.now() - HOUR)
    await check(site('adaptive', true))
    expect(readBelief((await series()).rhythm)).toMatchObject({ offsetMs: -HOUR })
  })

  it('a Date too far from the wall clock to be the same clock is not believed', async () => {
    await seed({ checkedAt: clock.now() - 2 * HOUR, latest: 10 })
    http.respond = () => page(SERIES_URL, [[10, 0]], clock.now() + 30 * 24 * HOUR)
    await check(site('adaptive'))
    expect(readBelief((await series()).rhythm)).toMatchObject({ offsetMs: 0, readAt: clock.now() })
  })

  it('an adaptive Site whose Series no longer exists: the same error as any Site, nothing fetched', async () => {
    expect(await check(site('adaptive'))).toEqual({ outcome: 'error', reason: 'the Series no longer exists', stampedAt: 0, fetched: false })
    expect(http.calls).toEqual([])
  })
})
