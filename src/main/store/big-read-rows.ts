/**
 * The rows of a big read, one at a time (docs/adr/0176-big-reads-streamed.md): a Reader's bookmarks with their
 * Series (and chapter facts) in title order, the library's Series and each Reader's bookmarks in key order. Each
 * is one statement stepped row by row, so a caller that writes each row out as it comes holds one row, not the
 * list. Run inside the caller's transaction (one snapshot); nothing else may use the connection meanwhile. Given
 * the better-sqlite3 connection under the Kysely one (`Rows.sqlite`), rows are stepped on it directly: Kysely's
 * stream costs ~7 µs a row (1.1 s of a 150,000-bookmark full sync).
 */
import type BetterSqlite3 from 'better-sqlite3'
import type { Compilable } from 'kysely'
import type { Db } from './database'
import { SERIES_JSON, readerBookmark, type ReaderBookmark } from './bookmarks'
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
  const { sql, parameters } = query.compile()
  return rows.sqlite.prepare(sql).iterate(...parameters) as Iterable<R>
}

/** A Reader's bookmarks in the order readerBookmarks gives them (title, Site, id), each with its chapter facts. */
export function readerBookmarkRows(rows: Rows, readerId: number): Iterable<ReaderBookmarkFacts> | AsyncIterable<ReaderBookmarkFacts> {
  const query = rows.db
    .selectFrom('bookmarks as b')
    .innerJoin('series as s', (join) => join.onRef('s.site', '=', 'b.site').onRef('s.series_id', '=', 'b.series_id'))
    .selectAll('b')
    .select(SERIES_JSON.as('series_json'))
    .select([
      CHAPTER_FACTS.facts_next.as('facts_next'),
      CHAPTER_FACTS.facts_lowest.as('facts_lowest'),
      CHAPTER_FACTS.facts_highest.as('facts_highest'),
    ])
    .where('b.reader_id', '=', readerId)
    .orderBy('s.title')
    .orderBy('b.site')
    .orderBy('b.series_id')
  const each = ({ facts_next, facts_lowest, facts_highest, ...rest }: Parameters<typeof readerBookmark>[0] & ChapterFactsColumns) => ({
    bookmark: readerBookmark(rest),
    facts: chapterFacts({ facts_next, facts_lowest, facts_highest }),
  })
  const steps = stepped(rows, query)
  return Symbol.iterator in steps ? mapSync(steps, each) : mapAsync(steps, each)
}

export interface ReaderBookmarkFacts {
  bookmark: ReaderBookmark
  facts: ChapterFacts
}

function* mapSync<T, U>(rows: Iterable<T>, f: (row: T) => U): Generator<U> {
  for (const row of rows) yield f(row)
}

async function* mapAsync<T, U>(rows: AsyncIterable<T>, f: (row: T) => U): AsyncGenerator<U> {
  for await (const row of rows) yield f(row)
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
