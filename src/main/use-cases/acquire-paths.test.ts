/**
 * The ways an Acquisition ends, with fake fetchers and a fake clock (acquire.test.ts reads the fixture site over
 * real HTTP): what it does when the Lane, the browser or the Series changed while it waited for its turn.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BrowserHealth } from '../fetch/browser-health'
import type { FetchResult } from '../fetch/fetcher'
import type { CheckReport } from '../lanes/check'
import { SitePacer } from '../lanes/pacer'
import { silentLog } from '../log'
import { inlineReader, type PageReader } from '../sites/page-reader'
import { createRegistry } from '../sites/registry'
import { removeBookmark } from '../store/bookmarks'
import { pauseLane } from '../store/lanes'
import { forceSeriesPoll, markLatestChecked, requireSeries } from '../store/series'
import type { SeriesKey } from '../store/schema'
import { FakeClock } from '../testing/clock'
import { chapterPage, failingWhen, FakeBrowser, FakeFetcher, testSite } from '../testing/fakes'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { bookmarkByUrl, NEW_SERIES_PER_READER_PER_HOUR, type AcquireDeps, type AcquireResult } from './acquire'

const HOUR = 3_600_000

let store: TestStore
let clock: FakeClock
let http: FakeFetcher
let browser: FakeBrowser
let health: BrowserHealth
let stop: AbortController
let deps: AcquireDeps
let checks: Array<{ key: SeriesKey; report: CheckReport }>
let aiko: number

beforeEach(async () => {
  store = openTestStore()
  clock = new FakeClock()
  http = new FakeFetcher('http', clock, () => chapterPage(4))
  browser = new FakeBrowser(clock, () => chapterPage(4))
  health = new BrowserHealth(clock)
  stop = new AbortController()
  checks = []
  deps = {
    db: store.db,
    registry: createRegistry([
      testSite('a'),
      testSite('b', { fetcher: 'browser', fallback: 'none' }),
      testSite('c', { fetcher: 'browser', fallback: 'none' }),
    ]),
    fetchers: { http, browser },
    health,
    pacer: new SitePacer(clock),
    clock,
    log: silentLog,
    signal: stop.signal,
    onCheck: (key, report) => checks.push({ key, report }),
  }
  aiko = await seedReader(store.db, 'aiko')
})
afterEach(() => store.dispose())

/** Lets a background acquisition run to its end, moving the fake clock through its turn. */
async function settled(result: AcquireResult): Promise<CheckReport | undefined> {
  let done = false
  let report: CheckReport | undefined
  void result.acquired?.then((r) => {
    report = r
    done = true
  })
  if (result.acquired) await clock.runUntil(() => done)
  return report
}

const bookmark = (url: string, readerId = aiko) => bookmarkByUrl(deps, { readerId, url })
const series = (site: string, seriesId: string) => requireSeries(store.db, { site, seriesId })

/** Takes the Site's turn now, so the next acquisition waits a minGapMs for its own. */
async function siteJustRequested(site: string) {
  const turn = await deps.pacer.turn(site, 0)
  turn!.sent()
}

describe('the answer', () => {
  it('a URL on no pin is refused, with the URL cut to 200 characters; one of 200 is quoted whole', async () => {
    const long = `https://nowhere.example/${'x'.repeat(300)}`
    await expect(bookmark(long)).rejects.toMatchObject({
      code: 'off-pin',
      message: `not a Series URL on any known Site's host pin: ${long.slice(0, 200)}…`,
    })
    const longest = long.slice(0, 200)
    await expect(bookmark(longest)).rejects.toMatchObject({ message: `not a Series URL on any known Site's host pin: ${longest}` })
    await expect(bookmark('https://nowhere.example/manga/x')).rejects.toMatchObject({
      message: "not a Series URL on any known Site's host pin: https://nowhere.example/manga/x",
    })
  })

  it('a new Series is read now, and the answer names the Site', async () => {
    const result = await bookmark('https://a.example/manga/x')
    expect(result.acquisition).toEqual({ state: 'reading', message: 'reading the Series from Site A' })
    await settled(result)
  })

  it(`past ${NEW_SERIES_PER_READER_PER_HOUR} new Series an hour the answer says why it waits; an hour later there is room again`, async () => {
    for (let i = 0; i < NEW_SERIES_PER_READER_PER_HOUR; i++)
      expect((await bookmark(`https://a.example/manga/s${i}`)).acquisition?.state).toBe('reading')
    expect((await bookmark('https://a.example/manga/more')).acquisition).toEqual({
      state: 'waiting',
      message: `more than ${NEW_SERIES_PER_READER_PER_HOUR} new Series in an hour; this one waits for Site A's Lane`,
    })
    stop.abort()
    await clock.advance(HOUR)
    expect((await bookmark('https://a.example/manga/later')).acquisition?.state).toBe('reading')
  })

  it("the bookmark answered is the new one, not another of the Reader's", async () => {
    // Another Series not read yet either: no title, and first by its id.
    await seedSeries(store.db, { id: 'aaa', title: '', readers: [aiko] })
    const result = await bookmark('https://a.example/manga/zzz')
    expect(result.bookmark).toMatchObject({ site: 'a', series_id: 'zzz' })
    await settled(result)
  })

  it('a known Series without a URL (from an import) gets the one pasted; one with a URL keeps it', async () => {
    await seedSeries(store.db, { id: 'bare', url: '' })
    await seedSeries(store.db, { id: 'kept', url: 'https://a.example/manga/kept' })
    await bookmark('https://a.example/manga/bare/chapter-2')
    await bookmark('https://a.example/manga/kept/chapter-2')
    expect((await series('a', 'bare')).series_url).toBe('https://a.example/manga/bare/')
    expect((await series('a', 'kept')).series_url).toBe('https://a.example/manga/kept')
    expect(http.calls).toEqual([])
  })
})

describe('what the Acquisition finds when its turn comes', () => {
  it('a request sent, read by the app’s page reader, and reported', async () => {
    const read: string[] = []
    const reader: PageReader = {
      ...inlineReader,
      read: async (site, page, url) => (read.push(url.href), site.adapter.read(page, url)),
    }
    deps = { ...deps, reader }
    const report = await settled(await bookmark('https://a.example/manga/x'))
    expect(report).toMatchObject({ outcome: 'chapter' })
    expect(read).toEqual(['https://a.example/manga/x'])
    expect(checks).toEqual([{ key: { site: 'a', seriesId: 'x' }, report }])
  })

  it('a Lane paused meanwhile: no request, no stamp, and the turn is given back for the next one', async () => {
    await siteJustRequested('a')
    const waiting = await bookmark('https://a.example/manga/x')
    await pauseLane(store.db, 'a', clock.now() + HOUR, clock.now())
    expect(await settled(waiting)).toBeUndefined()
    expect((await series('a', 'x')).latest_checked_at).toBe(0)
    // The turn was given back: the Site's next turn is free at once.
    let next: unknown
    void deps.pacer.turn('a', 0).then((t) => (next = t))
    await clock.advance(0)
    expect(next).toBeTruthy()
    expect(http.calls).toEqual([])
  })

  it('the Lane read the Series first: no second request, even with a Check now pending (the Lane serves it)', async () => {
    await siteJustRequested('a')
    const waiting = await bookmark('https://a.example/manga/x')
    await markLatestChecked(store.db, { site: 'a', seriesId: 'x' }, clock.now())
    await forceSeriesPoll(store.db, { site: 'a', seriesId: 'x' }, clock.now() + 1)
    expect(await settled(waiting)).toBeUndefined()
    expect(http.calls).toEqual([])
  })

  it('the Reader let go of the Series meanwhile: no request and no stamp', async () => {
    await siteJustRequested('a')
    const waiting = await bookmark('https://a.example/manga/x')
    await removeBookmark(store.db, aiko, { site: 'a', seriesId: 'x' }, clock.now())
    expect(await settled(waiting)).toBeUndefined()
    expect((await series('a', 'x')).latest_checked_at).toBe(0)
    expect(http.calls).toEqual([])
    expect(checks).toEqual([])
  })

  it('the app stopped meanwhile: no request, no stamp', async () => {
    await siteJustRequested('a')
    const waiting = await bookmark('https://a.example/manga/x')
    stop.abort()
    expect(await settled(waiting)).toBeUndefined()
    expect((await series('a', 'x')).latest_checked_at).toBe(0)
  })

  it('the store failing when its turn comes: it settles with nothing, sends no request, and the bookmark stands', async () => {
    let failing = false
    deps = { ...deps, db: failingWhen(store.db, (node) => failing && node.includes('"poll_lanes"')) }
    await siteJustRequested('a')
    const waiting = await bookmark('https://a.example/manga/x')
    failing = true
    expect(await settled(waiting)).toBeUndefined()
    expect(http.calls).toEqual([])
    expect(checks).toEqual([])
    expect(await store.db.selectFrom('bookmarks').select(['reader_id', 'series_id']).execute()).toEqual([
      { reader_id: aiko, series_id: 'x' },
    ])
  })

  it('the app stopped during the fetch: nothing reported', async () => {
    http.respond = (): FetchResult => {
      stop.abort()
      return chapterPage(4)
    }
    expect(await settled(await bookmark('https://a.example/manga/x'))).toBeUndefined()
    expect(checks).toEqual([])
  })
})

describe('browser Sites', () => {
  it('the browser down: a browser Site waits for its Lane', async () => {
    health.markDown()
    expect(await settled(await bookmark('https://b.example/manga/x'))).toBeUndefined()
    expect(browser.calls).toEqual([])
    expect((await series('b', 'x')).latest_checked_at).toBe(0)
  })

  it("an HTTP Site ignores the browser's down state", async () => {
    health.markDown()
    expect(await settled(await bookmark('https://a.example/manga/x'))).toMatchObject({ outcome: 'chapter' })
  })

  it('the browser unreachable during the read: it is marked down for every browser Lane', async () => {
    browser.respond = () => ({ kind: 'unreachable', reason: 'the browser crashed' })
    expect(await settled(await bookmark('https://b.example/manga/x'))).toMatchObject({ outcome: 'unreachable' })
    expect(health.isDown()).toBe(true)
  })

  it('other outcomes leave the browser up', async () => {
    browser.respond = () => ({ kind: 'error', reason: 'timed out' })
    expect(await settled(await bookmark('https://b.example/manga/x'))).toMatchObject({ outcome: 'error' })
    expect(health.isDown()).toBe(false)
  })

  it('a browser Site with no browser configured is read as unfetchable', async () => {
    deps = { ...deps, fetchers: { http } }
    expect(await settled(await bookmark('https://c.example/manga/x'))).toMatchObject({
      outcome: 'unfetchable',
      reason: 'the Site has no fetcher',
    })
    expect(http.calls).toEqual([])
  })
})
