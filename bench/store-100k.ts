/**
 * The store's reads on the 100k library (bench/library.ts), each against a bare better-sqlite3 statement
 * reading the same rows in the same run:
 *   due-query-100k   the due query of a pass — the due Series it can check at the default pace, read in its order —
 *                    median over the 6 Sites ≤ 10 ms, and ≤ 2× a bare read of as many whole rows by an index
 *                    range of the same Site (the due figure, counted separately, is in the note)
 *   series-list-100k the owner's list: the slowest of page 1 (with its count), a page at offset 50,000, the page
 *                    after it (by key), the last page, a Site, every filter (with its count) — ≤ 20 ms
 *                    (baseline: a bare read of 200 rows by rowid); a search is in the note
 *   overview-100k    the Overview's counts ≤ 10 ms (baseline: a bare COUNT(*) of `series`)
 *   since-5k         a `since` read (changes and removals, each change's next chapter and unread count) of a Reader
 *                    with 5,000 bookmarks and 10 changes ≤ 5 ms
 *                    (baseline: the same 10 rows read by primary key)
 */
import BetterSqlite3 from 'better-sqlite3'
import { computeGap, dueBound } from '../src/main/lanes/decisions'
import { DEFAULT_PACE } from '../src/main/sites/site'
import { readerBookmarks, readerRemovals } from '../src/main/store/bookmarks'
import { readerChapterFacts } from '../src/main/store/chapters'
import { openStore, type Store } from '../src/main/store/database'
import { dueFigures, dueSeries, eligibleCount } from '../src/main/store/due'
import { listSeries, overviewCounts } from '../src/main/store/series-list'
import { SERIES_FILTERS } from '../src/shared/domain'
import { LIBRARY_AT, LIBRARY_SITES, libraryCopy, type Library } from './library'
import { median } from './processes'
import type { BenchResult } from './run'

const NOW = LIBRARY_AT.now
const HOUR = 3_600_000
const REST_CUTOFF = NOW - HOUR
const CEILING_CUTOFF = NOW - 24 * HOUR
const RUNS = 9

/** The median time of `runs` runs, after one to warm up. */
export async function timed(run: () => unknown, runs = RUNS): Promise<number> {
  await run()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const started = performance.now()
    await run()
    times.push(performance.now() - started)
  }
  return median(times)
}

async function withStore<T>(work: (store: Store, bare: BetterSqlite3.Database, lib: Library) => Promise<T>): Promise<T> {
  const copy = await libraryCopy()
  const store = openStore(copy.file, { now: NOW })
  const bare = new BetterSqlite3(copy.file, { readonly: true })
  try {
    return await work(store, bare, copy.library)
  } finally {
    bare.close()
    await store.close()
    copy.remove()
  }
}

const round = (n: number) => Math.round(n * 100) / 100

export function dueQuery100k(): Promise<BenchResult> {
  return withStore(async (store, bare) => {
    // As a pass asks, the fair share included (docs/adr/0081-one-reader-bounded.md).
    const cutoffs = {
      restCutoff: REST_CUTOFF,
      ceilingCutoff: CEILING_CUTOFF,
      restCapacity: Math.floor(DEFAULT_PACE.restMs / DEFAULT_PACE.minGapMs),
    }
    const app: number[] = []
    const base: number[] = []
    const counting: number[] = []
    const rows: number[] = []
    const due: number[] = []
    for (const site of LIBRARY_SITES) {
      const figures = await dueFigures(store.db, site, cutoffs)
      const limit = dueBound(DEFAULT_PACE, computeGap(DEFAULT_PACE, await eligibleCount(store.db, site)).gap)
      let returned = 0
      app.push(await timed(async () => (returned = (await dueSeries(store.db, site, cutoffs, limit, figures)).length)))
      counting.push(await timed(() => dueFigures(store.db, site, cutoffs)))
      const range = bare.prepare(
        'SELECT *, 0 AS forced FROM series INDEXED BY series_site_checked WHERE site = ? AND latest_checked_at <= ? LIMIT ?',
      )
      base.push(await timed(() => range.all(site, REST_CUTOFF, returned)))
      rows.push(returned)
      due.push(figures.due)
    }
    const value = median(app)
    const baseline = median(base)
    const ratio = value / baseline
    return {
      name: 'due-query-100k',
      value,
      unit: 'ms',
      baseline,
      ratio,
      target: 'value <= 10 ms, ratio <= 2',
      pass: value <= 10 && ratio <= 2,
      note: `returns ${median(rows)} of ${median(due)} due; the due figure ${round(median(counting))} ms more`,
    }
  })
}

export function seriesListStore100k(): Promise<BenchResult> {
  return withStore(async (store, bare) => {
    const staleBefore = CEILING_CUTOFF
    const afterMiddle = (await listSeries(store.db, { staleBefore, offset: 50_000, limit: 200, count: false })).next
    const cases: Array<[string, Parameters<typeof listSeries>[1]]> = [
      ['page 1', { staleBefore, offset: 0, limit: 200 }],
      ['offset 50,000', { staleBefore, offset: 50_000, limit: 200, count: false }],
      ['after offset 50,000', { staleBefore, offset: 50_200, limit: 200, count: false, ...(afterMiddle ? { after: afterMiddle } : {}) }],
      ['last page', { staleBefore, offset: 99_800, limit: 200, count: false }],
      ['a Site', { staleBefore, site: LIBRARY_SITES[2], offset: 0, limit: 200 }],
      ['a Site at offset 10,000', { staleBefore, site: LIBRARY_SITES[2], offset: 10_000, limit: 200, count: false }],
      ...SERIES_FILTERS.map((filter): [string, Parameters<typeof listSeries>[1]] => [
        filter,
        { staleBefore, filter, offset: 0, limit: 200 },
      ]),
    ]
    const times: Array<[string, number]> = []
    for (const [name, query] of cases) times.push([name, await timed(() => listSeries(store.db, query), 5)])
    const search = await timed(() => listSeries(store.db, { staleBefore, search: 'dragon', offset: 0, limit: 200 }), 5)
    const page = bare.prepare('SELECT * FROM series WHERE rowid > ? ORDER BY rowid LIMIT 200')
    const baseline = await timed(() => page.all(50_000))
    const [worstName, value] = times.reduce((a, b) => (b[1] > a[1] ? b : a))
    return {
      name: 'series-list-100k',
      value,
      unit: 'ms',
      baseline,
      ratio: value / baseline,
      target: 'value <= 20 ms',
      pass: value <= 20,
      note: `slowest: ${worstName}; ${times.map(([n, t]) => `${n} ${round(t)}`).join(', ')}; a search with its count ${round(search)}`,
    }
  })
}

export function overview100k(): Promise<BenchResult> {
  return withStore(async (store, bare) => {
    const count = bare.prepare('SELECT COUNT(*) FROM series')
    const staleBefore = { fallback: CEILING_CUTOFF, bySite: Object.fromEntries(LIBRARY_SITES.map((s) => [s, CEILING_CUTOFF])) }
    const value = await timed(() => overviewCounts(store.db, staleBefore))
    const baseline = await timed(() => count.get())
    return { name: 'overview-100k', value, unit: 'ms', baseline, ratio: value / baseline, target: 'value <= 10 ms', pass: value <= 10 }
  })
}

export function since5k(): Promise<BenchResult> {
  return withStore(async (store, bare, lib) => {
    const changed = await readerBookmarks(store.db, lib.bigReader.id, { since: lib.since })
    if (changed.length !== 10) throw new Error(`since-5k: expected 10 changes, read ${changed.length}`)
    const one = bare.prepare(
      `SELECT b.*, s.* FROM bookmarks b JOIN series s ON s.site = b.site AND s.series_id = b.series_id
       WHERE b.reader_id = ? AND b.site = ? AND b.series_id = ?`,
    )
    // As the route answers: each changed bookmark with its next chapter and unread count (docs/adr/0073).
    const value = await timed(async () => {
      await readerRemovals(store.db, lib.bigReader.id, lib.since)
      const rows = await readerBookmarks(store.db, lib.bigReader.id, { since: lib.since })
      await readerChapterFacts(
        store.db,
        lib.bigReader.id,
        rows.map((b) => ({ site: b.site, seriesId: b.series_id })),
      )
    })
    const baseline = await timed(() => changed.map((b) => one.get(lib.bigReader.id, b.site, b.series_id)))
    return { name: 'since-5k', value, unit: 'ms', baseline, ratio: value / baseline, target: 'value <= 5 ms', pass: value <= 5 }
  })
}
