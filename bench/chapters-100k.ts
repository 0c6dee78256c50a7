/**
 * Chapter lists on the 100k library (docs/adr/0072-chapter-lists-kept-in-a-window.md): every Series' list stored as
 * a check of bench/site-server.ts stores it (the page lists min(80, latest) chapters, 69.5 on average; the window
 * keeps them all), once per run, then:
 *   chapters-100k                the database's growth, in MB (baseline: the library without lists) ≤ 1,000 MB
 *   chapters-100k-check-overhead check-overhead (bench/check-overhead.ts) with the lists stored: every check the
 *                                steady state, its list read and compared, nothing written — ratio ≤ 1.2
 *   chapters-100k-full-sync      a full sync of the Reader with 5,000 bookmarks: the bookmarks and, for each, its
 *                                next chapter and unread count (baseline: the bookmarks alone, as before the lists) —
 *                                ratio ≤ 2
 *   chapters-100k-since          since-5k with each changed bookmark's next chapter and unread count ≤ 5 ms
 */
import { copyFileSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import BetterSqlite3 from 'better-sqlite3'
import { readerBookmarks, readerRemovals } from '../src/main/store/bookmarks'
import { readerChapterFacts } from '../src/main/store/chapters'
import { openStore, STORE_FILE } from '../src/main/store/database'
import { checkOverhead } from './check-overhead'
import { LIBRARY_AT, libraryCopy } from './library'
import type { BenchResult } from './run'
import { timed } from './store-100k'

const DAY = 86_400_000

/** The size of a database file once its WAL is folded in. */
function fileMb(file: string): number {
  const db = new BetterSqlite3(file)
  db.pragma('wal_checkpoint(TRUNCATE)')
  db.close()
  return statSync(file).size / 1024 / 1024
}

/**
 * Stores every Series' chapter list as its page lists it, with the page's origin (bench/site-server.ts is given
 * the library's origin, so the links match). Returns how many rows.
 */
function storeLists(file: string): number {
  const db = new BetterSqlite3(file)
  db.pragma('synchronous = OFF')
  const series = db
    .prepare('SELECT site, series_id, series_url, latest_chapter FROM series WHERE latest_chapter IS NOT NULL')
    .all() as Array<{
    site: string
    series_id: string
    series_url: string
    latest_chapter: number
  }>
  const insert = db.prepare(
    'INSERT INTO chapters (site, series_id, number, label, url, released_at, first_seen_at, arrived) VALUES (?, ?, ?, ?, ?, ?, ?, 0)',
  )
  let rows = 0
  db.transaction(() => {
    for (const s of series) {
      for (let n = s.latest_chapter; n > Math.max(0, s.latest_chapter - 80); n--) {
        // The page prints "March D, 2024": the day the adapter reads (UTC).
        insert.run(
          s.site,
          s.series_id,
          n,
          `Chapter ${n}`,
          `${s.series_url}chapter-${n}/`,
          Date.UTC(2024, 2, 1 + (n % 28)),
          LIBRARY_AT.now - DAY,
        )
        rows++
      }
    }
  })()
  db.close()
  return rows
}

let prepared: Promise<{ file: string; rows: number; before: number; after: number }> | undefined

/** The library with its lists, made once per run; never opened by a bench, only copied. */
function withLists(): Promise<{ file: string; rows: number; before: number; after: number }> {
  prepared ??= (async () => {
    const copy = await libraryCopy()
    const dir = mkdtempSync(join(tmpdir(), 'mb-bench-chapters-'))
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }))
    const file = join(dir, 'library.sqlite')
    copyFileSync(copy.file, file)
    copy.remove()
    const before = fileMb(file)
    process.stderr.write('bench: storing the chapter lists of 100k Series…\n')
    const rows = storeLists(file)
    return { file, rows, before, after: fileMb(file) }
  })()
  return prepared
}

export async function chapters100k(): Promise<BenchResult> {
  const { rows, before, after } = await withLists()
  const value = after - before
  return {
    name: 'chapters-100k',
    value,
    unit: 'MB',
    baseline: before,
    ratio: after / before,
    target: 'value <= 1000 MB',
    pass: value <= 1000,
    note: `${rows} chapter rows, ${Math.round(((after - before) * 1024 * 1024) / rows)} bytes each; the library ${Math.round(before)} → ${Math.round(after)} MB`,
  }
}

export async function chapters100kCheckOverhead(): Promise<BenchResult> {
  // The lists stored with the links of this run's page server, so every check is the steady state.
  const result = await checkOverhead({ prepare: (file) => void storeLists(file), maxRatio: 1.2 })
  return { ...result, name: 'chapters-100k-check-overhead' }
}

/** Runs `work` on a copy of the library with its lists. */
async function onLists<T>(work: (store: ReturnType<typeof openStore>, reader: number, since: number) => Promise<T>): Promise<T> {
  const { file } = await withLists()
  const copy = await libraryCopy()
  copyFileSync(file, join(copy.dir, STORE_FILE))
  const store = openStore(join(copy.dir, STORE_FILE), { now: LIBRARY_AT.now })
  try {
    return await work(store, copy.library.bigReader.id, copy.library.since)
  } finally {
    await store.close()
    copy.remove()
  }
}

export function chapters100kFullSync(): Promise<BenchResult> {
  return onLists(async (store, reader) => {
    const facts = await readerChapterFacts(store.db, reader)
    if (facts.size !== 5_000) throw new Error(`chapters-100k-full-sync: expected 5,000 bookmarks, read ${facts.size}`)
    const value = await timed(async () => {
      await readerBookmarks(store.db, reader)
      await readerChapterFacts(store.db, reader)
    })
    const baseline = await timed(() => readerBookmarks(store.db, reader))
    return {
      name: 'chapters-100k-full-sync',
      value,
      unit: 'ms',
      baseline,
      ratio: value / baseline,
      target: 'ratio <= 2',
      pass: value / baseline <= 2,
      note: 'baseline: the bookmarks alone, as before chapter lists',
    }
  })
}

export function chapters100kSince(): Promise<BenchResult> {
  return onLists(async (store, reader, since) => {
    const read = async () => {
      await readerRemovals(store.db, reader, since)
      const changed = await readerBookmarks(store.db, reader, { since })
      await readerChapterFacts(
        store.db,
        reader,
        changed.map((b) => ({ site: b.site, seriesId: b.series_id })),
      )
      return changed
    }
    if ((await read()).length !== 10) throw new Error('chapters-100k-since: expected 10 changes')
    const value = await timed(read)
    const baseline = await timed(async () => {
      await readerRemovals(store.db, reader, since)
      await readerBookmarks(store.db, reader, { since })
    })
    return {
      name: 'chapters-100k-since',
      value,
      unit: 'ms',
      baseline,
      ratio: value / baseline,
      target: 'value <= 5 ms',
      pass: value <= 5,
      note: 'baseline: since-5k as before chapter lists',
    }
  })
}
