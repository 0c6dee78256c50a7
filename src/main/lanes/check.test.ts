/**
 * One check, as the Lane and Acquisition run it: a real SQLite file, a fake fetcher answering from a table of
 * pages, and Sites whose adapters follow, fall back and give up as the test needs.
 */
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppError } from '../../shared/errors'
import type { Fetcher, FetchResult } from '../fetch/fetcher'
import { silentLog, type Log } from '../log'
import { inlineReader, type PageReader } from '../sites/page-reader'
import { AdapterError, type AdapterStep, type Page, type Site } from '../sites/site'
import { readerBookmarks } from '../store/bookmarks'
import type { Db } from '../store/database'
import { latestChapterHistory, requireSeries } from '../store/series'
import { recordSighting, seriesSightings } from '../store/sightings'
import { FakeClock } from '../testing/clock'
import { failingWhen, FakeFetcher, testSite } from '../testing/fakes'
import { openTestStore, seedReader, seedSeries, type SeedSeries, type TestStore } from '../testing/store'
import { checkSeries, type CheckContext } from './check'

const SERIES_URL = 'https://a.example/manga/s'
const key = { site: 'a', seriesId: 's' }
const target = { site: 'a', series_id: 's', series_url: SERIES_URL }

let store: TestStore
let clock: FakeClock
let alice: number
/** The Site's pages by URL; a URL not here answers 404. */
let pages: Map<string, { status?: number; body: string }>
let http: FakeFetcher

beforeEach(async () => {
  store = openTestStore()
  clock = new FakeClock()
  alice = await seedReader(store.db, 'alice')
  pages = new Map()
  http = new FakeFetcher('http', clock, (request): FetchResult => {
    const found = pages.get(request.url)
    return {
      kind: 'page',
      page: { url: request.url, status: found?.status ?? (found ? 200 : 404), contentType: 'text/plain', body: found?.body ?? '' },
    }
  })
})
afterEach(() => store.dispose())

const seed = (over: Partial<SeedSeries> = {}) => seedSeries(store.db, { id: 's', readers: [alice], ...over })
const series = () => requireSeries(store.db, key)
const requested = () => http.calls.map((c) => c.url)

/** A Site whose adapter reads a page with `read`; the default reads the body as one chapter number. */
function site(read?: (page: Page) => AdapterStep): Site {
  const base = testSite('a')
  return read ? { ...base, adapter: { request: (url) => ({ url: url.href, method: 'GET' }), read } } : base
}

const chapters = (n: number, title?: string): AdapterStep => ({
  kind: 'parsed',
  result: { ...(title ? { title } : {}), chapters: [{ number: n, label: `Chapter ${n}`, url: `${SERIES_URL}/c/${n}` }] },
})

function check(s: Site, options: Partial<CheckContext> & { fetcher?: Fetcher | null; signal?: AbortSignal; db?: Db } = {}) {
  const { fetcher, signal, ...ctx } = options
  return checkSeries({ db: store.db, clock, log: silentLog, ...ctx }, s, fetcher === null ? undefined : (fetcher ?? http), target, signal)
}

describe('a check before its first request', () => {
  it('the Series no longer exists: an error, nothing stamped or fetched', async () => {
    expect(await check(site())).toEqual({ outcome: 'error', reason: 'the Series no longer exists', stampedAt: 0, fetched: false })
    expect(http.calls).toEqual([])
  })

  it('a failed stamp: an error, nothing fetched, and the Series keeps its last outcome', async () => {
    await seed({ checkedAt: 5 })
    const db = failingWhen(store.db, (node) => node.includes('"latest_checked_at"'))
    expect(await check(site(), { db })).toEqual({
      outcome: 'error',
      reason: 'check stamp failed: injected failure',
      stampedAt: 0,
      fetched: false,
    })
    expect(http.calls).toEqual([])
    expect(await series()).toMatchObject({ latest_checked_at: 5, last_outcome: '', last_error: '' })
  })

  it('a stamp the storage cannot take says so (the pass ends at once)', async () => {
    await seed()
    const full = store.db.withPlugin({
      transformQuery(args) {
        if (JSON.stringify(args.node).includes('"latest_checked_at"')) throw new AppError('storage-unavailable', 'cannot write: disk full')
        return args.node
      },
      transformResult: async (args) => args.result,
    })
    expect(await check(site(), { db: full })).toEqual({
      outcome: 'error',
      reason: 'check stamp failed: cannot write: disk full',
      stampedAt: 0,
      fetched: false,
      storageUnavailable: true,
    })
  })

  it('a stored URL off the host pin is never requested; the stamp stands and the outcome is kept', async () => {
    await seed({ url: 'https://evil.example/manga/s' })
    const report = await checkSeries({ db: store.db, clock, log: silentLog }, site(), http, {
      ...target,
      series_url: 'https://evil.example/manga/s',
    })
    expect(report).toEqual({
      outcome: 'unfetchable',
      reason: 'the host pin refused https://evil.example/manga/s',
      stampedAt: clock.now(),
      fetched: false,
    })
    expect(http.calls).toEqual([])
    expect(await series()).toMatchObject({ latest_checked_at: clock.now(), last_outcome: 'unfetchable', last_error: report.reason })
  })

  it('an empty stored URL is named as such', async () => {
    await seed({ url: '' })
    const report = await checkSeries({ db: store.db, clock, log: silentLog }, site(), http, { ...target, series_url: '' })
    expect(report.reason).toBe('the host pin refused an empty URL')
  })

  it('a Site with no fetcher is unfetchable', async () => {
    await seed()
    expect(await check(site(), { fetcher: null })).toMatchObject({
      outcome: 'unfetchable',
      reason: 'the Site has no fetcher',
      fetched: false,
    })
    expect(await series()).toMatchObject({ last_outcome: 'unfetchable', last_error: 'the Site has no fetcher' })
  })
})

describe('the requests of one check', () => {
  beforeEach(() => seed())

  it('the stamp is written before the request, and beforeRequest is called once, just before the first', async () => {
    pages.set(SERIES_URL, { body: '' })
    pages.set(`${SERIES_URL}/list`, { body: '4' })
    const events: string[] = []
    http.respond = async (request) => {
      events.push(`fetch ${request.url} (stamp ${(await series()).latest_checked_at === clock.now() ? 'written' : 'missing'})`)
      return { kind: 'page', page: { url: request.url, status: 200, contentType: 'text/plain', body: pages.get(request.url)!.body } }
    }
    const following = site((page) =>
      page.url === SERIES_URL ? { kind: 'follow', request: { url: `${SERIES_URL}/list`, method: 'GET' } } : chapters(4),
    )
    const report = await check(following, { beforeRequest: () => events.push('turn used') })
    expect(report).toMatchObject({ outcome: 'chapter', fetched: true, stampedAt: clock.now() })
    expect(events).toEqual(['turn used', `fetch ${SERIES_URL} (stamp written)`, `fetch ${SERIES_URL}/list (stamp written)`])
  })

  it('an adapter may ask for three pages per check', async () => {
    pages.set(SERIES_URL, { body: '' })
    pages.set(`${SERIES_URL}/1`, { body: '' })
    pages.set(`${SERIES_URL}/2`, { body: '' })
    const pagesDeep = site((page) =>
      page.url.endsWith('/2')
        ? chapters(9)
        : { kind: 'follow', request: { url: page.url === SERIES_URL ? `${SERIES_URL}/1` : `${SERIES_URL}/2`, method: 'GET' } },
    )
    expect(await check(pagesDeep)).toMatchObject({ outcome: 'chapter', reason: 'chapter 9' })
    expect(requested()).toEqual([SERIES_URL, `${SERIES_URL}/1`, `${SERIES_URL}/2`])
  })

  it('an adapter that asks for a fourth page gets an error, and the fourth is never requested', async () => {
    const endless = site((page) => ({ kind: 'follow', request: { url: `${page.url}/more`, method: 'GET' } }))
    for (const url of [SERIES_URL, `${SERIES_URL}/more`, `${SERIES_URL}/more/more`]) pages.set(url, { body: '' })
    expect(await check(endless)).toEqual({
      outcome: 'error',
      reason: 'the adapter asked for more than 3 pages',
      stampedAt: clock.now(),
      fetched: true,
    })
    expect(requested()).toHaveLength(3)
    expect((await series()).last_error).toBe('the adapter asked for more than 3 pages')
  })

  it('a follow-up request off the host pin is never sent', async () => {
    pages.set(SERIES_URL, { body: '' })
    const leaving = site(() => ({ kind: 'follow', request: { url: 'https://evil.example/ajax', method: 'POST' } }))
    expect(await check(leaving)).toEqual({
      outcome: 'unfetchable',
      reason: 'the host pin refused https://evil.example/ajax',
      stampedAt: clock.now(),
      fetched: true,
    })
    expect(requested()).toEqual([SERIES_URL])
  })

  it('an XHR fallback off the host pin is never sent either', async () => {
    pages.set(SERIES_URL, { body: '' })
    const leaving = site(() => ({
      kind: 'follow',
      request: { url: `${SERIES_URL}/ajax/chapters/`, method: 'POST' },
      fallback: { url: 'https://evil.example/wp-admin/admin-ajax.php', method: 'POST' },
    }))
    expect(await check(leaving)).toMatchObject({
      outcome: 'unfetchable',
      reason: 'the host pin refused https://evil.example/wp-admin/admin-ajax.php',
    })
    expect(requested()).toEqual([SERIES_URL, `${SERIES_URL}/ajax/chapters/`])
  })

  it("the adapter's fallback is requested after a non-200, once", async () => {
    pages.set(SERIES_URL, { body: '' })
    pages.set(`${SERIES_URL}/ajax/chapters/`, { status: 400, body: '0' })
    pages.set('https://a.example/wp-admin/admin-ajax.php', { body: '12' })
    const xhr = site((page) =>
      page.url === SERIES_URL
        ? {
            kind: 'follow',
            request: { url: `${SERIES_URL}/ajax/chapters/`, method: 'POST' },
            fallback: { url: 'https://a.example/wp-admin/admin-ajax.php', method: 'POST' },
          }
        : chapters(Number(page.body)),
    )
    expect(await check(xhr)).toMatchObject({ outcome: 'chapter', reason: 'chapter 12' })
    expect(requested()).toEqual([SERIES_URL, `${SERIES_URL}/ajax/chapters/`, 'https://a.example/wp-admin/admin-ajax.php'])

    http.calls.length = 0
    pages.set('https://a.example/wp-admin/admin-ajax.php', { status: 500, body: '' })
    expect(await check(xhr)).toMatchObject({ outcome: 'error', reason: 'HTTP 500 from a.example' })
    expect(requested()).toHaveLength(3)
  })

  it('a non-200 with no fallback is an error that names the status and host; a 404 of the Series page counts as gone', async () => {
    expect(await check(site())).toEqual({
      outcome: 'error',
      reason: 'HTTP 404 from a.example',
      stampedAt: clock.now(),
      fetched: true,
      gone: 404,
    })
    expect(await series()).toMatchObject({ last_outcome: 'error', last_error: 'HTTP 404 from a.example', last_outcome_at: clock.now() })
    expect(await series()).toMatchObject({ gone_checks: 1, gone_since: clock.now(), gone_status: 404 })
  })

  it('a 204 is a page: an empty one is no chapter, not an error', async () => {
    pages.set(SERIES_URL, { status: 204, body: '' })
    expect(await check(site())).toMatchObject({ outcome: 'no-chapter', reason: 'a real page with no chapter found' })
  })

  it("a fetcher's lease holds the check's requests together", async () => {
    pages.set(SERIES_URL, { body: '3' })
    const leased: string[] = []
    const tab: Fetcher = {
      kind: 'browser',
      fetch: () => Promise.resolve({ kind: 'error', reason: 'outside the lease' }),
      lease: async (work) => {
        leased.push('lease')
        const result = await work(http)
        leased.push('returned')
        return result
      },
    }
    expect(await check(site(), { fetcher: tab })).toMatchObject({ outcome: 'chapter' })
    expect(leased).toEqual(['lease', 'returned'])
  })
})

describe("what a check's answer is", () => {
  beforeEach(() => seed())

  it.each([
    [
      'refused, with how long the Site asked',
      { kind: 'refused', reason: 'HTTP 429', retryAfterMs: 60_000 },
      { outcome: 'refused', reason: 'HTTP 429', retryAfterMs: 60_000 },
    ],
    ['refused, with no Retry-After', { kind: 'refused', reason: 'challenge held' }, { outcome: 'refused', reason: 'challenge held' }],
    ['unreachable', { kind: 'unreachable', reason: 'browser crashed' }, { outcome: 'unreachable', reason: 'browser crashed' }],
    ['a transport error', { kind: 'error', reason: 'timed out' }, { outcome: 'error', reason: 'timed out' }],
  ] as const)('%s', async (_name, result, expected) => {
    http.respond = () => result
    const report = await check(site())
    expect(report).toEqual({ ...expected, stampedAt: clock.now(), fetched: true })
    expect(await series()).toMatchObject({ last_outcome: expected.outcome, last_error: expected.reason })
  })

  it("an adapter's error is said as the adapter's", async () => {
    pages.set(SERIES_URL, { body: 'x' })
    const broken = site(() => {
      throw new AdapterError('feed is not JSON')
    })
    expect(await check(broken)).toMatchObject({ outcome: 'error', reason: 'adapter: feed is not JSON' })
  })

  it('anything else thrown is a failed check', async () => {
    http.respond = () => {
      throw new Error('socket hang up')
    }
    expect(await check(site())).toMatchObject({ outcome: 'error', reason: 'check failed: socket hang up', fetched: true })
  })

  it('no chapter on a real page keeps the title the page gave', async () => {
    pages.set(SERIES_URL, { body: '' })
    expect(await check(site())).toEqual({
      outcome: 'no-chapter',
      reason: 'a real page with no chapter found',
      stampedAt: clock.now(),
      fetched: true,
      title: 'Title from a',
    })
  })

  it('no chapter and no title: no title in the report', async () => {
    pages.set(SERIES_URL, { body: '' })
    expect(await check(site(() => ({ kind: 'parsed', result: { chapters: [] } })))).not.toHaveProperty('title')
  })

  it("the first page's title stands when the chapter list has none; a title on the list wins", async () => {
    pages.set(SERIES_URL, { body: '' })
    pages.set(`${SERIES_URL}/list`, { body: '5' })
    const read = (listTitle?: string) =>
      site((page) =>
        page.url === SERIES_URL
          ? { kind: 'follow', request: { url: `${SERIES_URL}/list`, method: 'GET' }, partial: { title: 'From the page' } }
          : chapters(5, listTitle),
      )
    expect((await check(read())).title).toBe('From the page')
    expect((await series()).title).toBe('From the page')
    expect((await check(read('From the list'))).title).toBe('From the list')
    expect((await series()).title).toBe('From the list')
  })

  it('the outcome is kept on the Series; a chapter clears the reason', async () => {
    http.respond = () => ({ kind: 'error', reason: 'timed out' })
    await check(site())
    pages.set(SERIES_URL, { body: '2' })
    http.respond = () => ({ kind: 'page', page: { url: SERIES_URL, status: 200, contentType: 'text/plain', body: '2' } })
    clock.set(clock.now() + 1_000)
    await check(site())
    expect(await series()).toMatchObject({ last_outcome: 'chapter', last_error: '', last_outcome_at: clock.now() })
  })

  it('an outcome that cannot be kept is logged; the report stands', async () => {
    const lines: string[] = []
    const log = pino({ level: 'warn' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) })) as Log
    http.respond = () => ({ kind: 'error', reason: 'timed out' })
    const db = failingWhen(store.db, (node) => node.includes('"last_outcome"'))
    expect(await check(site(), { db, log })).toMatchObject({ outcome: 'error', reason: 'timed out' })
    expect(lines.join('')).toContain('check: the outcome could not be recorded')
  })
})

describe('a check the app interrupts', () => {
  beforeEach(() => seed())

  it('stopped during the fetch: aborted, and the Series keeps its last outcome', async () => {
    const stop = new AbortController()
    http.respond = () => {
      stop.abort()
      return { kind: 'page', page: { url: SERIES_URL, status: 200, contentType: 'text/plain', body: '3' } }
    }
    expect(await check(site(), { signal: stop.signal })).toEqual({
      outcome: 'aborted',
      reason: 'stopped',
      stampedAt: clock.now(),
      fetched: true,
    })
    expect(await series()).toMatchObject({ latest_chapter: null, last_outcome: '' })
  })

  it('stopped while the page is read: aborted', async () => {
    pages.set(SERIES_URL, { body: '3' })
    const stop = new AbortController()
    const reader: PageReader = {
      ...inlineReader,
      read: async (s, page, url) => {
        stop.abort()
        return s.adapter.read(page, url)
      },
    }
    expect(await check(site(), { signal: stop.signal, reader })).toMatchObject({ outcome: 'aborted' })
    expect((await series()).latest_chapter).toBeNull()
  })

  it('a fetch that throws because it was stopped is aborted, not an error', async () => {
    const stop = new AbortController()
    http.respond = () => {
      stop.abort()
      throw new Error('This operation was aborted')
    }
    expect(await check(site(), { signal: stop.signal })).toMatchObject({ outcome: 'aborted', reason: 'stopped' })
  })
})

describe('what a chapter found does to the Latest Chapter, and to what Readers sync', () => {
  const BEFORE = 1_000
  /** Bookmarks changed after `since`, as a Reader's `since` sync reads them. */
  const synced = (since: number) => readerBookmarks(store.db, alice, { since })
  const history = async () => (await latestChapterHistory(store.db, key)).map((h) => ({ chapter: h.chapter, source: h.source }))

  const found = (n: number) => {
    pages.set(SERIES_URL, { body: String(n) })
    clock.set(clock.now() + 60_000)
    return check(site())
  }

  it('a check that finds the same chapter changes nothing a Reader syncs', async () => {
    await seed({ latest: 5, title: 'Title from a' })
    const report = await found(5)
    expect(report.latest).toMatchObject({ move: 'none', newChapter: false, previous: 5 })
    expect(await synced(BEFORE)).toEqual([])
    expect(await history()).toEqual([])
    expect(await series()).toMatchObject({ latest_chapter: 5, latest_changed_at: 0 })
  })

  it('a check that finds a lower chapter than an earlier check changes nothing: the Latest Chapter never moves down', async () => {
    await seed({ latest: 5, title: 'Title from a' })
    const report = await found(3)
    expect(report.latest).toMatchObject({ move: 'none', newChapter: false, previous: 5 })
    expect(await series()).toMatchObject({ latest_chapter: 5, latest_source: 'check', latest_changed_at: 0 })
    expect(await synced(BEFORE)).toEqual([])
    expect(await history()).toEqual([])
  })

  it('a higher chapter is a New Chapter: it moves up, with its label, link and history row', async () => {
    await seed({ latest: 5, title: 'Title from a' })
    const report = await found(6)
    expect(report.latest).toMatchObject({ move: 'up', newChapter: true, previous: 5 })
    expect(await series()).toMatchObject({
      latest_chapter: 6,
      latest_chapter_label: 'Chapter 6',
      latest_chapter_url: `${SERIES_URL}/c/6`,
      latest_source: 'check',
      latest_changed_at: clock.now(),
    })
    expect((await synced(clock.now())).map((b) => b.series.latest_chapter)).toEqual([6])
    expect(await history()).toEqual([{ chapter: 6, source: 'check' }])
  })

  it('the first chapter found is recorded and synced, but is no New Chapter', async () => {
    await seed({ title: 'Title from a' })
    const report = await found(3)
    expect(report.latest).toMatchObject({ move: 'first', newChapter: false, previous: null })
    expect(await series()).toMatchObject({ latest_chapter: 3, latest_source: 'check', latest_changed_at: 0 })
    expect((await synced(clock.now())).map((b) => b.series.latest_chapter)).toEqual([3])
    expect(await history()).toEqual([{ chapter: 3, source: 'check' }])
  })

  it('a check that finds the chapter a Sighting raised is a New Chapter past the checked one, and confirms it', async () => {
    await seed({ latest: 5, title: 'Title from a' })
    await recordSighting(store.db, { ...key, readerId: alice, chapter: 6, sightedAt: BEFORE, now: BEFORE })
    const report = await found(6)
    // Measured from what a check last found (5), not from the raise (docs/adr/0119-…).
    expect(report.latest).toMatchObject({ move: 'up', newChapter: true, previous: 5 })
    expect(await series()).toMatchObject({
      latest_chapter: 6,
      latest_source: 'check',
      latest_chapter_label: 'Chapter 6',
      latest_changed_at: clock.now(),
    })
    expect((await synced(clock.now())).map((b) => b.series.latest_source)).toEqual(['check'])
    expect(await history()).toEqual([
      { chapter: 6, source: 'check' },
      { chapter: 6, source: 'sighting' },
    ])
    expect((await seriesSightings(store.db, key)).map((g) => g.verdict)).toEqual(['confirmed'])
  })

  it('a check above the checked chapter but below a higher Sighting is a New Chapter, and the Sighting suspicious', async () => {
    await seed({ latest: 5, title: 'Title from a' })
    await recordSighting(store.db, { ...key, readerId: alice, chapter: 9, sightedAt: BEFORE, now: BEFORE })
    const report = await found(6)
    expect(report.latest).toMatchObject({ move: 'up', newChapter: true, previous: 5 })
    expect(await series()).toMatchObject({ latest_chapter: 6, latest_source: 'check' })
    expect((await synced(clock.now())).map((b) => b.series.latest_chapter)).toEqual([6])
    expect((await seriesSightings(store.db, key)).map((g) => g.verdict)).toEqual(['suspicious'])
  })

  it('a check that finds the checked chapter under a Sighting raised above corrects it down, as a correction', async () => {
    await seed({ latest: 5, title: 'Title from a' })
    await recordSighting(store.db, { ...key, readerId: alice, chapter: 9, sightedAt: BEFORE, now: BEFORE })
    const report = await found(5)
    expect(report.latest).toMatchObject({ move: 'corrected-down', newChapter: false, previous: 5 })
    expect(await series()).toMatchObject({ latest_chapter: 5, latest_source: 'check' })
    expect((await synced(clock.now())).map((b) => b.series.latest_chapter)).toEqual([5])
    expect(await history()).toEqual([
      { chapter: 5, source: 'correction' },
      { chapter: 9, source: 'sighting' },
    ])
    expect((await seriesSightings(store.db, key)).map((g) => g.verdict)).toEqual(['suspicious'])
  })

  it('a new title is synced even when the chapter is the same', async () => {
    await seed({ latest: 5, title: 'Old title' })
    await found(5)
    expect(await series()).toMatchObject({ title: 'Title from a', latest_chapter: 5 })
    expect((await synced(clock.now())).map((b) => b.series.title)).toEqual(['Title from a'])
  })

  it('a Sighting that arrives while the page is fetched waits for the next check', async () => {
    const bo = await seedReader(store.db, 'bo')
    await seed({ latest: 5, title: 'Title from a', readers: [alice, bo] })
    await recordSighting(store.db, { ...key, readerId: alice, chapter: 6, sightedAt: BEFORE, now: BEFORE })
    http.respond = async (request) => {
      await recordSighting(store.db, { ...key, readerId: bo, chapter: 8, sightedAt: clock.now(), now: clock.now() })
      return { kind: 'page', page: { url: request.url, status: 200, contentType: 'text/plain', body: '6' } }
    }
    await check(site())
    expect((await seriesSightings(store.db, key)).map((g) => [g.chapter, g.verdict])).toEqual([
      [8, ''],
      [6, 'confirmed'],
    ])
  })

  it("a Reader's Sighting that replaces their own while the page is fetched waits for the next check too", async () => {
    await seed({ latest: 5, title: 'Title from a' })
    await recordSighting(store.db, { ...key, readerId: alice, chapter: 6, sightedAt: BEFORE, now: BEFORE })
    http.respond = async (request) => {
      await recordSighting(store.db, { ...key, readerId: alice, chapter: 8, sightedAt: clock.now(), now: clock.now() })
      return { kind: 'page', page: { url: request.url, status: 200, contentType: 'text/plain', body: '6' } }
    }
    await check(site())
    expect((await seriesSightings(store.db, key)).map((g) => [g.chapter, g.verdict])).toEqual([[8, '']])
  })
})
