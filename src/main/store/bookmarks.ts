/**
 * The `bookmarks` aggregate: a Reader's hold on a Series, with a status and Progress. Progress keeps the
 * write with the latest `progress_at`, so late, reordered and replayed writes change nothing.
 */
import { sql } from 'kysely'
import { compiledOnce } from './compiled'
import type { Db } from './database'
import { AppError } from '../../shared/errors'
import type { BookmarkRemovalRow, BookmarkRow, BookmarkStatus, SeriesKey, SeriesRow } from './schema'

/** A bookmark joined with its Series, as a Reader sees it. */
export interface ReaderBookmark extends BookmarkRow {
  series: SeriesRow
  /** latest_chapter > progress (or something to read and nothing read) — derived. */
  unread: boolean
}

/** Adds a bookmark; an existing one is left as it is. Returns whether it was created. */
export async function addBookmark(db: Db, input: SeriesKey & { readerId: number; status?: BookmarkStatus; now: number }): Promise<boolean> {
  const result = await db
    .insertInto('bookmarks')
    .values({
      reader_id: input.readerId,
      site: input.site,
      series_id: input.seriesId,
      status: input.status ?? 'reading',
      progress: null,
      created_at: input.now,
      updated_at: input.now,
    })
    .onConflict((oc) => oc.columns(['reader_id', 'site', 'series_id']).doNothing())
    .executeTakeFirst()
  return (result.numInsertedOrUpdatedRows ?? 0n) > 0n
}

/** How many bookmarks a Reader holds (read from the key alone). */
export async function countReaderBookmarks(db: Db, readerId: number): Promise<number> {
  const row = await db
    .selectFrom('bookmarks')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('reader_id', '=', readerId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function getBookmark(db: Db, readerId: number, key: SeriesKey): Promise<BookmarkRow | undefined> {
  return db
    .selectFrom('bookmarks')
    .selectAll()
    .where('reader_id', '=', readerId)
    .where('site', '=', key.site)
    .where('series_id', '=', key.seriesId)
    .executeTakeFirst()
}

export interface BookmarkChange {
  status?: BookmarkStatus
  progress?: number
  /** When the Reader read it; the write with the latest `progressAt` wins. */
  progressAt?: number
}

/**
 * Updates a bookmark in one statement. A status always applies; a Progress applies only when its
 * `progressAt` is later than the stored one (the latest write wins, so late writes and replays change
 * nothing, not even `updated_at`). Returns the row after the write; throws not-found when the Reader holds
 * no such bookmark.
 *
 * No stamp is ever later than `now` (docs/adr/0092-sync-across-clock-steps.md): a `progressAt` ahead of it (a
 * device ahead of a slow server) is stored as `now`, and a stored stamp ahead of it (left while the server ran
 * fast) is no longer trusted: the next Progress takes its place, after which the latest write wins again. A
 * write without `progressAt` takes by arrival and is stamped from the devices' times, not the server's alone.
 */
export async function updateBookmark(db: Db, readerId: number, key: SeriesKey, change: BookmarkChange, now: number): Promise<BookmarkRow> {
  const status = change.status ?? null
  const progress = change.progress ?? null
  const timed = change.progressAt !== undefined ? 1 : 0
  const progressAt = Math.min(change.progressAt ?? now, now)
  // A write without a time is the latest by arrival: it always takes, stamped by unstampedAt.
  const takesProgress = sql<boolean>`(${progress} IS NOT NULL AND (${timed} = 0 OR ${progressAt} > progress_at OR progress_at > ${now}))`
  const updated = await db
    .updateTable('bookmarks')
    .set({
      status: sql`COALESCE(${status}, status)`,
      progress: sql`CASE WHEN ${takesProgress} THEN ${progress} ELSE progress END`,
      progress_at: sql`CASE WHEN ${takesProgress} THEN (CASE WHEN ${timed} = 1 THEN ${progressAt} ELSE ${unstampedAt(readerId, now)} END) ELSE progress_at END`,
      updated_at: now,
    })
    .where('reader_id', '=', readerId)
    .where('site', '=', key.site)
    .where('series_id', '=', key.seriesId)
    .where((eb) => eb.or([sql<boolean>`(${status} IS NOT NULL AND status <> ${status})`, takesProgress]))
    .returningAll()
    .executeTakeFirst()
  if (updated) return updated
  const current = await getBookmark(db, readerId, key)
  if (!current) throw new AppError('not-found', `no bookmark ${key.site}/${key.seriesId} for Reader ${readerId}`)
  return current
}

/**
 * The stamp of a Progress written without `progressAt` (docs/adr/0121-a-write-without-a-time.md), as SQL over the
 * row being updated: the Reader's newest stamp not ahead of now — the time their devices last gave — but past the
 * stamp it replaces, and never later than now. Not the server's now alone: a server running fast would stamp it
 * ahead of every later write a device with the right time makes, and those would be answered 200 and dropped.
 */
const unstampedAt = (readerId: number, now: number) =>
  sql`MIN(${now}, MAX(progress_at + 1, (SELECT COALESCE(MAX(o.progress_at), 0) FROM bookmarks o WHERE o.reader_id = ${readerId} AND o.progress_at <= ${now})))`

/**
 * Marks every bookmark of a Series as changed, so Readers syncing with `since` see a change to what the
 * Series shows them (its title, Latest Chapter, URL, Finished) even when it is not a New Chapter.
 */
export async function touchBookmarksOf(db: Db, key: SeriesKey, now: number): Promise<void> {
  // Run by checks: compiled once (store/compiled.ts).
  await TOUCH(db, now, key.site, key.seriesId)
}

const TOUCH = compiledOnce((db, now: number, site: string, seriesId: string) =>
  db.updateTable('bookmarks').set({ updated_at: now }).where('site', '=', site).where('series_id', '=', seriesId),
)

/**
 * Removes a Reader's bookmark and remembers when, so a Reader syncing with `since` learns of it
 * (docs/adr/0052-since-reads-changes-and-removals.md). Adding the bookmark again forgets the removal.
 */
export async function removeBookmark(db: Db, readerId: number, key: SeriesKey, now: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const result = await trx
      .deleteFrom('bookmarks')
      .where('reader_id', '=', readerId)
      .where('site', '=', key.site)
      .where('series_id', '=', key.seriesId)
      .executeTakeFirst()
    if (result.numDeletedRows === 0n) {
      throw new AppError('not-found', `no bookmark ${key.site}/${key.seriesId} for Reader ${readerId}`)
    }
    await trx
      .insertInto('bookmark_removals')
      .values({ reader_id: readerId, site: key.site, series_id: key.seriesId, removed_at: now })
      .onConflict((oc) => oc.columns(['reader_id', 'site', 'series_id']).doUpdateSet({ removed_at: now }))
      .execute()
  })
}

/** A Reader's bookmarks removed at or after `since`, oldest first. */
export async function readerRemovals(db: Db, readerId: number, since: number): Promise<BookmarkRemovalRow[]> {
  return db
    .selectFrom('bookmark_removals')
    .selectAll()
    .where('reader_id', '=', readerId)
    .where('removed_at', '>=', since)
    .orderBy('removed_at')
    .execute()
}

/** Retention: removals before `before` are forgotten (a Reader further behind syncs in full). Returns how many went. */
export async function pruneRemovals(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom('bookmark_removals').where('removed_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/** What a Reader sees of a Series, as one JSON value per row (one column instead of fifteen). */
export const SERIES_JSON = sql<string>`json_object(
  'site', s.site, 'series_id', s.series_id, 'title', s.title, 'series_url', s.series_url,
  'latest_chapter', s.latest_chapter, 'latest_chapter_label', s.latest_chapter_label,
  'latest_chapter_url', s.latest_chapter_url, 'latest_source', s.latest_source,
  'latest_changed_at', s.latest_changed_at, 'latest_checked_at', s.latest_checked_at,
  'latest_sighted_at', s.latest_sighted_at, 'force_poll_at', s.force_poll_at,
  'finished_at', s.finished_at, 'created_at', s.created_at, 'rhythm', s.rhythm, 'rhythm_misses', s.rhythm_misses,
  'gone_checks', s.gone_checks, 'gone_since', s.gone_since, 'gone_status', s.gone_status)`

/**
 * A Reader's bookmarks with their Series. With `since`, only those whose bookmark changed or whose Latest
 * Chapter moved at or after it — two index reads, one per table (the Reader's bookmarks by `updated_at`; the
 * Series by `latest_changed_at`, each looked up in the Reader's bookmarks), never the Reader's whole list
 * (docs/adr/0052-since-reads-changes-and-removals.md).
 */
export async function readerBookmarks(
  db: Db,
  readerId: number,
  options: { since?: number; key?: SeriesKey } = {},
): Promise<ReaderBookmark[]> {
  let rows: Array<BookmarkRow & { series_json: string }>
  if (options.since !== undefined) {
    // Driven from the changed keys: each is then one primary-key read of the bookmark and of its Series. The
    // indexes are named: with statistics the planner would rather walk all of the Reader's bookmarks in key order.
    const since = options.since
    const result = await sql<BookmarkRow & { series_json: string }>`
      SELECT b.*, ${SERIES_JSON} AS series_json
      FROM (
        SELECT site, series_id FROM bookmarks INDEXED BY bookmarks_reader_updated WHERE reader_id = ${readerId} AND updated_at >= ${since}
        UNION
        SELECT c.site, c.series_id FROM series c INDEXED BY series_changed
          CROSS JOIN bookmarks h ON h.reader_id = ${readerId} AND h.site = c.site AND h.series_id = c.series_id
        WHERE c.latest_changed_at >= ${since}
      ) k
      CROSS JOIN bookmarks b ON b.reader_id = ${readerId} AND b.site = k.site AND b.series_id = k.series_id
      CROSS JOIN series s ON s.site = b.site AND s.series_id = b.series_id
      ${options.key ? sql`WHERE b.site = ${options.key.site} AND b.series_id = ${options.key.seriesId}` : sql``}
      ORDER BY s.title, b.site, b.series_id`.execute(db)
    rows = result.rows
  } else {
    let query = db
      .selectFrom('bookmarks as b')
      .innerJoin('series as s', (join) => join.onRef('s.site', '=', 'b.site').onRef('s.series_id', '=', 'b.series_id'))
      .selectAll('b')
      .select(SERIES_JSON.as('series_json'))
      .where('b.reader_id', '=', readerId)
    if (options.key) query = query.where('b.site', '=', options.key.site).where('b.series_id', '=', options.key.seriesId)
    rows = await query.orderBy('s.title').orderBy('b.site').orderBy('b.series_id').execute()
  }
  return rows.map(readerBookmark)
}

/** A bookmark row read with its Series as `SERIES_JSON` (`series_json`), as readerBookmarks answers it. */
export function readerBookmark({ series_json, ...bookmark }: BookmarkRow & { series_json: string }): ReaderBookmark {
  const series = JSON.parse(series_json) as SeriesRow
  return { ...bookmark, series, unread: isUnread(series.latest_chapter, bookmark.progress) }
}

/** How many bookmarks each Reader holds, by Reader id (one query). */
export async function bookmarkCounts(db: Db): Promise<Map<number, number>> {
  const rows = await db
    .selectFrom('bookmarks')
    .select(['reader_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('reader_id')
    .execute()
  return new Map(rows.map((r) => [r.reader_id, Number(r.n)]))
}

/** Unread: the Latest Chapter is past the Reader's Progress (docs/design.md#data). Nothing known is nothing unread. */
export function isUnread(latestChapter: number | null, progress: number | null): boolean {
  if (latestChapter === null) return false
  return progress === null || latestChapter > progress
}

/** Readers holding a Series, with their Progress, for the Series detail page. */
export async function seriesReaders(
  db: Db,
  key: SeriesKey,
): Promise<Array<{ reader_id: number; name: string; status: BookmarkStatus; progress: number | null; progress_at: number }>> {
  return db
    .selectFrom('bookmarks as b')
    .innerJoin('readers as r', 'r.id', 'b.reader_id')
    .select(['b.reader_id', 'r.name', 'b.status', 'b.progress', 'b.progress_at'])
    .where('b.site', '=', key.site)
    .where('b.series_id', '=', key.seriesId)
    .orderBy('r.name')
    .execute()
}
