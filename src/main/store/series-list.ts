/**
 * The owner's view of the `series` table: one page of Series by filter, Site and search, one row with its
 * list figures, and the Overview's counts. Read-only.
 */
import { sql, type ExpressionBuilder } from 'kysely'
import type { OverviewCounts, SeriesFilter, SeriesSort } from '../../shared/domain'
import type { Db } from './database'
import type { Database, SeriesKey, SeriesRow } from './schema'

/** A Series row with the figures every list shows: Readers holding it and the derived pending flag. */
export interface SeriesListRow extends SeriesRow {
  reader_count: number
  /** force_poll_at > latest_checked_at — derived, never stored. */
  pending: boolean
}

/**
 * When a check is stale: now − ceiling, and the ceiling is each Site's own (docs/design.md#sites-and-fetching). A number is one
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
  /** The `new` filter: a Latest Chapter that moved forward at or after this (now − NEW_CHAPTER_MS). */
  newSince?: number
  sort?: SeriesSort
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
    case 'new':
      base = base.where('series.latest_changed_at', '>', 0).where('series.latest_changed_at', '>=', query.newSince ?? 0)
      break
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
  let ordered = base.selectAll('series').select((eb) => readerCount(eb).as('reader_count'))
  if (query.sort === 'changed' || query.sort === 'checked') {
    const column = query.sort === 'changed' ? 'series.latest_changed_at' : 'series.latest_checked_at'
    ordered = ordered.orderBy(column, 'desc').orderBy('series.site', 'desc').orderBy('series.series_id', 'desc')
  } else {
    ordered = ordered
      .orderBy(sql`series.title COLLATE NOCASE`)
      .orderBy('series.site')
      .orderBy('series.series_id')
  }
  const rows = await ordered
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

export type { OverviewCounts } from '../../shared/domain'

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

/** The Series of a Site whose last check was not a chapter, newest first: why its Lane's checks fail. */
export async function recentFailures(
  db: Db,
  site: string,
  limit: number,
): Promise<Array<Pick<SeriesRow, 'series_id' | 'title' | 'last_outcome' | 'last_error' | 'last_outcome_at'>>> {
  return db
    .selectFrom('series')
    .select(['series_id', 'title', 'last_outcome', 'last_error', 'last_outcome_at'])
    .where('site', '=', site)
    .where('last_outcome', 'not in', ['', 'chapter'])
    .orderBy('last_outcome_at', 'desc')
    .limit(limit)
    .execute()
}
