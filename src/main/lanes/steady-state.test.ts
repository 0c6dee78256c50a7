/**
 * The Lanes in the steady state and under the faults review found: the second and the hundredth check, a
 * wall clock set back or forward, a Pause pressed during a gap wait, a store that cannot be read, a Series
 * orphaned mid-pass, Lanes started twice. Each runs real Lanes on a real SQLite file and a fake clock.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
// Imported with the file, not inside a test: a module first loaded inside a test makes its constants "hybrid" mutants,
// which Stryker 9.6.1 can never kill (docs/mutation.md#static-and-hybrid-mutants).
import { startCore } from '../core'
import { BrowserHealth } from '../fetch/browser-health'
import type { FetchResult } from '../fetch/fetcher'
import { silentLog } from '../log'
import type { Site } from '../sites/site'
import type { Db } from '../store/database'
import { pauseLane, recordRefusal } from '../store/lanes'
import { latestPass, recentPasses } from '../store/passes'
import { forceSeriesPoll, requireSeries } from '../store/series'
import { removeBookmark } from '../store/bookmarks'
import { FakeClock } from '../testing/clock'
import { chapterPage, failingWhen, testSite } from '../testing/fakes'
import { openTestStore, seedReader, seedSeries, type SeedSeries, type TestStore } from '../testing/store'
import { FIRST_PASS_STAGGER_MS, startLanes, type Lanes } from './lane'
import { SitePacer } from './pacer'
import { runPass, type PassResult } from './pass'

const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR

let store: TestStore
let clock: FakeClock
let alice: number
/** Every request, with both times: the wall clock the store sees and the monotonic time of the pace. */
let requests: Array<{ url: string; wall: number; mono: number }>
/** The chapter each Series' page shows. */
let chapters: Map<string, number>
let running: Lanes[]

const http = {
  kind: 'http' as const,
  async fetch(request: { url: string }): Promise<FetchResult> {
    requests.push({ url: request.url, wall: clock.now(), mono: clock.monotonic() })
    return chapterPage(chapters.get(request.url.split('/').at(-1)!) ?? 1)
  },
}

beforeEach(async () => {
  store = openTestStore()
  clock = new FakeClock()
  alice = await seedReader(store.db, 'alice')
  requests = []
  chapters = new Map()
  running = []
})
afterEach(async () => {
  await Promise.all(running.map((l) => l.stop()))
  await store.dispose()
})

const seed = (s: Omit<SeedSeries, 'readers'> & { readers?: number[] }) => seedSeries(store.db, { readers: [alice], ...s })
/** Four Series on a Site with a 20-minute rest: a 5-minute gap; an idle Lane looks again every 5 minutes. */
const site = testSite('a', { pace: { restMs: 20 * MIN, minGapMs: 1_000, maxPassMs: 24 * HOUR, idleRequeryMs: 5 * MIN } })

async function lanes(options: { db?: Db; sites?: Site[]; pacer?: SitePacer } = {}): Promise<Lanes> {
  const started = await startLanes({
    db: options.db ?? store.db,
    sites: options.sites ?? [site],
    fetchers: { http },
    clock,
    log: silentLog,
    ...(options.pacer ? { pacer: options.pacer } : {}),
  })
  running.push(started)
  return started
}

const passes = async () => (await recentPasses(store.db, 'a', 100_000)).reverse()
const requestsOf = (id: string) => requests.filter((r) => r.url.endsWith(`/${id}`))

describe('the steady state', () => {
  it('the second and the hundredth check of an unchanged Series are successes and change nothing a Reader syncs', async () => {
    await seed({ id: 's0' })
    chapters.set('s0', 7)
    await lanes()
    await clock.runQuiet(30 * MIN)
    const first = await requireSeries(store.db, { site: 'a', seriesId: 's0' })
    const syncedAt = await store.db.selectFrom('bookmarks').select('updated_at').executeTakeFirstOrThrow()
    await clock.runQuiet(100 * 20 * MIN)
    expect(requestsOf('s0').length).toBeGreaterThanOrEqual(100)
    const rows = await passes()
    expect(rows.reduce((n, r) => n + r.errors, 0)).toBe(0)
    expect(
      rows.filter((r) => r.checked > 0).every((r) => r.checked - r.refused - r.no_chapter - r.unfetchable - r.errors === r.checked),
    ).toBe(true)
    const later = await requireSeries(store.db, { site: 'a', seriesId: 's0' })
    expect(later).toMatchObject({ latest_chapter: 7, latest_changed_at: first.latest_changed_at, last_outcome: 'chapter', last_error: '' })
    expect(await store.db.selectFrom('bookmarks').select('updated_at').executeTakeFirstOrThrow()).toEqual(syncedAt)
  })

  it('a chapter published later is a New Chapter, found within a rest', async () => {
    await seed({ id: 's0' })
    chapters.set('s0', 7)
    const found: number[] = []
    const started = await startLanes({
      db: store.db,
      sites: [site],
      fetchers: { http },
      clock,
      log: silentLog,
      onNewChapters: (_site, c) => found.push(...c.map((x) => x.chapter)),
    })
    running.push(started)
    await clock.runQuiet(3 * HOUR)
    chapters.set('s0', 8)
    const publishedAt = clock.now()
    await clock.runQuiet(site.pace.restMs + MIN)
    expect(found).toEqual([8])
    const s = await requireSeries(store.db, { site: 'a', seriesId: 's0' })
    expect(s.latest_changed_at - publishedAt).toBeLessThanOrEqual(site.pace.restMs)
  })

  it('a failed check keeps its reason on the Series; the next good check clears it', async () => {
    await seed({ id: 's0' })
    let down = true
    const flaky = { kind: 'http' as const, fetch: async () => (down ? chapterPage(1, 503) : chapterPage(3)) }
    running.push(await startLanes({ db: store.db, sites: [site], fetchers: { http: flaky }, clock, log: silentLog }))
    await clock.runQuiet(MIN)
    expect(await requireSeries(store.db, { site: 'a', seriesId: 's0' })).toMatchObject({
      last_outcome: 'error',
      last_error: 'HTTP 503 from a.example',
      last_outcome_at: clock.now() - MIN,
    })
    down = false
    await clock.runQuiet(site.pace.restMs)
    expect(await requireSeries(store.db, { site: 'a', seriesId: 's0' })).toMatchObject({ last_outcome: 'chapter', last_error: '' })
  })
})

describe('the wall clock', () => {
  it('set back by a day while a Lane runs: the Lane keeps working at its pace', async () => {
    for (let i = 0; i < 4; i++) await seed({ id: `s${i}` })
    await lanes()
    await clock.runQuiet(HOUR)
    const before = requests.length
    clock.stepWall(-DAY)
    await clock.runQuiet(2 * HOUR)
    // Four Series, a 20-minute rest: about 24 checks in two hours, as before the step.
    expect(requests.length - before).toBeGreaterThanOrEqual(20)
    const rows = (await passes()).filter((r) => r.started_at >= clock.now() - 2 * HOUR)
    expect(rows.length).toBeGreaterThan(0)
    // Each Series is checked again a rest after its last check, on the pace's own time.
    const times = requestsOf('s0').map((r) => r.mono)
    const gaps = times.slice(1).map((t, i) => t - times[i]!)
    expect(Math.max(...gaps)).toBeLessThanOrEqual(site.pace.restMs + 10 * MIN)
  })

  it('set back by a day before a restart: the restarted Lane works, and no Series waits out the day', async () => {
    for (let i = 0; i < 4; i++) await seed({ id: `s${i}` })
    const first = await lanes()
    await clock.runQuiet(HOUR)
    await first.stop()
    clock.stepWall(-DAY)
    const before = requests.length
    await lanes()
    await clock.runQuiet(HOUR)
    expect(requests.length - before).toBeGreaterThanOrEqual(8)
    const stamps = await store.db.selectFrom('series').select('latest_checked_at').execute()
    expect(stamps.every((s) => s.latest_checked_at <= clock.now())).toBe(true)
  })

  it('Check now pressed while stamps are ahead of the clock is pending, shown, and served', async () => {
    await seed({ id: 's0' })
    await lanes()
    await clock.runQuiet(2 * MIN)
    const served = requestsOf('s0').length
    clock.stepWall(-6 * HOUR)
    await forceSeriesPoll(store.db, { site: 'a', seriesId: 's0' }, clock.now())
    const pressed = await requireSeries(store.db, { site: 'a', seriesId: 's0' })
    expect(pressed.force_poll_at).toBeGreaterThan(pressed.latest_checked_at)
    await clock.runQuiet(site.pace.maxGapMs + site.pace.idleRequeryMs)
    expect(requestsOf('s0').length).toBe(served + 1)
    const after = await requireSeries(store.db, { site: 'a', seriesId: 's0' })
    expect(after.force_poll_at > after.latest_checked_at).toBe(false)
  })

  it("set forward by hours: no burst — the next request still waits its gap on the pace's own time", async () => {
    // One Series: a 5-minute gap (the clamp), and an idle Lane that looks again every 30 s.
    const eager = testSite('a', { pace: { restMs: 20 * MIN, idleRequeryMs: 30_000, maxPassMs: 24 * HOUR } })
    await seed({ id: 's0' })
    await lanes({ sites: [eager] })
    await clock.runUntil(() => requests.length === 1)
    clock.stepWall(+6 * HOUR)
    await clock.runQuiet(HOUR)
    const times = requests.map((r) => r.mono)
    expect(times.length).toBeGreaterThan(1)
    const gaps = times.slice(1).map((t, i) => t - times[i]!)
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(5 * MIN)
  })

  it('a pause or refusal ahead of a clock set back lasts no longer than the app ever sets one', async () => {
    await seed({ id: 's0' })
    await recordRefusal(store.db, 'a', clock.now() + site.pace.refusalBackoffMs)
    clock.stepWall(-DAY)
    await lanes()
    await clock.runQuiet(site.pace.refusalBackoffMs + MIN)
    expect(requestsOf('s0').length).toBeGreaterThan(0)
  })

  it('the browser-down window ends on time even when the clock is set back', () => {
    const health = new BrowserHealth(clock)
    health.markDown()
    clock.stepWall(-DAY)
    expect(health.isDown()).toBe(true)
    clock.set(clock.now() + health.windowMs)
    expect(health.isDown()).toBe(false)
  })
})

describe('the gate, read after every wait and just before each request', () => {
  async function passRunning(db: Db = store.db, pacer = new SitePacer(clock), ofSite = site) {
    let result: PassResult | undefined
    const pass = runPass(
      { db, site: ofSite, fetchers: { http }, health: new BrowserHealth(clock), pacer, clock, log: silentLog },
      new AbortController().signal,
    )
    void pass.then((r) => (result = r))
    return { done: () => result !== undefined, result: () => result!, pass }
  }

  it('a Pause pressed during the gap wait lets no request out', async () => {
    for (let i = 0; i < 3; i++) await seed({ id: `s${i}`, checkedAt: i + 1 })
    const run = await passRunning()
    await clock.runUntil(() => requests.length === 1)
    await pauseLane(store.db, 'a', clock.now() + HOUR, clock.now())
    await clock.runUntil(run.done)
    expect(requests).toHaveLength(1)
    expect(run.result().row).toMatchObject({ skip: '', checked: 1 })
  })

  it("the first Series of a pass included: a Pause pressed while the pass waits out the previous pass's gap", async () => {
    for (let i = 0; i < 2; i++) await seed({ id: `s${i}`, checkedAt: i + 1 })
    const pacer = new SitePacer(clock)
    pacer.seed('a', clock.now())
    const run = await passRunning(store.db, pacer)
    await clock.runQuiet(MIN)
    await pauseLane(store.db, 'a', clock.now() + HOUR, clock.now())
    await clock.runUntil(run.done)
    expect(requests).toEqual([])
    expect(run.result().row).toMatchObject({ skip: 'paused', due: 2, checked: 0 })
  })

  it('a refusal recorded by an Acquisition during the gap wait lets no request out', async () => {
    for (let i = 0; i < 3; i++) await seed({ id: `s${i}`, checkedAt: i + 1 })
    const run = await passRunning()
    await clock.runUntil(() => requests.length === 1)
    await recordRefusal(store.db, 'a', clock.now() + 15 * MIN)
    await clock.runUntil(run.done)
    expect(requests).toHaveLength(1)
  })

  it('a Series orphaned mid-pass is not fetched', async () => {
    for (let i = 0; i < 3; i++) await seed({ id: `s${i}`, checkedAt: i + 1 })
    const run = await passRunning()
    await clock.runUntil(() => requests.length === 1)
    await removeBookmark(store.db, alice, { site: 'a', seriesId: 's1' }, clock.now())
    await clock.runUntil(run.done)
    expect(requests.map((r) => r.url.split('/').at(-1))).toEqual(['s0', 's2'])
    // The row counts what was due when the pass reached it: no due Series left unchecked, so no stall to read.
    expect(run.result().row).toMatchObject({ skip: '', due: 2, checked: 2 })
  })

  it('every due Series checked by an Acquisition meanwhile: a row with nothing due, not a stall', async () => {
    for (let i = 0; i < 2; i++) await seed({ id: `s${i}`, checkedAt: i + 1 })
    const pacer = new SitePacer(clock)
    pacer.seed('a', clock.now())
    const run = await passRunning(store.db, pacer)
    await clock.runQuiet(MIN)
    for (let i = 0; i < 2; i++) {
      await store.db.updateTable('series').set({ latest_checked_at: clock.now() }).where('series_id', '=', `s${i}`).execute()
    }
    await clock.runUntil(run.done)
    expect(requests).toEqual([])
    expect(run.result().row).toMatchObject({ skip: '', due: 0, checked: 0 })
  })

  it('every Series the pass read went meanwhile and more are due: it reads the next ones and checks them', async () => {
    // A short maxPassMs: the pass reads only the few due Series it could check (4 of 6 here).
    const short = testSite('a', { pace: { restMs: 20 * MIN, minGapMs: 1_000, maxPassMs: 10 * MIN, idleRequeryMs: 5 * MIN } })
    for (let i = 0; i < 6; i++) await seed({ id: `s${i}`, checkedAt: i + 1 })
    const pacer = new SitePacer(clock)
    pacer.seed('a', clock.now())
    const run = await passRunning(store.db, pacer, short)
    await clock.runQuiet(MIN)
    for (let i = 0; i < 4; i++) {
      await store.db.updateTable('series').set({ latest_checked_at: clock.now() }).where('series_id', '=', `s${i}`).execute()
    }
    await clock.runUntil(run.done)
    expect(requests.map((r) => r.url.split('/').at(-1))).toEqual(['s4', 's5'])
    expect(run.result().row).toMatchObject({ skip: '', due: 2, checked: 2 })
  })
})

describe('every exit ends in a row', () => {
  it('a Lane row that cannot be read at the top of a pass: a row with the due-query skip', async () => {
    await seed({ id: 's0' })
    const broken = failingWhen(store.db, (node) => node.includes('"SelectQueryNode"') && node.includes('"poll_lanes"'))
    let result: PassResult | undefined
    void runPass(
      { db: broken, site, fetchers: { http }, health: new BrowserHealth(clock), pacer: new SitePacer(clock), clock, log: silentLog },
      new AbortController().signal,
    ).then((r) => (result = r))
    await clock.runUntil(() => result !== undefined)
    expect(result!.row).toMatchObject({ skip: 'due-query' })
    expect(await latestPass(store.db, 'a')).toMatchObject({ skip: 'due-query' })
    expect(requests).toEqual([])
  })

  it('a Lane row that cannot be read mid-pass: the row of the checks made, with their New Chapters', async () => {
    for (let i = 0; i < 3; i++) await seed({ id: `s${i}`, checkedAt: i + 1, latest: 1 })
    chapters.set('s0', 2)
    let broken = false
    const db = failingWhen(store.db, (node) => broken && node.includes('"SelectQueryNode"') && node.includes('"poll_lanes"'))
    let result: PassResult | undefined
    void runPass(
      { db, site, fetchers: { http }, health: new BrowserHealth(clock), pacer: new SitePacer(clock), clock, log: silentLog },
      new AbortController().signal,
    ).then((r) => (result = r))
    await clock.runUntil(() => requests.length === 1)
    broken = true
    await clock.runUntil(() => result !== undefined)
    expect(result!.row).toMatchObject({ skip: '', checked: 1 })
    expect(result!.newChapters.map((c) => c.chapter)).toEqual([2])
  })
})

describe('starting the Lanes', () => {
  it('twice at once through the core runs one Lane per Site', async () => {
    const core = await startCore({ dataDir: store.dir + '/core', clock, log: silentLog, sites: [site], http })
    try {
      await Promise.all([core.startLanes(), core.startLanes()])
      // Nothing eligible: one Lane writes a row every idleRequeryMs (5 min), so 13 rows in an hour; two would write 26.
      await clock.runQuiet(HOUR)
      const rows = await recentPasses(core.store.db, 'a', 1000)
      expect(rows.every((r) => r.skip === 'nothing-eligible')).toBe(true)
      expect(rows.length).toBe(13)
    } finally {
      await core.stop()
    }
  })

  it("each Lane's first pass starts a stagger after the previous Lane's, so a start does not run them all at once", async () => {
    const sites = ['a', 'b', 'c'].map((key) => testSite(key, { pace: { idleRequeryMs: 5 * MIN } }))
    const started = clock.now()
    await lanes({ sites })
    await clock.runQuiet(MIN)
    const firstStarts = await Promise.all(sites.map(async (s) => (await recentPasses(store.db, s.key, 100)).at(-1)!.started_at - started))
    expect(firstStarts).toEqual([0, FIRST_PASS_STAGGER_MS, 2 * FIRST_PASS_STAGGER_MS])
  })

  it('started again while a stop is still ending: the new Lanes wait for it, so two passes of one Site never overlap', async () => {
    let inFlight = 0
    let most = 0
    let release!: () => void
    const held = new Promise<void>((resolve) => (release = resolve))
    // A fetch that ends only when released, whatever the abort (a browser tab slow to give up).
    const slow = {
      kind: 'http' as const,
      async fetch(): Promise<FetchResult> {
        most = Math.max(most, ++inFlight)
        await held
        inFlight--
        return chapterPage(1)
      },
    }
    const core = await startCore({ dataDir: store.dir + '/restart', clock, log: silentLog, sites: [site], http: slow })
    try {
      const bob = await seedReader(core.store.db, 'bob')
      for (let i = 0; i < 3; i++) await seedSeries(core.store.db, { id: `s${i}`, readers: [bob] })
      await core.startLanes()
      await clock.runUntil(() => inFlight === 1)
      const stopping = core.stopLanes()
      const starting = core.startLanes()
      await clock.runQuiet(30 * MIN)
      expect(most).toBe(1)
      release()
      await stopping
      await starting
      await clock.runQuiet(30 * MIN)
      expect(most).toBe(1)
    } finally {
      release()
      await core.stop()
    }
  })

  it('a second process on the same data directory is refused, naming the process that holds it', async () => {
    const dir = store.dir + '/owned'
    const core = await startCore({ dataDir: dir, clock, log: silentLog, sites: [site], http })
    try {
      await expect(startCore({ dataDir: dir, clock, log: silentLog, sites: [site], http })).rejects.toMatchObject({
        code: 'conflict',
        message: expect.stringContaining(`process ${process.pid}`),
      })
    } finally {
      await core.stop()
    }
    // Released on stop: the directory can be opened again.
    const again = await startCore({ dataDir: dir, clock, log: silentLog, sites: [site], http })
    await again.stop()
  })
})
