/**
 * The `series` aggregate: one work on one Site, its Latest Chapter, its check stamp and the owner's
 * Forced Poll and Finished marks. Plain functions, the database first, times as parameters.
 */
import { sql, type ExpressionBuilder } from 'kysely'
import { touchBookmarksOf } from './bookmarks'
import type { Db } from './database'
import { StoreError } from './errors'
import type { Database, LatestChapterHistoryRow, SeriesRow } from './schema'

export type SeriesFilter = 'unchecked' | 'stale' | 'pending' | 'finished' | 'orphan' | 'no-url'
export const SERIES_FILTERS: readonly SeriesFilter[] = ['unchecked', 'stale', 'pending', 'finished', 'orphan', 'no-url']

/** A Series row with the figures every list shows: Readers holding it and the derived pending flag. */
export interface SeriesListRow extends SeriesRow {
  reader_count: number
  /** force_poll_at > latest_checked_at — derived, never stored. */
  pending: boolean
}

/**
 * When a check is stale: now − ceiling, and the ceiling is each Site's own (SPEC §4). A number is one
 * cut-off for every Site.
 */
export type StaleBefore = number | { fallback: number; bySite: Record<string, number> }

function staleCutoff(before: StaleBefore, siteColumn: string) {
  if (typeof before === 'number') return sql<number>`${before}`
  const entries = Object.entries(before.bySite)
  if (entries.length === 0) return sql<number>`${before.fallback}`
  const cases = sql.join(
    entries.map(([site, at]) => sql`WHEN ${site} THEN ${at}`),
    sql` `,
  )
  return sql<number>`(CASE ${sql.ref(siteColumn)} ${cases} ELSE ${before.fallback} END)`
}

export interface SeriesQuery {
  filter?: SeriesFilter
  site?: string
  /** Matched case-insensitively against title, series_id and series_url. */
  search?: string
  offset?: number
  limit?: number
  /** A Series last checked at or before this is stale (now − ceiling). */
  staleBefore: StaleBefore
}

export interface SeriesKey {
  site: string
  seriesId: string
}

export async function addSeries(db: Db, input: SeriesKey & { title?: string; seriesUrl?: string; now: number }): Promise<SeriesRow> {
  await db
    .insertInto('series')
    .values({
      site: input.site,
      series_id: input.seriesId,
      title: input.title ?? '',
      series_url: input.seriesUrl ?? '',
      latest_chapter: null,
      created_at: input.now,
    })
    .onConflict((oc) => oc.columns(['site', 'series_id']).doNothing())
    .execute()
  return requireSeries(db, input)
}

export async function getSeries(db: Db, key: SeriesKey): Promise<SeriesRow | undefined> {
  return db.selectFrom('series').selectAll().where('site', '=', key.site).where('series_id', '=', key.seriesId).executeTakeFirst()
}

export async function requireSeries(db: Db, key: SeriesKey): Promise<SeriesRow> {
  const row = await getSeries(db, key)
  if (!row) throw new StoreError(`no Series ${key.site}/${key.seriesId}`, 'not-found')
  return row
}

const readerCount = (eb: ExpressionBuilder<Database, 'series'>) =>
  eb
    .selectFrom('bookmarks')
    .select((e) => e.fn.countAll<number>().as('n'))
    .whereRef('bookmarks.site', '=', 'series.site')
    .whereRef('bookmarks.series_id', '=', 'series.series_id')

const heldByNoReader = (eb: ExpressionBuilder<Database, 'series'>) =>
  eb.not(
    eb.exists(
      eb
        .selectFrom('bookmarks')
        .select(sql`1`.as('one'))
        .whereRef('bookmarks.site', '=', 'series.site')
        .whereRef('bookmarks.series_id', '=', 'series.series_id'),
    ),
  )

/** One page of Series matching a filter, a Site and a search, with the total that matched. */
export async function listSeries(db: Db, query: SeriesQuery): Promise<{ total: number; rows: SeriesListRow[] }> {
  let base = db.selectFrom('series')
  if (query.site) base = base.where('series.site', '=', query.site)
  if (query.search?.trim()) {
    const pattern = `%${query.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
    base = base.where((eb) =>
      eb.or([
        sql<boolean>`series.title LIKE ${pattern} ESCAPE '\\'`,
        sql<boolean>`series.series_id LIKE ${pattern} ESCAPE '\\'`,
        sql<boolean>`series.series_url LIKE ${pattern} ESCAPE '\\'`,
      ]),
    )
  }
  switch (query.filter) {
    case 'unchecked':
      base = base.where('series.latest_checked_at', '=', 0)
      break
    case 'stale':
      base = base
        .where('series.latest_checked_at', '>', 0)
        .where(sql<boolean>`series.latest_checked_at <= ${staleCutoff(query.staleBefore, 'series.site')}`)
      break
    case 'pending':
      base = base.whereRef('series.force_poll_at', '>', 'series.latest_checked_at')
      break
    case 'finished':
      base = base.where('series.finished_at', '>', 0)
      break
    case 'orphan':
      base = base.where(heldByNoReader)
      break
    case 'no-url':
      base = base.where('series.series_url', '=', '')
      break
    case undefined:
      break
  }
  const total = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
  const rows = await base
    .selectAll('series')
    .select((eb) => readerCount(eb).as('reader_count'))
    .orderBy(sql`series.title COLLATE NOCASE`)
    .orderBy('series.site')
    .orderBy('series.series_id')
    .limit(query.limit ?? 100)
    .offset(query.offset ?? 0)
    .execute()
  return {
    total: total.n,
    rows: rows.map((row) => ({
      ...row,
      reader_count: Number(row.reader_count ?? 0),
      pending: row.force_poll_at > row.latest_checked_at,
    })),
  }
}

/** One Series with its list figures, or undefined. */
export async function getSeriesListRow(db: Db, key: SeriesKey): Promise<SeriesListRow | undefined> {
  const row = await db
    .selectFrom('series')
    .selectAll('series')
    .select((eb) => readerCount(eb).as('reader_count'))
    .where('series.site', '=', key.site)
    .where('series.series_id', '=', key.seriesId)
    .executeTakeFirst()
  if (!row) return undefined
  return { ...row, reader_count: Number(row.reader_count ?? 0), pending: row.force_poll_at > row.latest_checked_at }
}

/**
 * The check stamp, written before every fetch (SPEC §5). It ends any pending Forced Poll whatever the
 * fetch returns. Returns false when no such Series exists.
 */
export async function markLatestChecked(db: Db, key: SeriesKey, now: number): Promise<boolean> {
  const result = await db
    .updateTable('series')
    .set({ latest_checked_at: now })
    .where('site', '=', key.site)
    .where('series_id', '=', key.seriesId)
    .executeTakeFirst()
  return result.numUpdatedRows > 0n
}

/** Check now: stamps the request time. Idempotent; pressing again re-stamps (docs/adr/0001). */
export async function forceSeriesPoll(db: Db, key: SeriesKey, now: number): Promise<void> {
  await updateOrThrow(db, key, { force_poll_at: now })
}

/** The owner shelves a Series: it is not polled unless forced. */
export async function finishSeries(db: Db, key: SeriesKey, now: number): Promise<void> {
  await updateOrThrow(db, key, { finished_at: now })
  await touchBookmarksOf(db, key, now)
}

export async function unfinishSeries(db: Db, key: SeriesKey, now: number): Promise<void> {
  await updateOrThrow(db, key, { finished_at: 0 })
  await touchBookmarksOf(db, key, now)
}

/** Stores a Series URL; the caller has checked it against the Site's host pin. */
export async function setSeriesUrl(db: Db, key: SeriesKey, seriesUrl: string, now: number): Promise<void> {
  await updateOrThrow(db, key, { series_url: seriesUrl })
  await touchBookmarksOf(db, key, now)
}

async function updateOrThrow(
  db: Db,
  key: SeriesKey,
  values: Partial<Pick<SeriesRow, 'force_poll_at' | 'finished_at' | 'series_url'>>,
): Promise<void> {
  const result = await db
    .updateTable('series')
    .set(values)
    .where('site', '=', key.site)
    .where('series_id', '=', key.seriesId)
    .executeTakeFirst()
  if (result.numUpdatedRows === 0n) throw new StoreError(`no Series ${key.site}/${key.seriesId}`, 'not-found')
}

export interface FoundChapter {
  chapter: number
  label: string
  url: string
}

export type LatestMove = 'first' | 'up' | 'confirmed' | 'corrected-down' | 'none'

/**
 * What a check's highest chapter does to the Latest Chapter (SPEC §5): a higher one moves it up (a New
 * Chapter, unless nothing was known before); a lower one than a Sighting raised corrects it down; a lower
 * one than an earlier check found changes nothing (the Latest Chapter is the highest the app knows).
 */
export function latestMove(current: Pick<SeriesRow, 'latest_chapter' | 'latest_source'>, found: number): LatestMove {
  if (current.latest_chapter === null) return 'first'
  if (found > current.latest_chapter) return 'up'
  if (found === current.latest_chapter) return current.latest_source === 'check' ? 'none' : 'confirmed'
  return current.latest_source === 'sighting' ? 'corrected-down' : 'none'
}

export interface CheckResultReport {
  move: LatestMove
  /** The Latest Chapter moved forward past a known one: a New Chapter (notified, shown in ember). */
  newChapter: boolean
  previous: number | null
  series: SeriesRow
}

/** Records a check that found chapters: the Latest Chapter move, its history and the title. */
export async function recordCheckResult(
  db: Db,
  input: SeriesKey & { found: FoundChapter; title?: string; now: number },
): Promise<CheckResultReport> {
  const current = await requireSeries(db, input)
  const move = latestMove(current, input.found.chapter)
  const moved = move === 'first' || move === 'up' || move === 'corrected-down'
  const changes = {
    ...(input.title && input.title !== current.title ? { title: input.title } : {}),
    ...(moved || move === 'confirmed'
      ? {
          latest_chapter: input.found.chapter,
          latest_chapter_label: input.found.label,
          latest_chapter_url: input.found.url,
          latest_source: 'check' as const,
        }
      : {}),
    // Only a move past a known chapter is a New Chapter; the first one found is not (no ember, no notice).
    ...(move === 'up' ? { latest_changed_at: input.now } : {}),
  }
  // The steady state — the same chapter and title as last time — has nothing to set, and `UPDATE … SET`
  // with an empty list is a syntax error.
  if (Object.keys(changes).length > 0) {
    await db.updateTable('series').set(changes).where('site', '=', input.site).where('series_id', '=', input.seriesId).execute()
  }
  const retitled = Boolean(input.title && input.title !== current.title)
  if (retitled || (moved && move !== 'up') || move === 'confirmed') {
    // Not a New Chapter, but what the Series shows a Reader changed (a first Latest Chapter, a correction,
    // a confirmation, a title): Readers syncing with `since` must see it. An 'up' move is seen through
    // latest_changed_at.
    await touchBookmarksOf(db, input, input.now)
  }
  if (moved) {
    await db
      .insertInto('latest_chapter_history')
      .values({
        site: input.site,
        series_id: input.seriesId,
        chapter: input.found.chapter,
        label: input.found.label,
        source: move === 'corrected-down' ? 'correction' : 'check',
        at: input.now,
      })
      .execute()
  }
  return { move, newChapter: move === 'up', previous: current.latest_chapter, series: await requireSeries(db, input) }
}

export async function latestChapterHistory(db: Db, key: SeriesKey, limit = 50): Promise<LatestChapterHistoryRow[]> {
  return db
    .selectFrom('latest_chapter_history')
    .selectAll()
    .where('site', '=', key.site)
    .where('series_id', '=', key.seriesId)
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
}

export interface DueSeries extends SeriesRow {
  reader_count: number
  /** 1 when a Forced Poll is pending. */
  forced: number
}

export interface DueCutoffs {
  /** now − rest */
  restCutoff: number
  /** now − ceiling */
  ceilingCutoff: number
}

/**
 * The due query, exactly as SPEC §3 gives it. A forced Series overrides the rest cutoff, the Sighting
 * deferral and the Finished gate — and nothing else (docs/adr/0001-commands-through-the-database.md).
 * The final `series_id` only makes ties deterministic.
 */
export async function dueSeries(db: Db, site: string, cutoffs: DueCutoffs): Promise<DueSeries[]> {
  const { restCutoff, ceilingCutoff } = cutoffs
  const result = await sql<DueSeries>`
    SELECT s.*, COUNT(*) AS reader_count, (s.force_poll_at > s.latest_checked_at) AS forced
    FROM series s JOIN bookmarks b ON b.site = s.site AND b.series_id = s.series_id
    WHERE s.site = ${site}
      AND s.series_url <> ''
      AND (s.finished_at = 0 OR s.force_poll_at > s.latest_checked_at)
      AND (s.latest_checked_at <= ${restCutoff} OR s.force_poll_at > s.latest_checked_at)
    GROUP BY s.site, s.series_id
    HAVING COUNT(*) > 1 OR s.latest_sighted_at <= ${restCutoff}
        OR s.latest_checked_at <= ${ceilingCutoff} OR s.force_poll_at > s.latest_checked_at
    ORDER BY forced DESC, reader_count DESC, s.latest_checked_at ASC, s.series_id ASC
  `.execute(db)
  return result.rows
}

/**
 * The eligible count, the pace divisor: Series with a URL, not Finished, held by a Reader. Deliberately no
 * force clause, so one press never speeds up every other fetch on the Site.
 */
export async function eligibleCount(db: Db, site: string): Promise<number> {
  const result = await sql<{ n: number }>`
    SELECT COUNT(*) AS n FROM series s
    WHERE s.site = ${site}
      AND s.series_url <> ''
      AND s.finished_at = 0
      AND EXISTS (SELECT 1 FROM bookmarks b WHERE b.site = s.site AND b.series_id = s.series_id)
  `.execute(db)
  return result.rows[0]?.n ?? 0
}

/** The newest check stamp of a Site: when this app last fetched from it (0 = never). */
export async function lastCheckedAt(db: Db, site: string): Promise<number> {
  const row = await db
    .selectFrom('series')
    .select((eb) => eb.fn.max('latest_checked_at').as('at'))
    .where('site', '=', site)
    .executeTakeFirst()
  return Number(row?.at ?? 0)
}

/** How many Series are in each state the Overview counts. */
export interface OverviewCounts {
  series: number
  unchecked: number
  stale: number
  pending: number
  orphans: number
  noUrl: number
  finished: number
}

/** The Overview's counts, one pass over `series`. */
export async function overviewCounts(db: Db, staleBefore: StaleBefore): Promise<OverviewCounts> {
  const result = await sql<Record<keyof OverviewCounts, number | null>>`
    SELECT COUNT(*) AS series,
      SUM(s.latest_checked_at = 0) AS unchecked,
      SUM(s.latest_checked_at > 0 AND s.latest_checked_at <= ${staleCutoff(staleBefore, 's.site')}) AS stale,
      SUM(s.force_poll_at > s.latest_checked_at) AS pending,
      SUM(NOT EXISTS (SELECT 1 FROM bookmarks b WHERE b.site = s.site AND b.series_id = s.series_id)) AS orphans,
      SUM(s.series_url = '') AS noUrl,
      SUM(s.finished_at > 0) AS finished
    FROM series s
  `.execute(db)
  const row = result.rows[0]
  return {
    series: row?.series ?? 0,
    unchecked: row?.unchecked ?? 0,
    stale: row?.stale ?? 0,
    pending: row?.pending ?? 0,
    orphans: row?.orphans ?? 0,
    noUrl: row?.noUrl ?? 0,
    finished: row?.finished ?? 0,
  }
}
