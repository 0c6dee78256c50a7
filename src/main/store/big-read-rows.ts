/**
 * The rows of a big read, one at a time (docs/adr/0176-big-reads-streamed.md): a Reader's bookmarks with their
 * Series (and chapter facts) in title order, the library's Series and each Reader's bookmarks in key order. Each
 * is one statement stepped row by row, so a caller that writes each row out as it comes holds one row, not the
 * list. Run inside the caller's transaction (one snapshot); nothing else may use the connection meanwhile. Given
 * the better-sqlite3 connection under the Kysely one (`Rows.sqlite`), rows are stepped on it directly: Kysely's
 * stream costs ~7 µs a row (1.1 s of a 150,000-bookmark full sync).
 */
import type BetterSqlite3 from 'better-sqlite3'
import { sql, type Compilable, type CompiledQuery } from 'kysely'
import type { Db } from './database'
import { isUnread, type ReaderBookmark } from './bookmarks'
import { CHAPTER_FACTS, chapterFacts, type ChapterFacts, type ChapterFactsColumns } from './chapters'
import type { BookmarkRow, SeriesRow } from './schema'

/** Where a big read's rows come from: the Kysely connection (inside its transaction), and the one under it if known. */
export interface Rows {
  db: Db
  sqlite?: BetterSqlite3.Database
}

/** A query's rows, one at a time: stepped on the bare connection when there is one, else Kysely's stream. */
function stepped<R>(rows: Rows, query: Compilable<R> & { stream(): AsyncIterableIterator<R> }): Iterable<R> | AsyncIterable<R> {
  if (!rows.sqlite) return query.stream()
  const compiled = query.compile()
  return rows.sqlite.prepare(compiled.sql).iterate(...compiled.parameters) as Iterable<R>
}

/**
 * A Reader's bookmarks in the order readerBookmarks gives them (title, Site, id), each with its chapter facts and
 * its Series read as columns (no JSON made and parsed again for each row). Read by the Reader's key and sorted by
 * title: each row's facts are read in key order, near the last, then sorted; read in a title index's order they
 * cost twice the CPU, and saved no memory (docs/adr/0207-big-read-title-order-stays-a-sort.md).
 */
export async function readerBookmarkRows(
  rows: Rows,
  readerId: number,
): Promise<Iterable<ReaderBookmarkFacts> | AsyncIterable<ReaderBookmarkFacts>> {
  const query = readerBookmarkQuery(rows.db, readerId)
  if (!rows.sqlite) {
    const found = (await rows.db.executeQuery<ReaderBookmarkColumns>(query)).rows
    if (found.length === 0) return []
    const build = readerBookmarkFacts(Object.keys(found[0] ?? {}))
    return found.map((row) => build(Object.values(row)))
  }
  // Each row as an array (no object with 30 named keys made for each, then read once): ~a third of the stepping.
  const statement = rows.sqlite.prepare(query.sql).raw(true)
  const build = readerBookmarkFacts(statement.columns().map((c) => c.name))
  return mapSync(statement.iterate(...query.parameters) as Iterable<unknown[]>, build)
}

/** The Series' columns a ReaderBookmark carries (those SERIES_JSON holds), each as `s_<name>`. */
const SERIES_FIELDS = [
  'title',
  'series_url',
  'latest_chapter',
  'latest_chapter_label',
  'latest_chapter_url',
  'latest_source',
  'latest_changed_at',
  'latest_checked_at',
  'latest_sighted_at',
  'force_poll_at',
  'finished_at',
  'created_at',
  'rhythm',
  'rhythm_misses',
  'gone_checks',
  'gone_since',
  'gone_status',
] as const
type SeriesColumns = { [K in (typeof SERIES_FIELDS)[number] as `s_${K}`]: SeriesRow[K] }
type ReaderBookmarkColumns = BookmarkRow & SeriesColumns & ChapterFactsColumns
const BOOKMARK_FIELDS = ['reader_id', 'site', 'series_id', 'status', 'progress', 'progress_at', 'created_at', 'updated_at'] as const
const COLUMNS: ReadonlyArray<keyof ReaderBookmarkColumns> = [
  ...BOOKMARK_FIELDS,
  ...SERIES_FIELDS.map((f) => `s_${f}` as const),
  'facts_next',
  'facts_lowest',
  'facts_highest',
]

/** The statement readerBookmarkRows steps. */
export function readerBookmarkQuery(db: Db, readerId: number): CompiledQuery {
  const series = sql.raw(SERIES_FIELDS.map((f) => `s.${f} AS s_${f}`).join(', '))
  return sql`SELECT b.*, ${series}, ${CHAPTER_FACTS.facts_next} AS facts_next, ${CHAPTER_FACTS.facts_lowest} AS facts_lowest,
      ${CHAPTER_FACTS.facts_highest} AS facts_highest
    FROM bookmarks b JOIN series s ON s.site = b.site AND s.series_id = b.series_id
    WHERE b.reader_id = ${readerId}
    ORDER BY s.title, b.site, b.series_id`.compile(db)
}

/** A row of readerBookmarkQuery as readerBookmarks shows it (its Series with SERIES_JSON's fields, in its order). */
function readerBookmarkFacts(names: readonly string[]): (row: unknown[]) => ReaderBookmarkFacts {
  const index = new Map(names.map((name, i) => [name, i]))
  const at = (name: keyof ReaderBookmarkColumns) => {
    const place = index.get(name)
    if (place === undefined) throw new Error(`big read: the statement has no column ${name}`)
    return place
  }
  const i = Object.fromEntries(COLUMNS.map((name) => [name, at(name)])) as Record<keyof ReaderBookmarkColumns, number>
  // Typed by the statement's columns (readerBookmarkQuery): one read of each by its place.
  const v = <K extends keyof ReaderBookmarkColumns>(row: unknown[], k: K) => row[i[k]] as ReaderBookmarkColumns[K]
  return (row) => build(row, v)
}

type Read = <K extends keyof ReaderBookmarkColumns>(row: unknown[], k: K) => ReaderBookmarkColumns[K]

function build(row: unknown[], v: Read): ReaderBookmarkFacts {
  const series = {
    site: v(row, 'site'),
    series_id: v(row, 'series_id'),
    title: v(row, 's_title'),
    series_url: v(row, 's_series_url'),
    latest_chapter: v(row, 's_latest_chapter'),
    latest_chapter_label: v(row, 's_latest_chapter_label'),
    latest_chapter_url: v(row, 's_latest_chapter_url'),
    latest_source: v(row, 's_latest_source'),
    latest_changed_at: v(row, 's_latest_changed_at'),
    latest_checked_at: v(row, 's_latest_checked_at'),
    latest_sighted_at: v(row, 's_latest_sighted_at'),
    force_poll_at: v(row, 's_force_poll_at'),
    finished_at: v(row, 's_finished_at'),
    created_at: v(row, 's_created_at'),
    rhythm: v(row, 's_rhythm'),
    rhythm_misses: v(row, 's_rhythm_misses'),
    gone_checks: v(row, 's_gone_checks'),
    gone_since: v(row, 's_gone_since'),
    gone_status: v(row, 's_gone_status'),
  } as SeriesRow
  const bookmark: BookmarkRow = {
    reader_id: v(row, 'reader_id'),
    site: v(row, 'site'),
    series_id: v(row, 'series_id'),
    status: v(row, 'status'),
    progress: v(row, 'progress'),
    progress_at: v(row, 'progress_at'),
    created_at: v(row, 'created_at'),
    updated_at: v(row, 'updated_at'),
  }
  return {
    bookmark: { ...bookmark, series, unread: isUnread(series.latest_chapter, bookmark.progress) },
    facts: chapterFacts({ facts_next: v(row, 'facts_next'), facts_lowest: v(row, 'facts_lowest'), facts_highest: v(row, 'facts_highest') }),
  }
}

export interface ReaderBookmarkFacts {
  bookmark: ReaderBookmark
  facts: ChapterFacts
}

function* mapSync<T, U>(rows: Iterable<T>, f: (row: T) => U): Generator<U> {
  for (const row of rows) yield f(row)
}

/** Every Series, by Site and id. */
export function seriesRows(rows: Rows): Iterable<SeriesRow> | AsyncIterable<SeriesRow> {
  return stepped(rows, rows.db.selectFrom('series').selectAll().orderBy('site').orderBy('series_id'))
}

/** A Reader's bookmarks by Site and id (the primary key's order). */
export function bookmarkRows(rows: Rows, readerId: number): Iterable<BookmarkRow> | AsyncIterable<BookmarkRow> {
  return stepped(rows, rows.db.selectFrom('bookmarks').selectAll().where('reader_id', '=', readerId).orderBy('site').orderBy('series_id'))
}

/** The Sites of the Series (or of one Reader's bookmarks), sorted as JavaScript sorts strings. */
export async function siteKeys(db: Db, readerId?: number): Promise<string[]> {
  const rows =
    readerId === undefined
      ? await db.selectFrom('series').select('site').distinct().execute()
      : await db.selectFrom('bookmarks').select('site').distinct().where('reader_id', '=', readerId).execute()
  return rows.map((r) => r.site).sort()
}
