import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isStall } from '../../shared/skip'
import { BrowserHealth } from '../fetch/browser-health'
import type { Fetchers } from '../fetch/fetcher'
import { silentLog } from '../log'
import type { Site } from '../sites/site'
import type { Db } from '../store/database'
import { laneRow, pauseLane, recordRefusal } from '../store/lanes'
import { insertPass, latestPass } from '../store/passes'
import { forceSeriesPoll, requireSeries } from '../store/series'
import { pendingChapters } from '../store/notify'
import { recordSighting } from '../store/sightings'
import { FakeClock } from '../testing/clock'
import { chapterPage, failingOn, failingWhen, FakeBrowser, FakeFetcher, testSite } from '../testing/fakes'
import { openTestStore, seedReader, seedSeries, type SeedSeries, type TestStore } from '../testing/store'
import { SitePacer } from './pacer'
import { runPass, type PassDeps } from './pass'

const MIN = 60_000
const HOUR = 60 * MIN

let store: TestStore
let clock: FakeClock
let http: FakeFetcher
let health: BrowserHealth
let alice: number
let bob: number

beforeEach(async () => {
  store = openTestStore()
  clock = new FakeClock()
  http = new FakeFetcher('http', clock)
  health = new BrowserHealth(clock)
  alice = await seedReader(store.db, 'alice')
  bob = await seedReader(store.db, 'bob')
})
afterEach(() => store.dispose())

const now = () => clock.now()
/** A pace whose passes are never cut short, where a test counts every check of one pass. */
const roomy = { pace: { maxPassMs: 24 * HOUR } }
const seed = (s: Omit<SeedSeries, 'readers'> & { readers?: number[] }) => seedSeries(store.db, { readers: [alice], ...s })

interface PassOptions {
  fetchers?: Partial<Fetchers>
  onCheck?: PassDeps['onCheck']
  db?: Db
  /** The spacing kept between passes (default: a fresh one, as after a long idle time). */
  pacer?: SitePacer
  signal?: AbortSignal
}

/** Runs one pass, moving the fake clock through its gap waits. */
async function pass(site: Site, options: PassOptions = {}) {
  const deps: PassDeps = {
    db: options.db ?? store.db,
    site,
    fetchers: { http, ...options.fetchers },
    health,
    pacer: options.pacer ?? new SitePacer(clock),
    clock,
    log: silentLog,
    ...(options.onCheck ? { onCheck: options.onCheck } : {}),
  }
  let result: Awaited<ReturnType<typeof runPass>> | undefined
  const running = runPass(deps, options.signal ?? new AbortController().signal).then((r) => (result = r))
  await clock.runUntil(() => result !== undefined)
  await running
  return result!
}

describe('the skip exits, in the order of docs/design.md#the-lane-pass', () => {
  it('paused: no fetch; sleeps until the pause ends or idleRequeryMs, whichever is sooner', async () => {
    await seed({ id: 'x' })
    await pauseLane(store.db, 'a', now() + HOUR, now())
    const result = await pass(testSite())
    expect(result.row).toMatchObject({ skip: 'paused', checked: 0 })
    expect(result.sleepMs).toBe(30_000)
    expect(http.calls).toEqual([])
  })

  it('paused with the pause ending sooner than idleRequeryMs sleeps only until it ends', async () => {
    await pauseLane(store.db, 'a', now() + 5_000, now())
    expect((await pass(testSite())).sleepMs).toBe(5_000)
  })

  it('refusing: no fetch; sleeps until refuse_until', async () => {
    await seed({ id: 'x' })
    await recordRefusal(store.db, 'a', now() + 10 * MIN)
    const result = await pass(testSite())
    expect(result.row?.skip).toBe('refusing')
    expect(result.sleepMs).toBe(10 * MIN)
    expect(http.calls).toEqual([])
  })

  it('pause is read before refusal', async () => {
    await recordRefusal(store.db, 'a', now() + 10 * MIN)
    await pauseLane(store.db, 'a', now() + HOUR, now())
    expect((await pass(testSite())).row?.skip).toBe('paused')
  })

  it('pause expiry: once paused_until has passed the Lane works again', async () => {
    await seed({ id: 'x' })
    await pauseLane(store.db, 'a', now() + HOUR, now())
    expect((await pass(testSite())).row?.skip).toBe('paused')
    await clock.advance(HOUR)
    const result = await pass(testSite())
    expect(result.row).toMatchObject({ skip: '', checked: 1 })
  })

  it('sidecar-down: a browser Site skips while the browser is down, without touching it', async () => {
    await seed({ id: 'x' })
    const browser = new FakeBrowser(clock)
    health.markDown()
    const result = await pass(testSite('a', { fetcher: 'browser' }), { fetchers: { browser } })
    expect(result.row?.skip).toBe('sidecar-down')
    expect(browser.calls).toEqual([])
  })

  it('no-fetcher: a browser Site with no browser and no fallback', async () => {
    await seed({ id: 'x' })
    const result = await pass(testSite('a', { fetcher: 'browser', fallback: 'none' }))
    expect(result.row?.skip).toBe('no-fetcher')
    expect(http.calls).toEqual([])
  })

  it('a browser Site with fallback http and no browser is fetched over HTTP', async () => {
    await seed({ id: 'x' })
    const result = await pass(testSite('a', { fetcher: 'browser', fallback: 'http' }))
    expect(result.row).toMatchObject({ skip: '', checked: 1 })
    expect(http.calls).toHaveLength(1)
  })

  it('due-query: the due query fails', async () => {
    await seed({ id: 'x' })
    const result = await pass(testSite(), { db: failingOn(store.db, 'reader_count') })
    expect(result.row?.skip).toBe('due-query')
    expect(http.calls).toEqual([])
  })

  it('asleep: under both wake thresholds nothing is launched', async () => {
    await seed({ id: 'x', checkedAt: now() - 2 * HOUR })
    const browser = new FakeBrowser(clock)
    const result = await pass(testSite('a', { fetcher: 'browser' }), { fetchers: { browser } })
    expect(result.row?.skip).toBe('asleep')
    expect(browser.launches).toBe(0)
  })

  it('a forced Series wakes a sleeping browser', async () => {
    await seed({ id: 'x', checkedAt: now() - 10 * MIN, forcedAt: now() - MIN })
    const browser = new FakeBrowser(clock)
    const result = await pass(testSite('a', { fetcher: 'browser' }), { fetchers: { browser } })
    expect(result.row).toMatchObject({ skip: '', checked: 1 })
    expect(browser.launches).toBe(1)
  })

  it('the due-count threshold wakes the browser', async () => {
    for (let i = 0; i < 5; i++) await seed({ id: `s${i}`, checkedAt: now() - 2 * HOUR })
    const browser = new FakeBrowser(clock)
    const result = await pass(testSite('a', { fetcher: 'browser', ...roomy }), { fetchers: { browser } })
    expect(result.row).toMatchObject({ skip: '', due: 5, checked: 5 })
  })

  it('the oldest-due threshold wakes the browser', async () => {
    await seed({ id: 'x', checkedAt: now() - 4 * HOUR })
    const browser = new FakeBrowser(clock)
    expect((await pass(testSite('a', { fetcher: 'browser' }), { fetchers: { browser } })).row?.checked).toBe(1)
  })

  it('an awake browser needs no threshold', async () => {
    await seed({ id: 'x', checkedAt: now() - 2 * HOUR })
    const browser = new FakeBrowser(clock)
    browser.awake = true
    expect((await pass(testSite('a', { fetcher: 'browser' }), { fetchers: { browser } })).row?.checked).toBe(1)
  })

  it('eligible-count: the eligible count fails', async () => {
    await seed({ id: 'x' })
    const result = await pass(testSite(), { db: failingOn(store.db, 'AS n FROM series') })
    expect(result.row?.skip).toBe('eligible-count')
    expect(http.calls).toEqual([])
  })

  it('nothing-eligible: no Series; sleeps idleRequeryMs (sooner than a rest)', async () => {
    const result = await pass(testSite())
    expect(result.row?.skip).toBe('nothing-eligible')
    expect(result.sleepMs).toBe(30_000)
  })

  it('nothing-eligible: every Series of the Site is Finished — a Lane that declined, not a stall', async () => {
    await seed({ id: 'x', finishedAt: 1 })
    const result = await pass(testSite())
    expect(result.row?.skip).toBe('nothing-eligible')
    expect(isStall(result.row!)).toBe(false)
  })

  it('a forced Series is served even when every Series is Finished; the pace then uses maxGapMs', async () => {
    await seed({ id: 'x', finishedAt: 1, forcedAt: now() - 1 })
    const result = await pass(testSite())
    expect(result.row).toMatchObject({ skip: '', due: 1, checked: 1, gap: 300_000, clamped: 1 })
    expect((await requireSeries(store.db, { site: 'a', seriesId: 'x' })).finished_at).toBe(1)
  })
})

describe('the loop and its counts', () => {
  it('a pass that reached its loop writes an empty skip with due, gap, clamped and the counts', async () => {
    await seed({ id: 'x' })
    await seed({ id: 'y' })
    const result = await pass(testSite('a', roomy))
    // gap = 1h / 2 eligible = 30 min, clamped to maxGapMs (5 min).
    expect(result.row).toMatchObject({
      skip: '',
      due: 2,
      gap: 5 * MIN,
      clamped: 1,
      checked: 2,
      refused: 0,
      unreachable: 0,
      no_chapter: 0,
      unfetchable: 0,
      errors: 0,
    })
  })

  it('gap = rest / eligible when that is inside the clamp', async () => {
    for (let i = 0; i < 20; i++) await seed({ id: `s${i}`, checkedAt: now() })
    await seed({ id: 'due' })
    expect((await pass(testSite())).row).toMatchObject({ due: 1, gap: Math.round(HOUR / 21), clamped: 0 })
  })

  it('the gap is clamped to minGapMs when many Series share the rest', async () => {
    for (let i = 0; i < 1000; i++) await seed({ id: `s${i}`, checkedAt: now() })
    await seed({ id: 'due', readers: [alice] })
    expect((await pass(testSite())).row).toMatchObject({ gap: 5_000, clamped: 1 })
  })

  it('stamps latest_checked_at before the fetch', async () => {
    await seed({ id: 'x', checkedAt: 5 })
    let stampSeenByFetch = -1
    http.respond = async () => {
      stampSeenByFetch = (await requireSeries(store.db, { site: 'a', seriesId: 'x' })).latest_checked_at
      return chapterPage(3)
    }
    await pass(testSite())
    expect(stampSeenByFetch).toBe(now())
  })

  it('chapter: moves the Latest Chapter and reports a New Chapter', async () => {
    await seed({ id: 'x', latest: 10 })
    http.respond = () => chapterPage(11)
    const result = await pass(testSite())
    // The fake page links its chapter on test.example, off Site a's pin: the Series URL is linked instead.
    expect(result.newChapters).toEqual([
      { site: 'a', seriesId: 'x', title: 'Title from a', chapter: 11, label: 'Chapter 11', url: 'https://a.example/manga/x' },
    ])
    expect(await requireSeries(store.db, { site: 'a', seriesId: 'x' })).toMatchObject({ latest_chapter: 11, latest_changed_at: now() })
  })

  it('no chapter: a real page with none found counts no_chapter, never refused', async () => {
    await seed({ id: 'x' })
    http.respond = () => chapterPage(null)
    expect((await pass(testSite())).row).toMatchObject({ checked: 1, no_chapter: 1, refused: 0 })
  })

  it('refused: counts, writes refuse_until = now + backoff and ends the pass', async () => {
    await seed({ id: 'x', checkedAt: 1 })
    await seed({ id: 'y', checkedAt: 2 })
    http.respond = () => ({ kind: 'refused', reason: 'challenge' })
    const result = await pass(testSite())
    expect(result.row).toMatchObject({ skip: '', due: 2, checked: 1, refused: 1 })
    expect(http.calls).toHaveLength(1)
    expect((await laneRow(store.db, 'a')).refuse_until).toBe(now() + 900_000)
    expect((await pass(testSite())).row?.skip).toBe('refusing')
  })

  it('unreachable: not counted in checked, sets the browser-down time, returns with an empty skip', async () => {
    await seed({ id: 'x', forcedAt: now() })
    await seed({ id: 'y', forcedAt: now() })
    const browser = new FakeBrowser(clock, () => ({ kind: 'unreachable', reason: 'browser closed' }))
    const site = testSite('a', { fetcher: 'browser' })
    const result = await pass(site, { fetchers: { browser } })
    expect(result.row).toMatchObject({ skip: '', due: 2, checked: 0, unreachable: 1 })
    expect(health.isDown()).toBe(true)
    expect(browser.calls).toHaveLength(1)
    // A sibling browser Lane skips sidecar-down.
    await seedSeries(store.db, { site: 'b', id: 'z', readers: [alice] })
    expect((await pass(testSite('b', { fetcher: 'browser' }), { fetchers: { browser } })).row?.skip).toBe('sidecar-down')
  })

  it('unfetchable: a stored URL off the host pin is never requested', async () => {
    await seed({ id: 'x', url: 'https://evil.example/manga/x' })
    const result = await pass(testSite())
    expect(result.row).toMatchObject({ checked: 1, unfetchable: 1 })
    expect(http.calls).toEqual([])
  })

  it('errors: non-200, transport error and a failed check stamp (that Series is not fetched)', async () => {
    await seed({ id: 'e1', checkedAt: 1 })
    await seed({ id: 'e2', checkedAt: 2 })
    http.respond = (req) => (req.url.endsWith('e1') ? chapterPage(1, 503) : { kind: 'error', reason: 'transport: ECONNRESET' })
    expect((await pass(testSite('a', roomy))).row).toMatchObject({ checked: 2, errors: 2 })

    await seed({ id: 'e3', checkedAt: 3, site: 'c' })
    const stampFails = failingOn(store.db, '"kind":"UpdateQueryNode"')
    const c = testSite('c')
    const before = http.calls.length
    const result = await pass(c, { db: stampFails })
    expect(result.row).toMatchObject({ checked: 1, errors: 1 })
    expect(http.calls.length).toBe(before)
  })

  it('derived success = checked − refused − no_chapter − unfetchable − errors', async () => {
    await seed({ id: 'ok1', checkedAt: 1 })
    await seed({ id: 'none', checkedAt: 2 })
    await seed({ id: 'bad', checkedAt: 3 })
    await seed({ id: 'ok2', checkedAt: 4 })
    http.respond = (req) => (req.url.endsWith('none') ? chapterPage(null) : req.url.endsWith('bad') ? chapterPage(1, 500) : chapterPage(4))
    const row = (await pass(testSite('a', roomy))).row!
    expect(row.checked - row.refused - row.no_chapter - row.unfetchable - row.errors).toBe(2)
  })

  it("judges the Series' outstanding Sightings on a chapter", async () => {
    await seed({ id: 'x', latest: 10 })
    await recordSighting(store.db, { site: 'a', seriesId: 'x', readerId: alice, chapter: 12, sightedAt: 1, now: 1 })
    http.respond = () => chapterPage(11)
    await pass(testSite())
    const verdicts = await store.db.selectFrom('sightings').select(['verdict', 'judged_at']).execute()
    expect(verdicts).toEqual([{ verdict: 'suspicious', judged_at: now() }])
    expect((await requireSeries(store.db, { site: 'a', seriesId: 'x' })).latest_chapter).toBe(11)
  })

  it("keeps the gap since the Lane's previous fetch, across passes", async () => {
    for (let i = 0; i < 4; i++) await seed({ id: `s${i}`, checkedAt: i + 1 })
    const pacer = new SitePacer(clock)
    await pass(testSite('a', roomy), { pacer })
    const times = http.calls.map((c) => c.at)
    const gaps = times.slice(1).map((t, i) => t - times[i]!)
    expect(gaps).toEqual([5 * MIN, 5 * MIN, 5 * MIN])
    // A forced Series in the next pass still waits the gap after the last fetch.
    await forceSeriesPoll(store.db, { site: 'a', seriesId: 's0' }, now())
    await pass(testSite('a', roomy), { pacer })
    expect(http.calls.at(-1)!.at - times.at(-1)!).toBe(5 * MIN)
  })

  it('takes no new Series after maxPassMs; the next pass goes on at once', async () => {
    for (let i = 0; i < 10; i++) await seed({ id: `s${i}`, checkedAt: i + 1 })
    // rest 10 min / 10 eligible → 1 min gap; maxPass 3.5 min → checks at t = 0, 1, 2, 3 min; the fifth
    // would start at 4 min, past maxPassMs.
    const site = testSite('a', { pace: { restMs: 10 * MIN, minGapMs: 1_000, maxPassMs: 3.5 * MIN } })
    const result = await pass(site)
    expect(result.row).toMatchObject({ due: 10, checked: 4 })
    expect(result.sleepMs).toBe(0)
  })

  it('reads only the due Series it can check before maxPassMs, yet its row counts every due one', async () => {
    for (let i = 0; i < 10; i++) await seed({ id: `s${i}`, checkedAt: i + 1 })
    // A 1 min gap and maxPassMs 3.5 min: a pass can check 4, so it reads ceil(3.5) + 1 = 5.
    const site = testSite('a', { pace: { restMs: 10 * MIN, minGapMs: 1_000, maxPassMs: 3.5 * MIN } })
    const read: string[] = []
    const result = await pass(site, { onCheck: (series) => read.push(series.series_id) })
    expect(result.row).toMatchObject({ due: 10, checked: 4 })
    expect(read).toEqual(['s0', 's1', 's2', 's3'])
  })

  it('a pass that took every due Series it read, with more due, goes straight on to the next, which takes the next ones', async () => {
    // Off the host pin: each check is made without a request, so no gap is waited and the pass runs out of what
    // it read (maxPassMs 2 min at a 1 min gap: 3 read) long before maxPassMs.
    for (let i = 0; i < 8; i++) await seed({ id: `s${i}`, checkedAt: i + 1, url: `https://elsewhere.example/manga/s${i}` })
    const site = testSite('a', { pace: { restMs: 8 * MIN, minGapMs: 1_000, maxPassMs: 2 * MIN } })
    const first = await pass(site)
    expect(first.row).toMatchObject({ skip: '', due: 8, checked: 3, unfetchable: 3 })
    expect(first.sleepMs).toBe(0)
    const second = await pass(site)
    expect(second.row).toMatchObject({ due: 5, checked: 3 })
    const third = await pass(site)
    expect(third.row).toMatchObject({ due: 2, checked: 2 })
    // All read: nothing more is due, so the Lane idles.
    expect(third.sleepMs).toBe(site.pace.idleRequeryMs)
    expect(http.calls).toEqual([])
  })

  it('a stop mid-loop keeps what was done: the row of the checks made so far, and their New Chapters', async () => {
    await seed({ id: 'x', checkedAt: 1, latest: 5 })
    await seed({ id: 'y', checkedAt: 2 })
    const controller = new AbortController()
    // The stop arrives during the second fetch, whose answer is then not used.
    http.respond = () => {
      if (http.calls.length === 2) controller.abort()
      return chapterPage(6)
    }
    const result = await pass(testSite('a', roomy), { signal: controller.signal })
    expect(result.row).toMatchObject({ skip: '', due: 2, checked: 1 })
    expect(result.newChapters.map((c) => c.seriesId)).toEqual(['x'])
    expect(http.calls).toHaveLength(2)
  })

  it('a stop that comes while a check records its New Chapter keeps that check and its New Chapter in the pass', async () => {
    // The stop arrives after the answer was read, while the check's transaction stores the chapter: the chapter
    // and its digest entry are stored, so the pass that made the check reports it (row, New Chapters, onCheck).
    await seed({ id: 'x', checkedAt: 1, latest: 5 })
    await seed({ id: 'y', checkedAt: 2, latest: 5 })
    const controller = new AbortController()
    const db = failingWhen(store.db, (node) => {
      if (node.includes('"notify_chapters"') && node.includes('InsertQueryNode')) controller.abort()
      return false
    })
    http.respond = () => chapterPage(6)
    const checked: string[] = []
    const result = await pass(testSite('a', roomy), {
      db,
      signal: controller.signal,
      onCheck: async (series, report) => void checked.push(`${series.series_id} ${report.outcome}`),
    })
    expect((await pendingChapters(store.db, 'a')).map((c) => [c.series_id, c.chapter])).toEqual([['x', 6]])
    expect(result.newChapters.map((c) => [c.seriesId, c.chapter])).toEqual([['x', 6]])
    expect(result.row).toMatchObject({ skip: '', checked: 1 })
    expect(checked).toEqual(['x chapter'])
    // Nothing more is sent after the stop.
    expect(http.calls).toHaveLength(1)
  })

  it('a check whose record committed is a chapter, its New Chapter reported, when the store fails just after', async () => {
    // The record (Latest Chapter, chapters, the digest entry) commits; the query after it (the return to
    // synchronous = FULL) fails, as a locked file makes it. The check stored the chapter: it says so.
    await seed({ id: 'x', checkedAt: 1, latest: 5 })
    let recorded = false
    const db = failingWhen(store.db, (node) => {
      if (node.includes('"notify_chapters"') && node.includes('InsertQueryNode')) recorded = true
      return recorded && node.includes('PRAGMA synchronous = FULL')
    })
    http.respond = () => chapterPage(6)
    const result = await pass(testSite('a', roomy), { db })
    expect((await pendingChapters(store.db, 'a')).map((c) => [c.series_id, c.chapter])).toEqual([['x', 6]])
    expect(result.newChapters.map((c) => [c.seriesId, c.chapter])).toEqual([['x', 6]])
    expect(result.row).toMatchObject({ checked: 1, errors: 0 })
  })

  it('a stop before any check writes no row (it would read as a stall); the stamp stands', async () => {
    await seed({ id: 'x', checkedAt: 1 })
    const controller = new AbortController()
    http.respond = () => {
      controller.abort()
      return chapterPage(3)
    }
    const result = await pass(testSite(), { signal: controller.signal })
    expect(result.row).toBeNull()
    expect(await latestPass(store.db, 'a')).toBeUndefined()
    expect((await requireSeries(store.db, { site: 'a', seriesId: 'x' })).latest_checked_at).toBe(now())
  })

  it('a refusal recorded mid-pass (by an Acquisition) ends the pass before its next request', async () => {
    for (const id of ['x', 'y', 'z']) await seed({ id, checkedAt: 1 })
    http.respond = async () => {
      await recordRefusal(store.db, 'a', now() + HOUR)
      return chapterPage(3)
    }
    const result = await pass(testSite('a', roomy))
    expect(result.row).toMatchObject({ skip: '', due: 3, checked: 1 })
    expect(http.calls).toHaveLength(1)
  })
})

describe('Check now through a pass', () => {
  it('jumps the queue and clears pending, whatever the fetch returns', async () => {
    await seed({ id: 'old', checkedAt: 1 })
    await seed({ id: 'forced', checkedAt: now() - MIN, forcedAt: now() - 1 })
    http.respond = () => ({ kind: 'error', reason: 'boom' })
    await pass(testSite())
    expect(http.calls[0]!.url).toContain('forced')
    const s = await requireSeries(store.db, { site: 'a', seriesId: 'forced' })
    expect(s.force_poll_at > s.latest_checked_at).toBe(false)
  })

  it('never overrides the refusal backoff', async () => {
    await seed({ id: 'x', forcedAt: now() })
    await recordRefusal(store.db, 'a', now() + MIN)
    expect((await pass(testSite())).row?.skip).toBe('refusing')
    expect(http.calls).toEqual([])
  })

  it('never overrides the browser-down skip', async () => {
    await seed({ id: 'x', forcedAt: now() })
    health.markDown()
    const browser = new FakeBrowser(clock)
    expect((await pass(testSite('a', { fetcher: 'browser' }), { fetchers: { browser } })).row?.skip).toBe('sidecar-down')
  })

  it('never overrides an empty series_url or an orphan', async () => {
    await seed({ id: 'nourl', url: '', forcedAt: now() })
    await seed({ id: 'orphan', forcedAt: now(), readers: [] })
    await seed({ id: 'fresh', checkedAt: now() })
    const result = await pass(testSite())
    expect(result.row).toMatchObject({ skip: '', due: 0, checked: 0 })
    expect(http.calls).toEqual([])
  })

  it('one press never speeds up the other fetches: the eligible count ignores force', async () => {
    // rest 20 min / 4 eligible = 5 min, inside the clamp; counting the forced Series would make it 4 min.
    const site = testSite('a', { pace: { restMs: 20 * MIN, maxPassMs: 24 * HOUR } })
    for (let i = 0; i < 4; i++) await seed({ id: `s${i}`, checkedAt: 1 })
    const before = (await pass(site)).row!
    await seed({ id: 'shelved', finishedAt: 1, forcedAt: now() })
    await clock.advance(HOUR)
    const after = (await pass(site)).row!
    expect(before).toMatchObject({ gap: 5 * MIN, clamped: 0 })
    expect(after).toMatchObject({ due: 5, gap: 5 * MIN })
  })
})

describe('carry-forward and the stall rule', () => {
  it('a skipped pass carries the previous due, gap, clamped and checked', async () => {
    await seed({ id: 'x' })
    await seed({ id: 'y', readers: [alice, bob] })
    const worked = (await pass(testSite())).row!
    await pauseLane(store.db, 'a', now() + HOUR, now())
    const paused = (await pass(testSite())).row!
    expect(paused).toMatchObject({
      skip: 'paused',
      due: worked.due,
      gap: worked.gap,
      clamped: worked.clamped,
      checked: worked.checked,
      errors: 0,
    })
  })

  it('the stall rule: due > 0, checked = 0 and an empty skip — and nothing else', async () => {
    await seed({ id: 'x', forcedAt: now() })
    const browser = new FakeBrowser(clock, () => ({ kind: 'unreachable', reason: 'crashed' }))
    const stalled = (await pass(testSite('a', { fetcher: 'browser' }), { fetchers: { browser } })).row!
    expect(isStall(stalled)).toBe(true)
    const { id: _id, ...figures } = stalled
    const declined = await insertPass(store.db, { ...figures, skip: 'refusing', gap: 0 })
    expect(isStall(declined)).toBe(false)
    expect(isStall({ skip: '', due: 0, checked: 0 })).toBe(false)
    expect(isStall({ skip: '', due: 3, checked: 1 })).toBe(false)
  })
})
