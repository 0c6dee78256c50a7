/**
 * A pass whose due Series go while it works (docs/design.md#the-lane-pass): an Acquisition checks them, a
 * Reader drops them. A pass that passed over every Series it read reads the next ones due, a bounded number of
 * times, and its row counts what it found due — never fewer than it checked.
 *
 * The Series "go" for real: right after the pass reads them, the test stamps them on the real SQLite file as
 * an Acquisition would, before the pass re-reads each one just ahead of its request.
 */
import type { KyselyPlugin, QueryId } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BrowserHealth } from '../fetch/browser-health'
import { silentLog } from '../log'
import type { Site } from '../sites/site'
import type { Db } from '../store/database'
import type { DueSeries } from '../store/due'
import { FakeClock } from '../testing/clock'
import { FakeFetcher, testSite } from '../testing/fakes'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { SitePacer } from './pacer'
import { runPass, type PassResult } from './pass'

const MIN = 60_000

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

/**
 * A 1 min gap (a rest of one minute per eligible Series) and a maxPassMs of 2 min: a pass reads 3 due Series
 * (docs/adr/0050-the-due-query-reads-what-a-pass-can-use.md) and checks at most 2, at 0 and 1 min.
 */
const site = (eligible: number): Site =>
  testSite('a', { pace: { restMs: eligible * MIN, minGapMs: 1_000, maxPassMs: 2 * MIN, idleRequeryMs: 5 * MIN } })

/** `count` due Series s0, s1, … in the order a pass takes them (the oldest check first). */
async function seedDue(count: number): Promise<void> {
  for (let i = 0; i < count; i++) await seedSeries(store.db, { id: `s${i}`, checkedAt: i + 1, readers: [alice] })
}

/** Someone else checks a Series now (an Acquisition's stamp), on the connection itself: the pass holds it. */
const acquire = (id: string) =>
  store.sqlite.prepare(`UPDATE series SET latest_checked_at = ? WHERE site = 'a' AND series_id = ?`).run(clock.now(), id)
/** The owner presses Check now on a Series, as forceSeriesPoll does, on the connection itself. */
const pressCheckNow = (id: string) =>
  store.sqlite
    .prepare(`UPDATE series SET force_poll_at = MAX(?, latest_checked_at + 1) WHERE site = 'a' AND series_id = ?`)
    .run(clock.now(), id)

/**
 * The store, but after each read of due Series (the `n`th, from 0), the Series `goes(n, id)` picks are checked
 * at once by someone else, so the pass finds them no longer due at their turn. `afterRead(n)` runs once the
 * goers are stamped. Both write synchronously: the read still holds Kysely's one connection.
 */
function acquiredAsRead(
  goes: (n: number, id: string) => boolean,
  afterRead?: (n: number) => void,
  beforeRead?: (n: number) => void,
): { db: Db; reads: () => number } {
  const dueReads = new Set<QueryId>()
  let reads = 0
  const plugin: KyselyPlugin = {
    transformQuery(args) {
      if (JSON.stringify(args.node).includes('SELECT s.*')) {
        dueReads.add(args.queryId)
        beforeRead?.(reads)
      }
      return args.node
    },
    transformResult: async (args) => {
      if (!dueReads.delete(args.queryId)) return args.result
      const n = reads++
      for (const row of args.result.rows as unknown as DueSeries[]) {
        if (goes(n, row.series_id)) acquire(row.series_id)
      }
      afterRead?.(n)
      return args.result
    },
  }
  return { db: store.db.withPlugin(plugin), reads: () => reads }
}

/** The store, but `action` runs right after the pass counts its due Series, before it reads them. */
function afterCount(action: () => void): Db {
  const counts = new Set<QueryId>()
  return store.db.withPlugin({
    transformQuery(args) {
      if (JSON.stringify(args.node).includes('COUNT(*) AS due')) counts.add(args.queryId)
      return args.node
    },
    transformResult: async (args) => {
      if (counts.delete(args.queryId)) action()
      return args.result
    },
  })
}

/** Runs one pass on `db`, moving the fake clock through its gap waits. */
async function pass(db: Db, ofSite: Site): Promise<PassResult & { requested: string[] }> {
  let result: PassResult | undefined
  const running = runPass(
    { db, site: ofSite, fetchers: { http }, health: new BrowserHealth(clock), pacer: new SitePacer(clock), clock, log: silentLog },
    new AbortController().signal,
  ).then((r) => (result = r))
  await clock.runUntil(() => result !== undefined)
  await running
  return { ...result!, requested: http.calls.map((c) => c.url.split('/').at(-1)!) }
}

describe('a pass whose due Series go while it works', () => {
  it('Series that go as fast as the pass reads them: it reads three more times at most, then goes straight on', async () => {
    await seedDue(20)
    const { db } = acquiredAsRead(() => true)
    const result = await pass(db, site(20))
    // Four reads of three Series, all gone: the row counts the eight still due, and the Lane goes straight on.
    expect(result.requested).toEqual([])
    expect(result.row).toMatchObject({ skip: '', due: 8, checked: 0 })
    expect(result.sleepMs).toBe(0)
  })

  it('the first two read go and the third is checked: the pass reads no more, before or after checking it', async () => {
    await seedDue(6)
    const { db, reads } = acquiredAsRead((n, id) => n === 0 && id !== 's2')
    const result = await pass(db, site(6))
    // Had it read more when the first two went, it would have had a 1 min slot left for s3.
    expect(result.requested).toEqual(['s2'])
    expect(reads()).toBe(1)
    expect(result.row).toMatchObject({ skip: '', due: 4, checked: 1 })
    // Three Series left due that it never read: straight on to the next pass.
    expect(result.sleepMs).toBe(0)
  })

  it('a Series checked before the rest went: no more are read, the row counts the ones left', async () => {
    await seedDue(6)
    const { db, reads } = acquiredAsRead((n, id) => n === 0 && id !== 's0')
    const result = await pass(db, site(6))
    expect(result.requested).toEqual(['s0'])
    expect(reads()).toBe(1)
    expect(result.row).toMatchObject({ skip: '', due: 4, checked: 1 })
    expect(result.sleepMs).toBe(0)
  })

  it('the first and the last read go: the one between is checked, and no more are read', async () => {
    await seedDue(6)
    const { db, reads } = acquiredAsRead((n, id) => n === 0 && id !== 's1')
    const result = await pass(db, site(6))
    expect(result.requested).toEqual(['s1'])
    expect(reads()).toBe(1)
  })

  it('all it read went and it had read every Series due: a Series pressed Check now meanwhile waits for the next pass', async () => {
    await seedDue(2)
    await seedSeries(store.db, { id: 'fresh', checkedAt: clock.now(), readers: [alice] })
    const { db } = acquiredAsRead(
      () => true,
      (n) => n === 0 && pressCheckNow('fresh'),
    )
    const result = await pass(db, site(3))
    expect(result.requested).toEqual([])
    expect(result.row).toMatchObject({ skip: '', due: 0, checked: 0 })
    // Nothing left due that it counted, nothing sent: the idle re-query, which serves the Check now.
    expect(result.sleepMs).toBe(5 * MIN)
  })

  it('a read of more Series that came due after the count: the row counts them, never fewer due than checked', async () => {
    await seedDue(4)
    for (const id of ['p', 'q']) await seedSeries(store.db, { id, checkedAt: clock.now(), readers: [alice] })
    // The first three read go; meanwhile p and q are pressed Check now. The next read takes p, q and s3.
    const { db } = acquiredAsRead(
      (n) => n === 0,
      (n) => {
        if (n === 0) for (const id of ['p', 'q']) pressCheckNow(id)
      },
    )
    const result = await pass(db, site(6))
    expect(result.requested).toEqual(['p', 'q'])
    // p, q and s3 were due when it read them; it checked two before maxPassMs.
    expect(result.row).toMatchObject({ skip: '', due: 3, checked: 2 })
    expect(result.sleepMs).toBe(0)
  })

  it('a Series passed over and pressed Check now before the pass reads more is taken again, first', async () => {
    await seedDue(6)
    // The first three read go; s0 is pressed Check now just before the read of more.
    const { db } = acquiredAsRead(
      (n) => n === 0,
      undefined,
      (n) => n === 1 && pressCheckNow('s0'),
    )
    const result = await pass(db, site(6))
    expect(result.requested).toEqual(['s0', 's3'])
    expect(result.row).toMatchObject({ skip: '', due: 3, checked: 2 })
  })

  it('all it read went, and so did every other Series counted due: the row counts none due, not a stall', async () => {
    await seedDue(5)
    // The count says 5; the pass reads s0–s2. They go as it reads them, and s3 and s4 go too (an Acquisition
    // each) before it reads more: the read of more finds nothing due.
    const { db } = acquiredAsRead(
      (n) => n === 0,
      (n) => {
        if (n === 0) for (const id of ['s3', 's4']) acquire(id)
      },
    )
    const result = await pass(db, site(5))
    expect(result.requested).toEqual([])
    // Not "due 2, checked 0": nothing is due, and the Lane idles.
    expect(result.row).toMatchObject({ skip: '', due: 0, checked: 0 })
    expect(result.sleepMs).toBe(5 * MIN)
  })

  it('a read of more Series that fails: the due-query skip, nothing sent, not a row that reads as a stall', async () => {
    await seedDue(6)
    let reads = 0
    const gone = acquiredAsRead((n) => n === 0)
    const failing = gone.db.withPlugin({
      transformQuery(args) {
        // The third due query of the pass: the count, the first read, then the read of more.
        if (JSON.stringify(args.node).includes('AS forced') && ++reads === 3) throw new Error('injected failure')
        return args.node
      },
      transformResult: async (args) => args.result,
    })
    const result = await pass(failing, site(6))
    expect(result.requested).toEqual([])
    expect(result.row).toMatchObject({ skip: 'due-query', due: 3, checked: 0 })
  })
})

describe('a Series that comes or goes between the count and the read', () => {
  it('checked by an Acquisition in between: the row counts what the read found, and the Lane idles', async () => {
    // Off the host pin, so the check sends nothing and the sleep shows whether the pass thinks more are due.
    for (const id of ['s0', 's1'])
      await seedSeries(store.db, { id, checkedAt: 1, readers: [alice], url: `https://elsewhere.example/${id}` })
    const result = await pass(
      afterCount(() => acquire('s1')),
      site(2),
    )
    // Not 2 due with 1 checked, nor straight on to a pass that would find nothing.
    expect(result.row).toMatchObject({ skip: '', due: 1, checked: 1, unfetchable: 1 })
    expect(result.sleepMs).toBe(5 * MIN)
  })

  it('bookmarked in between: checked, and counted due', async () => {
    await seedDue(2)
    await seedSeries(store.db, { id: 'fresh', readers: [] })
    // A 1 min gap and maxPassMs 2.5 min: a pass reads 4 and checks 3.
    const roomier = testSite('a', { pace: { restMs: 3 * MIN, minGapMs: 1_000, maxPassMs: 2.5 * MIN, idleRequeryMs: 5 * MIN } })
    const bookmark = () =>
      store.sqlite
        .prepare(
          `INSERT INTO bookmarks (reader_id, site, series_id, progress, created_at, updated_at) VALUES (?, 'a', 'fresh', NULL, 1, 1)`,
        )
        .run(alice)
    const result = await pass(afterCount(bookmark), roomier)
    expect(result.requested).toEqual(['fresh', 's0', 's1'])
    expect(result.row).toMatchObject({ skip: '', due: 3, checked: 3 })
  })
})
