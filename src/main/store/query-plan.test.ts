import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openStore } from './database'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
// Imported with the file, not inside a test: a module first loaded inside a test makes its constants "hybrid" mutants,
// which Stryker 9.6.1 can never kill (docs/mutation.md#static-and-hybrid-mutants).
import { pruneRemovals, readerBookmarks, readerRemovals } from './bookmarks'
import { dueFigures, dueSeries, eligibleCount } from './due'
import { laneRow } from './lanes'
import { pruneJudgedSightings } from './maintenance'
import { latestPassPerSite, prunePasses } from './passes'
import { markLatestChecked, pruneOrphanSeries, stillDue } from './series'
import { listSeries, overviewCounts, recentFailures } from './series-list'

/**
 * The plans the shipped database uses for every read that grows with the library — in the states a database
 * is shipped in: grown since it was last analysed (the statistics of an almost empty file), analysed as the app
 * analyses it (`PRAGMA optimize` at open), and with the statistics the app gives a library of 100,000 Series. None reads `series`, `bookmarks`, `sightings` or
 * `poll_passes` whole. The SQL is taken from the store's own functions by running them against a spy.
 */
let store: TestStore
let alice: number
const NOW = 10_000_000
const HOUR = 3_600_000

beforeEach(async () => {
  store = openTestStore()
  alice = await seedReader(store.db, 'alice')
  const bob = await seedReader(store.db, 'bob')
  // Three Sites of 300 Series: every state the list filters by, a few due, most not.
  await store.db.transaction().execute(async (trx) => {
    for (let i = 0; i < 900; i++) {
      await seedSeries(trx, {
        id: `s${i}`,
        site: `site${i % 3}`,
        title: `Series ${(i * 7919) % 900}`,
        checkedAt: i % 50 === 0 ? 0 : NOW - (i % 4 === 0 ? 2 * HOUR : 10 * 60_000) - i,
        ...(i % 97 === 0 ? { forcedAt: NOW } : {}),
        ...(i % 31 === 0 ? { finishedAt: 5 } : {}),
        ...(i % 89 === 0 ? { url: '' } : {}),
        readers: i % 23 === 0 ? [] : i % 5 === 0 ? [alice, bob] : [alice],
      })
    }
  })
  const pass = store.sqlite.prepare(
    "INSERT INTO poll_passes (site, started_at, ended_at, skip, due, gap, clamped, checked, refused, unreachable, no_chapter, unfetchable, errors) VALUES (?, ?, ?, '', 1, 1, 0, 1, 0, 0, 0, 0, 0)",
  )
  for (let i = 0; i < 300; i++) pass.run(`site${i % 3}`, i, i)
  for (const site of ['site0', 'site1', 'site2']) store.sqlite.prepare('INSERT OR IGNORE INTO poll_lanes (site) VALUES (?)').run(site)
})
afterEach(() => store.dispose())

/** Runs `fn` with the store's connection and returns the plan of every statement it ran. */
async function plansOf(fn: () => Promise<unknown>): Promise<string> {
  const seen: Array<{ sql: string; params: unknown[] }> = []
  const prepare = store.sqlite.prepare.bind(store.sqlite)
  store.sqlite.prepare = ((source: string) => {
    const statement = prepare(source)
    for (const method of ['all', 'get', 'run'] as const) {
      const original = (statement[method] as (...params: unknown[]) => unknown).bind(statement)
      ;(statement as unknown as Record<string, unknown>)[method] = (...params: unknown[]) => {
        seen.push({ sql: source, params })
        return original(...params)
      }
    }
    return statement
  }) as typeof store.sqlite.prepare
  try {
    await fn()
  } finally {
    store.sqlite.prepare = prepare
  }
  return seen
    .filter(({ sql }) => !/^(begin|commit|rollback|pragma)/i.test(sql.trim()))
    .map(({ sql: source, params }) =>
      (store.sqlite.prepare(`EXPLAIN QUERY PLAN ${source}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail).join('\n'),
    )
    .join('\n')
}

const aliases: Record<string, string> = { s: 'series', b: 'bookmarks', p: 'poll_passes', l: 'poll_lanes', c: 'series', h: 'bookmarks' }
const GUARDED = ['series', 'bookmarks', 'poll_passes', 'sightings']

/** The tables a plan reads whole: a SCAN of the table itself, not of one of its indexes. */
function scannedWhole(plan: string): string[] {
  return plan
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^SCAN \w+$/.test(line) || /^SCAN \w+ USING (?!.*INDEX)/.test(line))
    .map((line) => aliases[line.split(' ')[1]!] ?? line.split(' ')[1]!)
    .filter((table) => GUARDED.includes(table))
}

/**
 * The statistics `PRAGMA optimize` gives the 100k library of `npm run bench` (bench/library.ts) at open: with
 * them the planner chooses as it does for a large household.
 */
const LIBRARY_100K_STATS: Array<[table: string, index: string, stat: string]> = [
  ['bookmarks', 'bookmarks_reader_updated', '300000 1334 1'],
  ['bookmarks', 'bookmarks_series', '300000 2001 4'],
  ['bookmarks', 'sqlite_autoindex_bookmarks_1', '300000 1334 334 1'],
  ['series', 'series_changed', '100000 2 2 1'],
  ['series', 'series_checked', '100000 2 2 1'],
  ['series', 'series_due', '98013 2001 1 1 1 1 1 1 1'],
  ['series', 'series_due_order', '98013 2001 115 1 1 1 1 1 1'],
  ['series', 'series_failed', '0 0 0'],
  ['series', 'series_finished', '2985 1 1 1'],
  ['series', 'series_no_url', '506 1 1 1'],
  ['series', 'series_orphan', '1987 1 1 1'],
  ['series', 'series_pending', '50 1 1 1'],
  ['series', 'series_site_checked', '100000 2001 1'],
  ['series', 'series_site_title', '100000 2001 1 1'],
  ['series', 'series_title', '100000 1 1 1'],
  ['series', 'series_unchecked', '968 1 1 1'],
  ['series', 'sqlite_autoindex_series_1', '100000 2001 1'],
  ['series_counts', 'sqlite_autoindex_series_counts_1', '6 1'],
]

const STATES = [
  ['grown since it was last analysed', async () => undefined],
  [
    'analysed as the app analyses it at open',
    async () => {
      const file = store.file
      await store.close()
      const reopened = openStore(file, { now: NOW })
      Object.assign(store, { db: reopened.db, sqlite: reopened.sqlite, close: reopened.close })
    },
  ],
  [
    'analysed as the app analyses a library of 100,000 Series',
    async () => {
      store.sqlite.exec('ANALYZE')
      store.sqlite.exec('DELETE FROM sqlite_stat1')
      // The samples of this small file would contradict the 100k statistics.
      if (store.sqlite.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat4'").get())
        store.sqlite.exec('DELETE FROM sqlite_stat4')
      const row = store.sqlite.prepare('INSERT INTO sqlite_stat1 (tbl, idx, stat) VALUES (?, ?, ?)')
      for (const [table, index, stat] of LIBRARY_100K_STATS) row.run(table, index, stat)
      // Makes the planner read the statistics again.
      store.sqlite.exec('ANALYZE sqlite_schema')
    },
  ],
] as const

describe.each(STATES)('query plans of a database %s', (_state, settle) => {
  beforeEach(async () => {
    await settle()
  })

  const cutoffs = { restCutoff: NOW - HOUR, ceilingCutoff: NOW - 24 * HOUR }

  it('the due figure counts the due range of series_due and the small index of pending Series, reading no row', async () => {
    const plan = await plansOf(() => dueFigures(store.db, 'site1', cutoffs))
    expect(plan).toMatch(/SEARCH s USING COVERING INDEX series_due \(site=\? AND latest_checked_at<\?\)/)
    expect(plan).toMatch(/SCAN s USING INDEX series_pending/)
    expect(scannedWhole(plan)).toEqual([])
  })

  it('the due query reads a few due Series in order from series_due_order, or sorts a short due range', async () => {
    const walk = await plansOf(() => dueSeries(store.db, 'site1', cutoffs, 2, { due: 100, forced: 0 }))
    expect(walk).toMatch(/SEARCH s USING INDEX series_due_order \(site=\?/)
    expect(walk).not.toMatch(/TEMP B-TREE/)
    const sorted = await plansOf(() => dueSeries(store.db, 'site1', cutoffs, 10, { due: 3, forced: 0 }))
    expect(sorted).toMatch(/SEARCH s USING INDEX series_due \(site=\? AND latest_checked_at<\?\)/)
    expect(scannedWhole(walk + sorted)).toEqual([])
  })

  it("an adaptive Site's due figure and due query read the two ranges of series_planned (or walk series_due_order), reading no row for the figure", async () => {
    const { dueFigures, dueSeries } = await import('./due')
    const planned = { ...cutoffs, plannedBy: NOW }
    const figures = await plansOf(() => dueFigures(store.db, 'site1', planned))
    expect(figures).toMatch(/SEARCH s USING COVERING INDEX series_planned \(site=\? AND next_check_at>\? AND next_check_at<\?\)/)
    expect(figures).toMatch(/SEARCH s USING COVERING INDEX series_planned \(site=\? AND next_check_at=\? AND latest_checked_at<\?\)/)
    const sorted = await plansOf(() => dueSeries(store.db, 'site1', planned, 10, { due: 3, forced: 0 }))
    expect(sorted).toMatch(/SEARCH s USING INDEX series_planned \(site=\? AND next_check_at>\? AND next_check_at<\?\)/)
    const walk = await plansOf(() => dueSeries(store.db, 'site1', planned, 2, { due: 100, forced: 0 }))
    expect(walk).toMatch(/SEARCH s USING INDEX series_due_order \(site=\?/)
    expect(walk).not.toMatch(/TEMP B-TREE/)
    expect(scannedWhole(figures + sorted + walk)).toEqual([])
  })

  it('the eligible count is one row of series_counts', async () => {
    const plan = await plansOf(() => eligibleCount(store.db, 'site1'))
    expect(plan).toBe('SEARCH series_counts USING INDEX sqlite_autoindex_series_counts_1 (site=?)')
  })

  it("a check's reads and writes go by primary key", async () => {
    const key = { site: 'site1', seriesId: 's1' }
    const plan = await plansOf(async () => {
      await laneRow(store.db, 'site1')
      await stillDue(store.db, key, 0)
      await markLatestChecked(store.db, key, NOW)
    })
    expect(plan).toMatch(/SEARCH poll_lanes USING INDEX sqlite_autoindex_poll_lanes_1 \(site=\?\)/)
    expect(plan.match(/SEARCH series USING INDEX sqlite_autoindex_series_1 \(site=\? AND series_id=\?\)/g)).toHaveLength(2)
    expect(scannedWhole(plan)).toEqual([])
  })

  it("the owner's list pages through the index of its order, by key or by Site, and each filter through its own", async () => {
    const page = (q: Partial<Parameters<typeof listSeries>[1]>) =>
      plansOf(() => listSeries(store.db, { staleBefore: NOW - 24 * HOUR, limit: 10, ...q }))
    let next: string | undefined
    const first = await plansOf(async () => (next = (await listSeries(store.db, { staleBefore: 0, limit: 10, count: false })).next))
    expect(first).toMatch(/^SCAN s USING INDEX series_title$/)
    expect(await page({ count: false, after: next! })).toMatch(/SEARCH s USING INDEX series_title \(title>\?\)/)
    expect(await page({ site: 'site2' })).toMatch(/SEARCH s USING INDEX series_site_title \(site=\?\)/)
    for (const [filter, index] of [
      ['unchecked', 'series_unchecked'],
      ['pending', 'series_pending'],
      ['finished', 'series_finished'],
      ['orphan', 'series_orphan'],
      ['no-url', 'series_no_url'],
    ] as const) {
      const plan = await page({ filter })
      expect(plan, filter).toMatch(new RegExp(`SCAN s USING (COVERING )?INDEX ${index}`))
      expect(scannedWhole(plan), filter).toEqual([])
    }
    const stale = await page({ filter: 'stale', staleBefore: NOW - HOUR })
    expect(stale).toMatch(
      /SEARCH (s|series) USING (COVERING )?INDEX series_site_checked \(site=\? AND latest_checked_at>\? AND latest_checked_at<\?\)/,
    )
    expect(scannedWhole(stale)).toEqual([])
    // New Chapters: counted and (when few) read in the latest change's index (many: series-list-order.test.ts).
    const fewNew = await page({ filter: 'new', newSince: NOW - HOUR })
    expect(fewNew).toMatch(/SEARCH s USING (COVERING )?INDEX series_changed \(latest_changed_at>\?\)/)
    expect(scannedWhole(fewNew)).toEqual([])
  })

  it("the Overview's counts read the per-Site counts and the small indexes, never the table", async () => {
    const plan = await plansOf(() => overviewCounts(store.db, NOW - HOUR))
    for (const index of [
      'series_unchecked',
      'series_pending',
      'series_orphan',
      'series_no_url',
      'series_finished',
      'series_site_checked',
    ]) {
      expect(plan, index).toMatch(new RegExp(`INDEX ${index}`))
    }
    expect(plan).toMatch(/SCAN series_counts/)
    expect(scannedWhole(plan)).toEqual([])
  })

  it("a since read takes the Reader's changed bookmarks and moved Series from their indexes, and removals from theirs", async () => {
    const plan = await plansOf(async () => {
      await readerBookmarks(store.db, alice, { since: NOW })
      await readerRemovals(store.db, alice, NOW)
    })
    expect(plan).toMatch(/SEARCH bookmarks USING INDEX bookmarks_reader_updated \(reader_id=\? AND updated_at>\?\)/)
    expect(plan).toMatch(/SEARCH c USING COVERING INDEX series_changed \(latest_changed_at>\?\)/)
    expect(plan).toMatch(/SEARCH b USING INDEX sqlite_autoindex_bookmarks_1 \(reader_id=\? AND site=\? AND series_id=\?\)/)
    expect(plan).toMatch(/SEARCH bookmark_removals USING (COVERING )?INDEX bookmark_removals_since \(reader_id=\? AND removed_at>\?\)/)
    expect(scannedWhole(plan)).toEqual([])
  })

  it('latestPassPerSite seeks poll_passes by (site, id); the Lanes page reads failures from their index', async () => {
    const plan = await plansOf(async () => {
      await latestPassPerSite(store.db)
      await recentFailures(store.db, 'site1', 5)
    })
    expect(plan).toMatch(/SEARCH poll_passes USING COVERING INDEX poll_passes_site_id \(site=\?\)/)
    expect(plan).toMatch(/SEARCH p USING INTEGER PRIMARY KEY/)
    expect(plan).toMatch(/SEARCH series USING INDEX series_failed \(site=\?\)/)
    expect(scannedWhole(plan)).toEqual([])
  })

  it('retention deletes through the index of what it deletes', async () => {
    const plan = await plansOf(async () => {
      await pruneOrphanSeries(store.db, 0)
      await pruneJudgedSightings(store.db, 0)
      await pruneRemovals(store.db, 0)
      await prunePasses(store.db, 0)
    })
    expect(plan).toMatch(/SCAN series USING INDEX series_orphan/)
    expect(plan).toMatch(/SEARCH sightings USING INDEX sightings_judged \(judged_at<\?\)/)
    expect(plan).toMatch(/SEARCH bookmark_removals USING (COVERING )?INDEX bookmark_removals_at \(removed_at<\?\)/)
    expect(plan).toMatch(/SEARCH poll_passes USING (COVERING )?INDEX poll_passes_ended \(ended_at<\?\)/)
    expect(plan).toMatch(/SEARCH p USING (COVERING )?INDEX poll_passes_site_id \(site=\?\)/)
    expect(scannedWhole(plan)).toEqual([])
  })
})
