/**
 * A Lane pass at its edges (docs/design.md#the-lane-pass): which Series the due query hands it, when a pass
 * stops taking Series, which Lanes the browser's state concerns, and how long a Lane sleeps after each pass.
 */
import type { KyselyPlugin } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppError } from '../../shared/errors'
import { BrowserHealth } from '../fetch/browser-health'
import type { Fetchers } from '../fetch/fetcher'
import { pino } from 'pino'
import { plainLine, silentLog, type Log } from '../log'
import { inlineReader, type PageReader } from '../sites/page-reader'
import type { Site } from '../sites/site'
import type { Db } from '../store/database'
import { laneRow, pauseLane, recordRefusal } from '../store/lanes'
import { recentPasses } from '../store/passes'
import { removeBookmark } from '../store/bookmarks'
import { requireSeries } from '../store/series'
import { FakeClock } from '../testing/clock'
import { chapterPage, failingWhen, FakeBrowser, FakeFetcher, testSite } from '../testing/fakes'
import { openTestStore, seedReader, seedSeries, type SeedSeries, type TestStore } from '../testing/store'
import { SitePacer } from './pacer'
import { runPass, UnwrittenPasses, type PassDeps } from './pass'

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
const roomy = { pace: { maxPassMs: 24 * HOUR } }
const seed = (s: Omit<SeedSeries, 'readers'> & { readers?: number[] }) => seedSeries(store.db, { readers: [alice], ...s })

interface More {
  db?: Db
  signal?: AbortSignal
  reader?: PageReader
  unwritten?: UnwrittenPasses
  onCheck?: () => unknown
  log?: Log
}

/** Runs one pass, moving the fake clock through its gap waits; `checked` lists the Series it checked, in order. */
async function pass(site: Site, fetchers: Partial<Fetchers> = {}, pacer = new SitePacer(clock), more: More = {}) {
  const checked: string[] = []
  const deps: PassDeps = {
    db: more.db ?? store.db,
    site,
    fetchers: { http, ...fetchers },
    health,
    pacer,
    clock,
    log: more.log ?? silentLog,
    onCheck: (series) => {
      checked.push(series.series_id)
      void more.onCheck?.()
    },
    ...(more.reader ? { reader: more.reader } : {}),
    ...(more.unwritten ? { unwritten: more.unwritten } : {}),
  }
  let result: Awaited<ReturnType<typeof runPass>> | undefined
  const running = runPass(deps, more.signal ?? new AbortController().signal).then((r) => (result = r))
  await clock.runUntil(() => result !== undefined)
  await running
  return { ...result!, checked }
}

describe('the Series a pass is given', () => {
  it('a Series sighted by its one Reader is left for a rest, until its last check is a ceiling old', async () => {
    await seed({ id: 'deferred', checkedAt: now() - 23 * HOUR, sightedAt: now() - 10 * MIN })
    await seed({ id: 'past-ceiling', checkedAt: now() - 25 * HOUR, sightedAt: now() - 10 * MIN })
    const result = await pass(testSite('a', roomy))
    expect(result.checked).toEqual(['past-ceiling'])
    expect(result.row).toMatchObject({ due: 1 })
  })

  it('a Series checked within the rest is not checked again; one checked a rest ago is', async () => {
    await seed({ id: 'recent', checkedAt: now() - 59 * MIN })
    await seed({ id: 'rested', checkedAt: now() - HOUR })
    const result = await pass(testSite('a', roomy))
    expect(result.checked).toEqual(['rested'])
  })

  it('takes a forced Series before the others, and the others after it', async () => {
    await seed({ id: 'old', checkedAt: now() - 5 * HOUR })
    await seed({ id: 'two-readers', checkedAt: now() - 2 * HOUR, readers: [alice, bob] })
    await seed({ id: 'forced', checkedAt: now() - MIN, forcedAt: now() })
    const result = await pass(testSite('a', roomy))
    expect(result.checked).toEqual(['forced', 'two-readers', 'old'])
    expect(result.row).toMatchObject({ due: 3, checked: 3 })
  })

  it("one Reader's flood waits behind the other Readers' Series once the Site has more than a rest holds (docs/adr/0081-one-reader-bounded.md)", async () => {
    // A rest of 10 gaps, shared by two Readers; Alice adds 12 new Series at once.
    const site = testSite('a', { pace: { restMs: 10 * MIN, minGapMs: MIN, maxPassMs: 24 * HOUR } })
    await seed({ id: 'bob-1', checkedAt: now() - HOUR, readers: [bob] })
    for (let i = 0; i < 12; i++) await seed({ id: `alice-${String(i).padStart(2, '0')}` })
    const result = await pass(site)
    expect(result.checked.slice(0, 2)).toEqual(['bob-1', 'alice-00'])
    expect(result.checked).toHaveLength(13)
  })
})

describe('when a pass stops taking Series (maxPassMs)', () => {
  it('a Series that would start exactly at maxPassMs is left to the next pass', async () => {
    for (let i = 0; i < 6; i++) await seed({ id: `s${i}`, checkedAt: i + 1 })
    // rest 6 min / 6 eligible → a 1 min gap: checks at 0, 1, 2 min; the fourth would start at 3 min = maxPassMs.
    const site = testSite('a', { pace: { restMs: 6 * MIN, minGapMs: 1_000, maxPassMs: 3 * MIN } })
    const result = await pass(site)
    expect(result.checked).toEqual(['s0', 's1', 's2'])
    expect(result.sleepMs).toBe(0)
  })

  it('the first Series is taken even when its gap is longer than maxPassMs', async () => {
    await seed({ id: 'x', checkedAt: 1 })
    await seed({ id: 'y', checkedAt: 2 })
    const pacer = new SitePacer(clock)
    // The previous request a moment ago: this pass waits a 5 min gap, longer than its 1 min maxPassMs.
    pacer.seed('a', now())
    const result = await pass(testSite('a', { pace: { maxPassMs: MIN } }), {}, pacer)
    expect(result.checked).toEqual(['x'])
    expect(http.calls.map((c) => c.at - result.row!.started_at)).toEqual([5 * MIN])
  })
})

describe('the browser concerns browser Lanes only', () => {
  it('an HTTP Lane works while the browser is down', async () => {
    await seed({ id: 'x' })
    health.markDown()
    const browser = new FakeBrowser(clock)
    const result = await pass(testSite('a'), { browser })
    expect(result.row).toMatchObject({ skip: '', checked: 1 })
    expect(http.calls).toHaveLength(1)
    expect(browser.calls).toEqual([])
  })

  it('an HTTP Lane works under the wake thresholds while the browser sleeps', async () => {
    await seed({ id: 'x', checkedAt: now() - 2 * HOUR })
    const browser = new FakeBrowser(clock)
    const result = await pass(testSite('a'), { browser })
    expect(result.row).toMatchObject({ skip: '', checked: 1 })
    expect(browser.launches).toBe(0)
  })

  it('a forced Series among unforced ones, under both thresholds, wakes the browser for all of them', async () => {
    await seed({ id: 'a1', checkedAt: now() - 2 * HOUR })
    await seed({ id: 'a2', checkedAt: now() - 2 * HOUR })
    await seed({ id: 'forced', checkedAt: now() - MIN, forcedAt: now() })
    const browser = new FakeBrowser(clock)
    const result = await pass(testSite('a', { fetcher: 'browser', ...roomy }), { browser })
    expect(result.row).toMatchObject({ skip: '', due: 3, checked: 3 })
    expect(browser.launches).toBe(1)
  })

  it('a sleeping browser wakes once the oldest due Series has waited exactly wakeOldestMs, not a moment before', async () => {
    await seed({ id: 'x', checkedAt: now() - 3 * HOUR + 1 })
    const browser = new FakeBrowser(clock)
    const site = testSite('a', { fetcher: 'browser' })
    expect((await pass(site, { browser })).row?.skip).toBe('asleep')
    await clock.advance(1)
    expect((await pass(site, { browser })).row).toMatchObject({ skip: '', checked: 1 })
  })
})

describe('the sleep after a pass', () => {
  it('after a pass that made a request: straight on, ready for what comes due next', async () => {
    await seed({ id: 'x' })
    expect((await pass(testSite())).sleepMs).toBe(0)
  })

  it('after a pass whose checks made no request: the idle re-query, as after nothing due', async () => {
    await seed({ id: 'x', url: 'https://elsewhere.example/manga/x' })
    const result = await pass(testSite())
    expect(result.row).toMatchObject({ skip: '', checked: 1, unfetchable: 1 })
    expect(result.sleepMs).toBe(30_000)
  })

  it('after a pass with nothing due: the idle re-query', async () => {
    await seed({ id: 'x', checkedAt: now() })
    const result = await pass(testSite())
    expect(result.row).toMatchObject({ skip: '', due: 0, checked: 0 })
    expect(result.sleepMs).toBe(30_000)
  })

  it('after sidecar-down: what is left of the browser-down window, at most the idle re-query', async () => {
    await seed({ id: 'x' })
    const browser = new FakeBrowser(clock)
    const site = testSite('a', { fetcher: 'browser', pace: { idleRequeryMs: 10 * MIN } })
    health.markDown()
    const left = health.downForMs()
    expect(left).toBeLessThan(10 * MIN)
    expect((await pass(site, { browser })).sleepMs).toBe(left)
    expect((await pass(testSite('a', { fetcher: 'browser' }), { browser })).sleepMs).toBe(Math.min(left, 30_000))
  })

  it('after a refusal: until the refusal ends, and the Lane works again the moment it does', async () => {
    await seed({ id: 'x' })
    await recordRefusal(store.db, 'a', now() + 10 * MIN, 15 * MIN)
    const refused = await pass(testSite())
    expect(refused.row?.skip).toBe('refusing')
    expect(refused.sleepMs).toBe(10 * MIN)
    await clock.advance(10 * MIN)
    expect((await pass(testSite())).row).toMatchObject({ skip: '', checked: 1 })
  })

  it('a pause that ends exactly now no longer holds the Lane', async () => {
    await seed({ id: 'x' })
    await pauseLane(store.db, 'a', now(), now() - MIN)
    expect((await pass(testSite())).row).toMatchObject({ skip: '', checked: 1 })
  })
})

/** The same database, but a query the store cannot take (a full disk) whenever `fails` says so of its syntax tree. */
function storeRefusesWhen(db: Db, fails: (node: string) => boolean): Db {
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (fails(JSON.stringify(args.node))) throw new AppError('storage-unavailable', 'the app cannot store writes now: the disk is full')
      return args.node
    },
    transformResult: async (args) => args.result,
  }
  return db.withPlugin(plugin)
}
const isStamp = (node: string) => node.includes('"kind":"UpdateQueryNode"') && node.includes('latest_checked_at')
const isPassRow = (node: string) => node.includes('"kind":"InsertQueryNode"') && node.includes('poll_passes')
/** A read of one Series just before its request (still due?). */
const isStillDue = (node: string) => node.includes('"kind":"SelectQueryNode"') && node.includes('force_poll_at')
const isLaneRead = (node: string) => node.includes('"kind":"SelectQueryNode"') && node.includes('poll_lanes')

describe('a pass and a store in trouble', () => {
  it('a check stamp the store cannot take ends the pass: nothing is sent, one check and one error counted', async () => {
    await seed({ id: 'x', checkedAt: 1 })
    await seed({ id: 'y', checkedAt: 2 })
    const result = await pass(testSite('a', roomy), {}, undefined, { db: storeRefusesWhen(store.db, isStamp) })
    expect(result.row).toMatchObject({ skip: '', due: 2, checked: 1, errors: 1 })
    expect(result.checked).toEqual(['x'])
    expect(http.calls).toEqual([])
  })

  it('a row the store cannot take is held and handed back; once it can, the held rows are written once, in order', async () => {
    await seed({ id: 'x' })
    const unwritten = new UnwrittenPasses()
    let refuse = true
    const db = failingWhen(store.db, (node) => refuse && isPassRow(node))
    const first = await pass(testSite(), {}, undefined, { db, unwritten })
    expect(first.row).toBeNull()
    expect(first.unwritten).toMatchObject({ site: 'a', skip: '', due: 1, checked: 1 })
    expect(unwritten.rows).toEqual([first.unwritten])
    const second = await pass(testSite(), {}, undefined, { db, unwritten })
    expect(unwritten.rows).toHaveLength(2)
    expect(second.unwritten?.started_at).toBeGreaterThanOrEqual(first.unwritten!.started_at)
    refuse = false
    const third = await pass(testSite(), {}, undefined, { db, unwritten })
    expect(third.row).not.toBeNull()
    expect(third.unwritten).toBeUndefined()
    expect(unwritten.rows).toEqual([])
    await pass(testSite(), {}, undefined, { db, unwritten })
    const rows = (await recentPasses(store.db, 'a', 100)).reverse()
    expect(rows.map((r) => r.started_at)).toEqual([first.unwritten!.started_at, second.unwritten!.started_at, third.row!.started_at, now()])
  })

  it('a row the store cannot take, with nowhere to hold it, still ends the pass', async () => {
    await seed({ id: 'x' })
    const result = await pass(testSite(), {}, undefined, { db: failingWhen(store.db, isPassRow) })
    expect(result.row).toBeNull()
    expect(result.unwritten).toMatchObject({ skip: '', checked: 1 })
  })

  it('a Lane holds at most its limit of rows, keeping the first and the newest, and counts the ones let go', () => {
    const held = new UnwrittenPasses(3)
    const row = (started_at: number) => ({ ...ZERO_ROW, started_at })
    for (let i = 1; i <= 5; i++) held.hold(row(i))
    expect(held.rows.map((r) => r.started_at)).toEqual([1, 4, 5])
    expect(held.dropped).toBe(2)
    held.clear()
    expect([held.rows, held.dropped]).toEqual([[], 0])
    held.hold(row(9))
    expect(held.rows.map((r) => r.started_at)).toEqual([9])
    expect(new UnwrittenPasses().limit).toBe(100)
  })

  it('a refusal the store cannot record is still slept out by the Lane', async () => {
    await seed({ id: 'x' })
    http.respond = () => ({ kind: 'refused', reason: 'challenge' })
    const db = failingWhen(store.db, (node) => node.includes('"kind":"InsertQueryNode"') && node.includes('refuse_until'))
    const result = await pass(testSite(), {}, undefined, { db })
    expect(result.row).toMatchObject({ checked: 1, refused: 1 })
    expect((await laneRow(store.db, 'a')).refuse_until).toBe(0)
    expect(result.sleepMs).toBe(900_000)
  })

  it('a Lane refused again and again warns once, naming its Lane and why, until the Site answers again', async () => {
    await seed({ id: 'x', site: 'alpha-scans', checkedAt: now() - 2 * HOUR })
    const lines: string[] = []
    const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) })
    const warnings = () => lines.filter((l) => (JSON.parse(l) as { level: number }).level >= 40).map((l) => plainLine(l).trim())
    const site = testSite('alpha-scans', { name: 'Alpha Scans', pace: { refusalBackoffMs: 2 * MIN, maxPassMs: 24 * HOUR } })
    http.respond = () => ({ kind: 'refused', reason: 'challenge' })
    for (let i = 0; i < 4; i++) {
      await pass(site, {}, undefined, { log })
      await clock.advance(2 * HOUR)
    }
    expect(warnings()).toEqual([
      'manga-bookmark: warning: lane Alpha Scans: the Site refused (challenge); backing off 2 min at a time, said once until it answers again [Lane alpha-scans]',
    ])
    // The repeats are kept in the log file (debug), with the same words.
    expect(lines.filter((l) => l.includes('"repeated":true'))).toHaveLength(3)
    http.respond = () => chapterPage(2)
    await pass(site, {}, undefined, { log })
    expect(lines.some((l) => l.includes('lane Alpha Scans: the Site answers again after refusing'))).toBe(true)
    http.respond = () => ({ kind: 'refused', reason: 'HTTP 403' })
    await clock.advance(2 * HOUR)
    await pass(site, {}, undefined, { log })
    expect(warnings()).toHaveLength(2)
    expect(warnings()[1]).toContain('the Site refused (HTTP 403)')
  })

  it('the due Series cannot be read once counted: the due-query skip, nothing sent', async () => {
    await seed({ id: 'x' })
    const db = failingWhen(store.db, (node) => node.includes('SELECT s.*'))
    const result = await pass(testSite(), {}, undefined, { db })
    expect(result.row).toMatchObject({ skip: 'due-query' })
    expect(http.calls).toEqual([])
  })

  it('a due Series that cannot be re-read before its request: the due-query skip before any check, the checks made after one', async () => {
    await seed({ id: 'x', checkedAt: 1 })
    await seed({ id: 'y', checkedAt: 2 })
    const before = await pass(testSite('a', roomy), {}, undefined, { db: failingWhen(store.db, isStillDue) })
    expect(before.row).toMatchObject({ skip: 'due-query', checked: 0 })
    expect(http.calls).toEqual([])
    let reads = 0
    const after = await pass(testSite('a', roomy), {}, undefined, {
      db: failingWhen(store.db, (node) => isStillDue(node) && ++reads === 2),
    })
    expect(after.row).toMatchObject({ skip: '', due: 2, checked: 1 })
    expect(http.calls).toHaveLength(1)
  })

  it('the Lane row cannot be read before the first request: the due-query skip, nothing sent', async () => {
    await seed({ id: 'x' })
    for (const failing of [1, 2]) {
      let reads = 0
      const result = await pass(testSite(), {}, undefined, { db: failingWhen(store.db, (node) => isLaneRead(node) && ++reads === failing) })
      expect(result.row).toMatchObject({ skip: 'due-query', checked: 0 })
      expect(http.calls).toEqual([])
    }
  })

  it('a paused Lane whose stamps cannot be repaired still exits paused, not as a store fault (issue 24)', async () => {
    await seed({ id: 'x' })
    await pauseLane(store.db, 'a', now() + HOUR, now())
    const db = failingWhen(store.db, (node) => node.includes('"max"'))
    const paused = await pass(testSite(), {}, undefined, { db })
    expect(paused.row).toMatchObject({ skip: 'paused', checked: 0 })
    expect(http.calls).toEqual([])
    // Not paused: the store cannot answer the pass's questions, the due-query exit as before.
    await store.db.updateTable('poll_lanes').set({ paused_until: 0 }).execute()
    expect((await pass(testSite(), {}, undefined, { db })).row).toMatchObject({ skip: 'due-query', checked: 0 })
    expect(http.calls).toEqual([])
  })

  it('the first pass of a Site that skips has nothing to carry: its row says no clamp, and it finds no chapter', async () => {
    await seed({ id: 'x' })
    await pauseLane(store.db, 'a', now() + HOUR, now())
    const result = await pass(testSite())
    expect(result.row).toMatchObject({ skip: 'paused', due: 0, gap: 0, clamped: 0 })
    expect(result.newChapters).toEqual([])
  })
})

describe('within the loop', () => {
  it('a stop while waiting for the next Series keeps the row of the checks made', async () => {
    await seed({ id: 'x', checkedAt: 1 })
    await seed({ id: 'y', checkedAt: 2 })
    const controller = new AbortController()
    http.respond = () => chapterPage(1)
    // Aborted as the first check ends: the pass is then waiting out its gap.
    const result = await pass(testSite('a', roomy), {}, undefined, { signal: controller.signal, onCheck: async () => controller.abort() })
    expect(result.row).toMatchObject({ skip: '', due: 2, checked: 1 })
    expect(http.calls).toHaveLength(1)
  })

  it('a stop while the pass waits for its first turn: nothing stamped, nothing sent, no row', async () => {
    await seed({ id: 'x', checkedAt: 1 })
    const pacer = new SitePacer(clock)
    // A request a moment ago: the pass waits a 5 min gap, and the stop comes a minute into it.
    pacer.seed('a', now())
    const controller = new AbortController()
    void clock.sleep(MIN).then(() => controller.abort())
    const result = await pass(testSite(), {}, pacer, { signal: controller.signal })
    expect(result.row).toBeNull()
    expect(http.calls).toEqual([])
    expect(await recentPasses(store.db, 'a', 10)).toEqual([])
    expect((await requireSeries(store.db, { site: 'a', seriesId: 'x' })).latest_checked_at).toBe(1)
  })

  it('a Series no longer due when its turn comes is neither fetched nor counted', async () => {
    await seed({ id: 'x', checkedAt: 1 })
    await seed({ id: 'y', checkedAt: 2 })
    http.respond = async () => {
      await removeBookmark(store.db, alice, { site: 'a', seriesId: 'y' }, now())
      return chapterPage(1)
    }
    const result = await pass(testSite('a', roomy))
    // Nor counted as due: the row says what the pass found due.
    expect(result.row).toMatchObject({ due: 1, checked: 1, unfetchable: 0, errors: 0 })
    expect(result.checked).toEqual(['x'])
  })

  it('a New Chapter links the chapter itself when its link is on the Site', async () => {
    await seed({ id: 'x', latest: 10 })
    http.respond = () => ({ kind: 'page', page: { url: 'https://a.example/manga/x', status: 200, contentType: 'text/plain', body: '11' } })
    const result = await pass(testSite())
    expect(result.newChapters.map((c) => c.url)).toEqual(['https://a.example/manga/x/c/11'])
  })

  it("reads pages with the pass's reader when it is given one", async () => {
    await seed({ id: 'x' })
    const read: string[] = []
    const reader: PageReader = {
      ...inlineReader,
      read: async (site, page, seriesUrl) => {
        read.push(seriesUrl.href)
        return inlineReader.read(site, page, seriesUrl)
      },
    }
    const result = await pass(testSite(), {}, undefined, { reader })
    expect(result.row).toMatchObject({ checked: 1 })
    expect(read).toEqual(['https://a.example/manga/x'])
  })

  describe('a pass ended early after checks that sent nothing, with more due than it read, idles', () => {
    // Off the host pin: no check sends a request. A 1 min gap and maxPassMs 2 min: a pass reads 3 of the 8 due.
    const site = () => testSite('a', { pace: { restMs: 8 * MIN, minGapMs: 1_000, maxPassMs: 2 * MIN } })
    beforeEach(async () => {
      for (let i = 0; i < 8; i++) await seed({ id: `s${i}`, checkedAt: i + 1, url: `https://elsewhere.example/manga/s${i}` })
    })

    it('a Pause pressed after its first check', async () => {
      const result = await pass(site(), {}, undefined, { onCheck: () => pauseLane(store.db, 'a', now() + HOUR, now()) })
      expect(result.row).toMatchObject({ skip: '', due: 8, checked: 1 })
      expect(result.sleepMs).toBe(30_000)
    })

    it('its next Series unreadable after its first check', async () => {
      let reads = 0
      const db = failingWhen(store.db, (node) => isStillDue(node) && ++reads === 2)
      const result = await pass(site(), {}, undefined, { db })
      expect(result.row).toMatchObject({ skip: '', due: 8, checked: 1 })
      expect(result.sleepMs).toBe(30_000)
    })

    it('the Lane row unreadable after its first check', async () => {
      let reads = 0
      const db = failingWhen(store.db, (node) => isLaneRead(node) && ++reads === 3)
      const result = await pass(site(), {}, undefined, { db })
      expect(result.row).toMatchObject({ skip: '', due: 8, checked: 1 })
      expect(result.sleepMs).toBe(30_000)
    })
  })

  it('a pass cut short by maxPassMs after checks that sent nothing goes straight on', async () => {
    for (const id of ['x', 'y', 'z']) await seed({ id, url: `https://elsewhere.example/manga/${id}` })
    const pacer = new SitePacer(clock)
    // A request a moment ago: the first Series waits a 5 min gap, past the 1 min maxPassMs; its check sends nothing.
    pacer.seed('a', now())
    const result = await pass(testSite('a', { pace: { maxPassMs: MIN } }), {}, pacer)
    expect(result.row).toMatchObject({ skip: '', due: 3, checked: 1, unfetchable: 1 })
    expect(result.sleepMs).toBe(0)
  })
})

const ZERO_ROW = {
  site: 'a',
  started_at: 0,
  ended_at: 0,
  skip: '' as const,
  due: 0,
  gap: 0,
  clamped: 0,
  checked: 0,
  refused: 0,
  unreachable: 0,
  no_chapter: 0,
  unfetchable: 0,
  errors: 0,
}
