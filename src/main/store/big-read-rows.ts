/**
 * The rows of a big read, one at a time (docs/adr/0176-big-reads-streamed.md): a Reader's bookmarks with their
 * Series (and chapter facts) in title order, the library's Series and each Reader's bookmarks in key order. Each
 * is one statement stepped row by row, so a caller that writes each row out as it comes holds one row, not the
 * list. Run inside the caller's transaction (one snapshot); nothing else may use the connection meanwhile.
 */
import type { Db } from './database'
import { SERIES_JSON, readerBookmark, type ReaderBookmark } from './bookmarks'
import { CHAPTER_FACTS, chapterFacts, type ChapterFacts } from './chapters'
import type { BookmarkRow, SeriesRow } from './schema'

/** A Reader's bookmarks in the order readerBookmarks gives them (title, Site, id), each with its chapter facts. */
export async function* readerBookmarkRows(db: Db, readerId: number): AsyncGenerator<{ bookmark: ReaderBookmark; facts: ChapterFacts }> {
  const rows = db
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
    .stream()
  for await (const row of rows) {
    const { facts_next, facts_lowest, facts_highest, ...rest } = row
    yield { bookmark: readerBookmark(rest), facts: chapterFacts({ facts_next, facts_lowest, facts_highest }) }
  }
}

/** Every Series, by Site and id. */
export function seriesRows(db: Db): AsyncIterable<SeriesRow> {
  return db.selectFrom('series').selectAll().orderBy('site').orderBy('series_id').stream()
}

/** A Reader's bookmarks by Site and id (the primary key's order). */
export function bookmarkRows(db: Db, readerId: number): AsyncIterable<BookmarkRow> {
  return db.selectFrom('bookmarks').selectAll().where('reader_id', '=', readerId).orderBy('site').orderBy('series_id').stream()
}

/** The Sites of the Series (or of one Reader's bookmarks), sorted as JavaScript sorts strings. */
export async function siteKeys(db: Db, readerId?: number): Promise<string[]> {
  const rows =
    readerId === undefined
      ? await db.selectFrom('series').select('site').distinct().execute()
      : await db.selectFrom('bookmarks').select('site').distinct().where('reader_id', '=', readerId).execute()
  return rows.map((r) => r.site).sort()
}
