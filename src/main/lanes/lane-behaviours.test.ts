/**
 * The Lanes as the app runs them (docs/design.md#the-lane-pass): pass after pass with the sleep each asks for,
 * what they tell their listeners, a Site added while they run, the hourly retention, and the rows a Lane
 * holds when it stops. Real Lanes on a real SQLite file; only the clock is fake.
 */
import { Writable } from 'node:stream'
import { pino } from 'pino'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FetchResult } from '../fetch/fetcher'
import { silentLog, type Log } from '../log'
import type { Site } from '../sites/site'
import type { KyselyPlugin } from 'kysely'
import type { Db } from '../store/database'
import { allLanes, ensureLane } from '../store/lanes'
import { RETENTION } from '../store/maintenance'
import { insertPass, recentPasses } from '../store/passes'
import { addSeries, getSeries } from '../store/series'
import { removeBookmark } from '../store/bookmarks'
import { judgeSightings, recordSighting } from '../store/sightings'
import { inlineReader, type PageReader } from '../sites/page-reader'
import { FakeClock } from '../testing/clock'
import { chapterPage, failingOn, failingWhen, testSite } from '../testing/fakes'
import { openTestStore, seedReader, seedSeries, type SeedSeries, type TestStore } from '../testing/store'
import { AppError } from '../../shared/errors'
import type { CheckReport } from './check'
import { madaraFeed } from '../sites/feeds'
import type { FeedStatus } from './feed'
import { FIRST_PASS_STAGGER_MS, startLanes, type Lanes, type LanesOptions } from './lane'
import type { NewChapter, PassResult } from './pass'

const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR

let store: TestStore
let clock: FakeClock
let alice: number
let requests: Array<{ url: string; at: number }>
let chapter: number
let running: Lanes[]

const http = {
  kind: 'http' as const,
  async fetch(request: { url: string }): Promise<FetchResult> {
    requests.push({ url: request.url, at: clock.now() })
    return chapterPage(chapter)
  },
}

beforeEach(async () => {
  store = openTestStore()
  clock = new FakeClock()
  alice = await seedReader(store.db, 'alice')
  requests = []
  chapter = 1
  running = []
})
afterEach(async () => {
  await Promise.all(running.map((l) => l.stop()))
  await store.dispose()
})

const seed = (s: Omit<SeedSeries, 'readers'> & { readers?: number[] }) => seedSeries(store.db, { readers: [alice], ...s })
/** A 20-minute rest; an idle Lane looks again every 7 minutes. */
const site = (key = 'a') => testSite(key, { pace: { restMs: 20 * MIN, minGapMs: 1_000, maxPassMs: DAY, idleRequeryMs: 7 * MIN } })

async function lanes(options: Partial<LanesOptions> & { db?: Db; sites?: Site[] } = {}): Promise<Lanes> {
  const started = await startLanes({ db: store.db, sites: [site()], fetchers: { http }, clock, log: silentLog, ...options })
  running.push(started)
  return started
}

/** A log that keeps what is written at warn level or above. */
function keptLog(): { log: Log; lines: string[] } {
  const lines: string[] = []
  const log = pino({ level: 'warn' }, new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) })) as Log
  return { log, lines }
}

/**
 * The store seen through a plugin that holds the first pruning of old pass rows until `release()`, then lets it
 * end — or fail with `failure`, as a store closed under it would.
 */
function heldPruning(failure?: Error): { db: Db; readonly holding: boolean; release(): void } {
  let release!: () => void
  const held = new Promise<void>((resolve) => (release = resolve))
  let holding = false
  const pruning = new Set<unknown>()
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (JSON.stringify(args.node).includes('DELETE FROM poll_passes')) pruning.add(args.queryId)
      return args.node
    },
    async transformResult(args) {
      if (!pruning.has(args.queryId)) return args.result
      holding = true
      await held
      if (failure) throw failure
      return args.result
    },
  }
  return {
    db: store.db.withPlugin(plugin),
    get holding() {
      return holding
    },
    release,
  }
}

const rowsOf = async (key = 'a') => (await recentPasses(store.db, key, 100_000)).reverse()

describe('pass after pass', () => {
  it('tells its listeners of every pass, every check, and of New Chapters only when a pass found some', async () => {
    await seed({ id: 'x', latest: 1 })
    const passes: Array<[string, PassResult]> = []
    const checks: Array<[string, string, CheckReport['outcome']]> = []
    const found: Array<[string, NewChapter[]]> = []
    await lanes({
      onPass: (s, r) => passes.push([s.key, r]),
      onCheck: (s, series, report) => checks.push([s.key, series.series_id, report.outcome]),
      onNewChapters: (s, c) => found.push([s.key, c]),
    })
    await clock.runQuiet(MIN)
    expect(checks).toEqual([['a', 'x', 'chapter']])
    expect(found).toEqual([])
    chapter = 2
    await clock.runQuiet(30 * MIN)
    expect(checks.map(([, id]) => id)).toEqual(['x', 'x'])
    expect(found).toEqual([['a', [expect.objectContaining({ seriesId: 'x', chapter: 2 })]]])
    // Every pass: the two that checked and the idle ones between them, each with its row.
    expect(passes.map(([key]) => key).every((key) => key === 'a')).toBe(true)
    expect(passes.map(([, r]) => r.row?.id)).toEqual((await rowsOf()).map((r) => r.id))
    expect(passes.length).toBeGreaterThan(2)
  })

  it('finds New Chapters without a listener for them, and logs no failure', async () => {
    await seed({ id: 'x', latest: 1 })
    const { log, lines } = keptLog()
    const passes: PassResult[] = []
    await lanes({ log, onPass: (_s, r) => passes.push(r) })
    await clock.runQuiet(MIN)
    chapter = 2
    await clock.runQuiet(30 * MIN)
    expect(passes.flatMap((r) => r.newChapters.map((c) => c.chapter))).toEqual([2])
    expect(lines).toEqual([])
  })

  it('sleeps what each pass asks: straight on after a check, the idle re-query when nothing is due', async () => {
    await seed({ id: 'x', checkedAt: clock.now() - HOUR })
    await lanes()
    await clock.runQuiet(30 * MIN)
    const starts = (await rowsOf()).map((r) => r.started_at - clock.now() + 30 * MIN)
    // A check at 0, at once the pass that finds nothing due, then one every idle re-query until the rest is over.
    expect(starts.slice(0, 5)).toEqual([0, 0, 7 * MIN, 14 * MIN, 21 * MIN])
    expect(requests.map((r) => r.at - clock.now() + 30 * MIN)).toEqual([0, 21 * MIN])
  })

  it('a pass that fails outright is logged, and the Lane tries again after the idle re-query, not at once', async () => {
    await seed({ id: 'x', checkedAt: 1 })
    await lanes({
      onCheck: () => {
        throw new Error('listener broke')
      },
    })
    await clock.runQuiet(30 * MIN)
    // The passes that check x fail and write no row; the next pass comes an idle re-query later, not at once.
    const at = (t: number) => t - clock.now() + 30 * MIN
    expect(requests.map((r) => at(r.at))).toEqual([0, 21 * MIN])
    expect((await rowsOf()).map((r) => at(r.started_at))).toEqual([7 * MIN, 14 * MIN, 28 * MIN])
  })

  it('a last check stamp that cannot be read does not keep the Lane from its passes', async () => {
    let reads = 0
    const db = failingWhen(store.db, (node) => node.includes('"kind":"AggregateFunctionNode"') && ++reads === 1)
    await lanes({ db })
    await clock.runQuiet(10 * MIN)
    expect((await rowsOf()).length).toBeGreaterThan(0)
  })

  it('reads pages with the reader it is given', async () => {
    await seed({ id: 'x' })
    const read: string[] = []
    const reader: PageReader = {
      ...inlineReader,
      read: async (s, page, seriesUrl) => {
        read.push(seriesUrl.href)
        return inlineReader.read(s, page, seriesUrl)
      },
    }
    await lanes({ reader })
    await clock.runQuiet(MIN)
    expect(read).toEqual(['https://a.example/manga/x'])
  })

  it("keeps the gap after the app's last request to the Site across a restart", async () => {
    // Checked a minute ago by the app before it stopped; y is due. Two eligible at a 20 min rest: a 5 min gap
    // (the longest), so y waits the 4 minutes left of it.
    await seed({ id: 'last', checkedAt: clock.now() - MIN })
    await seed({ id: 'y', checkedAt: 1 })
    const started = clock.now()
    await lanes()
    await clock.runQuiet(10 * MIN)
    expect(requests.map((r) => [r.url.split('/').at(-1), r.at - started])).toEqual([['y', 4 * MIN]])
  })
})

describe('a Site added while the Lanes run', () => {
  it('gets its own Lane, once however often it is added, and none once the Lanes stopped', async () => {
    const started = await lanes()
    await started.add(site('b'))
    await started.add(site('b'))
    await started.add(site('a'))
    await clock.runQuiet(HOUR)
    // Nothing eligible: one Lane writes a row every 7 minutes: 9 in an hour; two would write 18.
    expect((await rowsOf('b')).length).toBe(9)
    expect((await rowsOf('a')).length).toBe(9)
    await started.stop()
    await started.add(site('c'))
    await clock.runQuiet(HOUR)
    expect(await rowsOf('c')).toEqual([])
    expect((await rowsOf('b')).length).toBe(9)
  })

  it("each Lane's first pass starts a stagger after the one before, the first at once", async () => {
    const sites = [site('a'), site('b')]
    const started = clock.now()
    await lanes({ sites })
    await clock.runQuiet(FIRST_PASS_STAGGER_MS - 1)
    expect((await rowsOf('a')).map((r) => r.started_at - started)).toEqual([0])
    expect(await rowsOf('b')).toEqual([])
    await clock.runQuiet(1)
    expect((await rowsOf('b')).map((r) => r.started_at - started)).toEqual([FIRST_PASS_STAGGER_MS])
  })
  it('the first passes wait for what the app gives them (its first answer), then stagger as usual', async () => {
    let open = () => {}
    const firstPassAfter = new Promise<void>((resolve) => (open = resolve))
    const sites = [site('a'), site('b')]
    await lanes({ sites, firstPassAfter })
    await clock.runQuiet(HOUR)
    expect(requests).toEqual([])
    expect(await rowsOf('a')).toEqual([])
    const opened = clock.now()
    open()
    await clock.runQuiet(FIRST_PASS_STAGGER_MS)
    expect((await rowsOf('a')).map((r) => r.started_at - opened)).toEqual([0])
    expect((await rowsOf('b')).map((r) => r.started_at - opened)).toEqual([FIRST_PASS_STAGGER_MS])
  })
  it('a stop while the first passes wait ends at once, and nothing is read after', async () => {
    const started = await lanes({ sites: [site('a')], firstPassAfter: new Promise(() => {}) })
    await started.stop()
    await clock.runQuiet(HOUR)
    expect(requests).toEqual([])
    expect(await rowsOf('a')).toEqual([])
  })
  it('a Lane stopped during its stagger reads nothing', async () => {
    let queries = 0
    const db = failingWhen(store.db, () => (queries++, false))
    const started = await lanes({ db, sites: [site('a'), site('b')] })
    await clock.runQuiet(FIRST_PASS_STAGGER_MS / 2)
    expect(await rowsOf('a')).toHaveLength(1)
    queries = 0
    await started.stop()
    await clock.runQuiet(HOUR)
    expect(queries).toBe(0)
    expect(await rowsOf('b')).toEqual([])
  })
})

describe("the Lanes' rows", () => {
  const laneSites = async () => (await allLanes(store.db)).map((lane) => lane.site)
  const isLaneInsert = (node: string) => node.includes('"kind":"InsertQueryNode"') && node.includes('"poll_lanes"')
  const isLaneRead = (node: string) => node.includes('"kind":"SelectQueryNode"') && node.includes('"poll_lanes"')
  const isPassInsert = (node: string) => node.includes('"kind":"InsertQueryNode"') && node.includes('"poll_passes"')
  const unavailable = () => new AppError('storage-unavailable', 'the app cannot store writes now: the database is read-only')

  it('each Lane has its row from the start, before its first pass', async () => {
    await lanes({ sites: [site('a'), site('b')] })
    // "b" waits for its stagger: its row is the start's, not a pass's.
    expect(await laneSites()).toEqual(['a', 'b'])
    expect(await rowsOf('b')).toEqual([])
  })

  it('a Site added while the Lanes run has its row at once, even while no pass row can be written', async () => {
    const started = await lanes({ db: failingWhen(store.db, isPassInsert) })
    await started.add(site('b'))
    await clock.runQuiet(HOUR)
    expect(await rowsOf('b')).toEqual([])
    expect(await laneSites()).toEqual(['a', 'b'])
  })

  it('a store that takes no writes still starts every Lane; the ones without a row are named once in the log', async () => {
    await ensureLane(store.db, 'a')
    const { log, lines } = keptLog()
    let refusing = true
    const db = failingWhen(store.db, (node) => refusing && isLaneInsert(node), unavailable)
    await lanes({ db, log, sites: [site('a'), site('b'), site('c')] })
    expect(lines.map((line) => JSON.parse(line) as { sites: string[]; msg: string })).toEqual([
      {
        ...JSON.parse(lines[0]!),
        sites: ['b', 'c'],
        msg: 'lanes: started without their rows, made once the store takes writes (the app cannot store writes now: the database is read-only)',
      },
    ])
    expect(await laneSites()).toEqual(['a'])
    // The store takes writes again: the first pass rows of "b" and "c" make their Lane rows, as the log said.
    refusing = false
    await clock.runQuiet(FIRST_PASS_STAGGER_MS * 2)
    expect(await rowsOf('c')).toHaveLength(1)
    expect(await laneSites()).toEqual(['a', 'b', 'c'])
  })

  it('a store that cannot even be read still starts the Lanes', async () => {
    const { log, lines } = keptLog()
    const db = failingWhen(store.db, (node) => isLaneRead(node) || isLaneInsert(node), unavailable)
    await lanes({ db, log, sites: [site('a'), site('b')] })
    expect(lines.map((line) => (JSON.parse(line) as { sites: string[] }).sites)).toEqual([['a', 'b']])
  })

  it('any other failure of the store at the start is not swallowed: the Lanes do not start', async () => {
    await expect(lanes({ db: failingWhen(store.db, isLaneRead) })).rejects.toThrow('injected failure')
    await expect(lanes({ db: failingWhen(store.db, isLaneInsert) })).rejects.toThrow('injected failure')
  })
})

describe('retention', () => {
  /** Two old rows of a quiet Lane and an orphan Series nobody checked for months, beside one a Reader holds. */
  async function oldThings() {
    const old = clock.now() - 20 * DAY
    const row = {
      site: 'quiet',
      skip: '' as const,
      due: 0,
      gap: 1,
      clamped: 0,
      checked: 0,
      refused: 0,
      unreachable: 0,
      no_chapter: 0,
      unfetchable: 0,
      errors: 0,
    }
    await insertPass(store.db, { ...row, started_at: old, ended_at: old })
    await insertPass(store.db, { ...row, started_at: old + 1, ended_at: old + 1 })
    await seedSeries(store.db, { id: 'orphan', site: 'b' })
    await seed({ id: 'held', site: 'b' })
    // Orphaned yesterday: kept for the month.
    await addSeries(store.db, { site: 'b', seriesId: 'young-orphan', now: clock.now() - DAY })
  }
  /** A Sighting and a bookmark removal from long ago, and one of each from yesterday, on Series a Reader holds. */
  async function oldRecords() {
    const long = clock.now() - 100 * DAY
    const recent = clock.now() - DAY
    for (const [id, at] of [
      ['long', long],
      ['recent', recent],
    ] as const) {
      await seed({ id, site: 'c', latest: 1 })
      await recordSighting(store.db, { site: 'c', seriesId: id, readerId: alice, chapter: 2, sightedAt: at, now: at })
      await judgeSightings(store.db, { site: 'c', seriesId: id }, 2, at)
      // A Sighting no check judged: of a Series never checked, as on a refusing Site.
      await seed({ id: `${id}-unjudged`, site: 'c', latest: 1 })
      await recordSighting(store.db, { site: 'c', seriesId: `${id}-unjudged`, readerId: alice, chapter: 2, sightedAt: at, now: at })
      await seed({ id: `${id}-removed`, site: 'c' })
      await removeBookmark(store.db, alice, { site: 'c', seriesId: `${id}-removed` }, at)
    }
  }
  const left = async () => ({
    sightings: store.sqlite.prepare('SELECT series_id FROM sightings ORDER BY series_id').all(),
    removals: store.sqlite.prepare('SELECT series_id FROM bookmark_removals ORDER BY series_id').all(),
  })
  const quietRows = async () => (await rowsOf('quiet')).length
  const orphan = () => getSeries(store.db, { site: 'b', seriesId: 'orphan' })

  it('first runs a minute after the start, then every hour: old pass rows (each Lane keeps its newest) and long orphans go', async () => {
    await oldThings()
    await lanes()
    await clock.runQuiet(MIN - 1)
    expect(await quietRows()).toBe(2)
    expect(await orphan()).toBeDefined()
    await clock.runQuiet(1)
    expect(await quietRows()).toBe(1)
    expect(await orphan()).toBeUndefined()
    expect(await getSeries(store.db, { site: 'b', seriesId: 'held' })).toBeDefined()
    expect(await getSeries(store.db, { site: 'b', seriesId: 'young-orphan' })).toBeDefined()
    // The Lane's own rows are younger than the retention: all kept.
    const own = (await rowsOf()).length
    await clock.runQuiet(2 * HOUR)
    expect((await rowsOf()).length).toBeGreaterThan(own)
    expect((await rowsOf())[0]!.started_at).toBe(clock.now() - 2 * HOUR - MIN)
  })

  it('judged and unjudged Sightings and bookmark removals go after their retention, the recent ones stay', async () => {
    await oldRecords()
    await lanes()
    await clock.runQuiet(MIN - 1)
    expect(await left()).toEqual({
      sightings: [{ series_id: 'long' }, { series_id: 'long-unjudged' }, { series_id: 'recent' }, { series_id: 'recent-unjudged' }],
      removals: [{ series_id: 'long-removed' }, { series_id: 'recent-removed' }],
    })
    await clock.runQuiet(1)
    expect(await left()).toEqual({
      sightings: [{ series_id: 'recent' }, { series_id: 'recent-unjudged' }],
      removals: [{ series_id: 'recent-removed' }],
    })
  })

  it('an unjudged Sighting is kept for its week, then goes', async () => {
    const sightedAt = clock.now() + MIN - RETENTION.outstandingSightingsMs
    await seed({ id: 'week', site: 'c', latest: 1 })
    await recordSighting(store.db, { site: 'c', seriesId: 'week', readerId: alice, chapter: 2, sightedAt, now: sightedAt })
    await lanes()
    // The first retention, a minute after the start, finds it exactly a week old: kept.
    await clock.runQuiet(MIN)
    expect((await left()).sightings).toEqual([{ series_id: 'week' }])
    await clock.runQuiet(HOUR)
    expect((await left()).sightings).toEqual([])
  })

  it("refreshes the planner's statistics with every retention, after the pruning", async () => {
    const statements: string[] = []
    const recording: KyselyPlugin = {
      transformQuery(args) {
        const text = JSON.stringify(args.node)
        if (text.includes('PRAGMA optimize')) statements.push('optimize')
        else if (text.includes('DELETE')) statements.push('delete')
        return args.node
      },
      transformResult: async (args) => args.result,
    }
    await lanes({ db: store.db.withPlugin(recording) })
    await clock.runQuiet(MIN)
    expect(statements.at(-1)).toBe('optimize')
    expect(statements.filter((s) => s === 'optimize')).toHaveLength(1)
    await clock.runQuiet(HOUR)
    expect(statements.filter((s) => s === 'optimize')).toHaveLength(2)
  })

  it('a stop during a step leaves the steps after it undone', async () => {
    await oldThings()
    // The first pruning (old pass rows) ends only when released.
    const pruning = heldPruning()
    const started = await lanes({ db: pruning.db })
    await clock.runUntil(() => pruning.holding)
    const stopping = started.stop()
    pruning.release()
    await stopping
    expect(await quietRows()).toBe(1)
    expect(await orphan()).toBeDefined()
  })

  it('keeps pass rows for the retention asked for, read each hour', async () => {
    await lanes({ retentionMs: HOUR })
    await clock.runQuiet(MIN + 3 * HOUR)
    const rows = await rowsOf()
    // Pruned last at 3h 1min: rows that ended more than an hour before it are gone.
    expect(rows[0]!.ended_at).toBeGreaterThanOrEqual(clock.now() - HOUR)
    expect(rows[0]!.ended_at).toBeLessThan(clock.now() - HOUR + 7 * MIN)
  })

  it('a step that fails leaves the others to run', async () => {
    await oldThings()
    const { log, lines } = keptLog()
    await lanes({ log, db: failingOn(store.db, 'DELETE FROM poll_passes') })
    await clock.runQuiet(2 * MIN)
    expect(await quietRows()).toBe(2)
    expect(await orphan()).toBeUndefined()
    // The owner's log names the step that failed.
    expect(lines.join('')).toContain('lanes: pruning old pass rows failed')
  })
})

describe('stopping', () => {
  it("keeps each Site's updates page watch while they stop and start again with the same map (ADR 0231)", async () => {
    const feedSite = testSite('a', { pace: { cadence: 'adaptive' }, adapter: { ...testSite('a').adapter, latest: madaraFeed } })
    const feeds = new Map<string, FeedStatus>()
    const first = await lanes({ sites: [feedSite], feeds })
    await clock.advance(FIRST_PASS_STAGGER_MS)
    const watched = feeds.get('a')
    expect(watched).toBeDefined()
    await first.stop()
    await lanes({ sites: [feedSite], feeds })
    await clock.advance(FIRST_PASS_STAGGER_MS)
    expect(feeds.get('a')).toBe(watched)
    // Another map (another core) starts from nothing.
    const other = new Map<string, FeedStatus>()
    await lanes({ sites: [feedSite], feeds: other })
    await clock.advance(FIRST_PASS_STAGGER_MS)
    expect(other.get('a')).toBeDefined()
    expect(other.get('a')).not.toBe(watched)
  })
  it('writes the rows a Lane held while the store refused them, once it takes writes again', async () => {
    let refuse = true
    const db = failingWhen(store.db, (node) => refuse && node.includes('"kind":"InsertQueryNode"') && node.includes('poll_passes'))
    const started = await lanes({ db })
    await clock.runQuiet(20 * MIN)
    expect(await rowsOf()).toEqual([])
    refuse = false
    await started.stop()
    // Held: the passes at 0, 7 and 14 minutes, written in order.
    expect((await rowsOf()).map((r) => r.started_at - clock.now() + 20 * MIN)).toEqual([0, 7 * MIN, 14 * MIN])
  })

  it('a pass that fails because the app is stopping is not an error in the log', async () => {
    await seed({ id: 'x', checkedAt: 1 })
    const { log, lines } = keptLog()
    let stopping: Promise<void> | undefined
    const started: Lanes = await lanes({
      log,
      // The window the listener reports to is gone: the app is quitting.
      onCheck: () => {
        stopping = started.stop()
        throw new Error('listener gone')
      },
    })
    await clock.runUntil(() => stopping !== undefined)
    await stopping
    expect(lines).toEqual([])
  })

  it('the same failure while the app runs is an error in the log', async () => {
    await seed({ id: 'y', checkedAt: 1 })
    const { log, lines } = keptLog()
    await lanes({
      log,
      onCheck: () => {
        throw new Error('listener broke')
      },
    })
    await clock.runQuiet(MIN)
    expect(lines.join('')).toContain('lane: pass failed')
  })

  it('a retention step that fails because the app is stopping is not an error in the log', async () => {
    const { log, lines } = keptLog()
    // The first pruning waits, then fails: the store was closed under it.
    const pruning = heldPruning(new Error('the store is closed'))
    const started = await lanes({ log, db: pruning.db })
    await clock.runUntil(() => pruning.holding)
    const stopping = started.stop()
    pruning.release()
    await stopping
    expect(lines).toEqual([])
  })

  it('a Lane holding no rows sends nothing to the store at its stop', async () => {
    let queries = 0
    const db = failingWhen(store.db, () => (queries++, false))
    const started = await lanes({ db })
    await clock.runQuiet(10 * MIN)
    queries = 0
    await started.stop()
    expect(queries).toBe(0)
  })

  it('stops every Lane and the retention: nothing more is written', async () => {
    const started = await lanes()
    await clock.runQuiet(10 * MIN)
    await started.stop()
    const rows = (await rowsOf()).length
    await clock.runQuiet(2 * HOUR)
    expect((await rowsOf()).length).toBe(rows)
  })
})
