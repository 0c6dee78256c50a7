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
  if (!rows.sqlite) return (await rows.db.executeQuery<ReaderBookmarkColumns>(query)).rows.map(readerBookmarkFacts)
  return mapSync(rows.sqlite.prepare(query.sql).iterate(...query.parameters) as Iterable<ReaderBookmarkColumns>, readerBookmarkFacts)
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
function readerBookmarkFacts(r: ReaderBookmarkColumns): ReaderBookmarkFacts {
  const series = {
    site: r.site,
    series_id: r.series_id,
    title: r.s_title,
    series_url: r.s_series_url,
    latest_chapter: r.s_latest_chapter,
    latest_chapter_label: r.s_latest_chapter_label,
    latest_chapter_url: r.s_latest_chapter_url,
    latest_source: r.s_latest_source,
    latest_changed_at: r.s_latest_changed_at,
    latest_checked_at: r.s_latest_checked_at,
    latest_sighted_at: r.s_latest_sighted_at,
    force_poll_at: r.s_force_poll_at,
    finished_at: r.s_finished_at,
    created_at: r.s_created_at,
    rhythm: r.s_rhythm,
    rhythm_misses: r.s_rhythm_misses,
    gone_checks: r.s_gone_checks,
    gone_since: r.s_gone_since,
    gone_status: r.s_gone_status,
  } as SeriesRow
  const bookmark: BookmarkRow = {
    reader_id: r.reader_id,
    site: r.site,
    series_id: r.series_id,
    status: r.status,
    progress: r.progress,
    progress_at: r.progress_at,
    created_at: r.created_at,
    updated_at: r.updated_at,
  }
  return {
    bookmark: { ...bookmark, series, unread: isUnread(series.latest_chapter, bookmark.progress) },
    facts: chapterFacts(r),
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
