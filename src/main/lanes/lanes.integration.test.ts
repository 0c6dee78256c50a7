/**
 * The Lanes against the real fixture site over HTTP, through the real store and the real HTTP fetcher.
 * Only the clock is fake.
 */
import { SitePacer } from './pacer'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fixtureSites } from '../demo/fixture-sites'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { BrowserHealth } from '../fetch/browser-health'
import { createHttpFetcher } from '../fetch/http-fetcher'
import { silentLog } from '../log'
import type { Site } from '../sites/site'
import { addBookmark } from '../store/bookmarks'
import { laneRow } from '../store/lanes'
import { recentPasses } from '../store/passes'
import { addSeries, forceSeriesPoll, requireSeries } from '../store/series'
import { FakeClock } from '../testing/clock'
import { openTestStore, seedReader, type TestStore } from '../testing/store'
import { startLanes } from './lane'
import { runPass, type NewChapter, type PassResult } from './pass'

let store: TestStore
let clock: FakeClock
let fixture: FixtureSite
let sites: Map<string, Site>
let alice: number
const http = createHttpFetcher({ timeoutMs: 400, maxBodyBytes: 512 * 1024 })

beforeEach(async () => {
  store = openTestStore()
  clock = new FakeClock()
  fixture = await startFixtureSite({ now: () => clock.now() })
  sites = new Map(fixtureSites(fixture.host).map((s) => [s.key, s]))
  alice = await seedReader(store.db, 'alice')
})
afterEach(async () => {
  await fixture.close()
  await store.dispose()
})

const site = (key: string) => sites.get(key)!

/** Adds a bookmarked Series for a fixture path and returns its key. */
async function bookmark(siteKey: string, path: string) {
  const url = `${fixture.origin}${path}`
  const seriesId = site(siteKey).seriesIdOf(new URL(url))!
  await addSeries(store.db, { site: siteKey, seriesId, seriesUrl: url, now: 1 })
  await addBookmark(store.db, { site: siteKey, seriesId, readerId: alice, now: 1 })
  return { site: siteKey, seriesId }
}

async function onePass(key: string): Promise<PassResult> {
  let result: PassResult | undefined
  const running = runPass(
    {
      db: store.db,
      site: site(key),
      fetchers: { http },
      health: new BrowserHealth(clock),
      pacer: new SitePacer(clock),
      clock,
      log: silentLog,
    },
    new AbortController().signal,
  ).then((r) => (result = r))
  await clock.runUntil(() => result !== undefined)
  await running
  return result!
}

describe('each family, read from the fixture site over HTTP', () => {
  it.each([
    ['fixture-madara', '/madara/manga/tower-climber/'],
    ['fixture-madara-xhr', '/madara-xhr/manga/night-lantern/'],
    ['fixture-themesia', '/themesia/manga/iron-bloom/'],
    ['fixture-webtoons', '/webtoons/en/fantasy/paper-moons/list?title_no=4021'],
    ['fixture-mangadex', '/mangadex/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8/komi-san'],
  ])('%s finds the Latest Chapter and the title', async (key, path) => {
    const series = await bookmark(key, path)
    const result = await onePass(key)
    expect(result.row).toMatchObject({ skip: '', checked: 1, errors: 0, no_chapter: 0 })
    const row = await requireSeries(store.db, series)
    expect(row.latest_chapter).toBe(fixture.series(path).latest)
    expect(row.title).toBe(fixture.series(path).title)
  })
})

describe('faults, each ending in its documented count', () => {
  it('a JS challenge over plain HTTP is refused and backs the Lane off durably', async () => {
    await bookmark('fixture-refusing', '/never-clears/manga/grumpy/')
    const result = await onePass('fixture-refusing')
    expect(result.row).toMatchObject({ checked: 1, refused: 1 })
    expect((await laneRow(store.db, 'fixture-refusing')).refuse_until).toBe(clock.now() + 900_000)
  })

  it('a page with no chapters counts no_chapter', async () => {
    await bookmark('fixture-trouble', '/no-chapters/manga/empty/')
    expect((await onePass('fixture-trouble')).row).toMatchObject({ checked: 1, no_chapter: 1 })
  })

  it('a 500 counts an error', async () => {
    await bookmark('fixture-trouble', '/broken/manga/b/')
    expect((await onePass('fixture-trouble')).row).toMatchObject({ checked: 1, errors: 1 })
  })

  it('a response that never ends times out as an error', async () => {
    await bookmark('fixture-trouble', '/hang/manga/h/')
    expect((await onePass('fixture-trouble')).row).toMatchObject({ checked: 1, errors: 1 })
  })

  it('an oversized body is cut off as an error', async () => {
    await bookmark('fixture-trouble', '/huge/manga/big/')
    expect((await onePass('fixture-trouble')).row).toMatchObject({ checked: 1, errors: 1 })
  })

  it('a redirect off the pinned host is not followed: an error, and the other host is never requested', async () => {
    await bookmark('fixture-trouble', '/redirect-off/manga/away/')
    expect((await onePass('fixture-trouble')).row).toMatchObject({ checked: 1, errors: 1 })
    expect(fixture.hits.map((h) => h.host)).not.toContain(fixture.host.replace('127.0.0.1', 'localhost'))
    expect(fixture.hits).toHaveLength(1)
  })

  it('a stored URL off the pin is unfetchable and never requested', async () => {
    const offPin = fixture.origin.replace('127.0.0.1', 'localhost')
    await addSeries(store.db, { site: 'fixture-madara', seriesId: 'x', seriesUrl: `${offPin}/madara/manga/x/`, now: 1 })
    await addBookmark(store.db, { site: 'fixture-madara', seriesId: 'x', readerId: alice, now: 1 })
    expect((await onePass('fixture-madara')).row).toMatchObject({ checked: 1, unfetchable: 1 })
    expect(fixture.hits).toEqual([])
  })

  it('sends the honest User-Agent', async () => {
    await bookmark('fixture-madara', '/madara/manga/ua/')
    await onePass('fixture-madara')
    expect(fixture.hits[0]?.userAgent).toMatch(/^MangaBookmark\/\d+\.\d+\.\d+ \(household bookmark checker/)
  })
})

describe('Lanes running', () => {
  it('pace holds: fetches to a Site are never closer than the gap', async () => {
    for (const slug of ['a', 'b', 'c', 'd', 'e']) await bookmark('fixture-madara', `/madara/manga/${slug}/`)
    // rest 10 min / 5 eligible = 2 min.
    sites.set('fixture-madara', { ...site('fixture-madara'), pace: { ...site('fixture-madara').pace, restMs: 600_000, minGapMs: 1_000 } })
    const lanes = await startLanes({ db: store.db, sites: [site('fixture-madara')], fetchers: { http }, clock, log: silentLog })
    await clock.runUntil(() => fixture.hits.length >= 12, { withinMs: 3_600_000 })
    await lanes.stop()
    const times = fixture.hits.map((h) => h.at)
    const gaps = times.slice(1).map((t, i) => t - times[i]!)
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(120_000)
    // Every pass left exactly one row; none of them a stall.
    const rows = await recentPasses(store.db, 'fixture-madara', 1000)
    expect(rows.length).toBeGreaterThan(2)
    expect(rows.filter((r) => r.skip === '' && r.due > 0 && r.checked === 0)).toEqual([])
  })

  it('a published chapter becomes a New Chapter on the next check', async () => {
    const path = '/madara/manga/fresh-news/'
    const key = await bookmark('fixture-madara', path)
    const found: NewChapter[] = []
    const lanes = await startLanes({
      db: store.db,
      sites: [site('fixture-madara')],
      fetchers: { http },
      clock,
      log: silentLog,
      onNewChapters: (_s, list) => found.push(...list),
    })
    await clock.runUntil(() => fixture.hits.length >= 1)
    const published = fixture.publish(path)
    await forceSeriesPoll(store.db, key, clock.now())
    await clock.runUntil(() => found.length > 0, { withinMs: 3_600_000 })
    await lanes.stop()
    expect(found[0]).toMatchObject({ site: 'fixture-madara', seriesId: 'fresh-news', chapter: published, label: `Chapter ${published}` })
    expect((await requireSeries(store.db, key)).latest_chapter).toBe(published)
  })

  it('a restart does not re-probe a refusing Site inside its backoff', async () => {
    await bookmark('fixture-refusing', '/never-clears/manga/grumpy/')
    const first = await startLanes({ db: store.db, sites: [site('fixture-refusing')], fetchers: { http }, clock, log: silentLog })
    await clock.runUntil(() => fixture.hits.length === 1)
    await first.stop()
    const skips: string[] = []
    const restarted = await startLanes({
      db: store.db,
      sites: [site('fixture-refusing')],
      fetchers: { http },
      clock,
      log: silentLog,
      onPass: (_s, r) => skips.push(r.row?.skip ?? 'abandoned'),
    })
    // Ten minutes into the fifteen-minute backoff the restarted Lane has only said it is refusing.
    await clock.runUntil(() => skips.length >= 1)
    await clock.advance(10 * 60_000)
    expect(skips).toEqual(['refusing'])
    expect(fixture.hits).toHaveLength(1)
    // After the backoff it works again (the Series is not due yet, so still no request).
    await clock.advance(6 * 60_000)
    await restarted.stop()
    expect(skips.at(-1)).toBe('')
  })

  it('idle: a Lane with nothing due re-reads the due query every idleRequeryMs', async () => {
    await bookmark('fixture-madara', '/madara/manga/idle/')
    const passes: PassResult[] = []
    const lanes = await startLanes({
      db: store.db,
      sites: [site('fixture-madara')],
      fetchers: { http },
      clock,
      log: silentLog,
      onPass: (_s, r) => passes.push(r),
    })
    await clock.runUntil(() => passes.length >= 5)
    await lanes.stop()
    const idle = passes.filter((p) => p.row?.due === 0)
    expect(idle.length).toBeGreaterThanOrEqual(3)
    const ends = idle.map((p) => p.row!.started_at)
    expect(ends.slice(1).map((t, i) => t - ends[i]!)).toEqual(ends.slice(1).map(() => 30_000))
  })
})
