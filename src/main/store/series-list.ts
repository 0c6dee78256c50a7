/**
 * The owner's view of the `series` table: one page of Series by filter, Site and search, one row with its
 * list figures, and the Overview's counts. Read-only.
 *
 * Every read is an index read sized by what it returns, whatever the library's size
 * (docs/adr/0051-the-owners-list-pages-by-key.md): a page continues from the key of the row before it (keyset
 * paging), or skips entries of the order's index (a jump); each filter that does not depend on the time has a
 * small index of its own; the total is asked for once per filter, not per page.
 */
import { sql, type RawBuilder } from 'kysely'
import { AppError } from '../../shared/errors'
import type { OverviewCounts, SeriesFilter, SeriesSort } from '../../shared/domain'
import type { Db } from './database'
import type { SeriesKey, SeriesRow } from './schema'

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

/**
 * The orders the list can be read in, each with an index of its own: by title; by the latest change (newest
 * first); by the last check (newest first).
 */
export type { SeriesSort } from '../../shared/domain'

export interface SeriesQuery {
  filter?: SeriesFilter
  site?: string
  /** Matched case-insensitively against title, series_id and series_url. */
  search?: string
  /** Where the page starts, when no `after` is given (the entries before it are skipped in the index). */
  offset?: number
  limit?: number
  /** The `next` of the page before: this page holds the rows after that one, in the list's order. */
  after?: string
  sort?: SeriesSort
  /** Whether to count every row that matches (the total); a caller paging on asks only once. */
  count?: boolean
  /** A Series last checked at or before this is stale (now − ceiling). */
  staleBefore: StaleBefore
  /** The `new` filter: a Latest Chapter that moved forward at or after this (now − NEW_CHAPTER_MS). */
  newSince?: number
}

export interface SeriesListPage {
  /** Every row that matches (only when counted). */
  total?: number
  rows: SeriesListRow[]
  /** Where the next page starts: pass it as `after` (absent when this page is not full). */
  next?: string
}

interface SortSpec {
  /** The ORDER BY, and the key a page continues from. */
  order: RawBuilder<unknown>
  key(row: SeriesRow): string | number
  /** Rows after a key, in this order; `lead` is the range the index can seek to. */
  after(key: string | number, site: string, seriesId: string): RawBuilder<boolean>
  /** The index of this order over every Series, and over one Site (null: the first, filtered by Site). */
  index: string
  siteIndex: string | null
}

const SORTS: Record<SeriesSort, SortSpec> = {
  title: {
    order: sql`ORDER BY s.title COLLATE NOCASE, s.site, s.series_id`,
    key: (row) => row.title,
    // The lone `>=` gives the index a place to seek to; the row value breaks ties.
    after: (key, site, id) =>
      sql<boolean>`s.title COLLATE NOCASE >= ${key} AND (s.title COLLATE NOCASE, s.site, s.series_id) > (${key}, ${site}, ${id})`,
    index: 'series_title',
    siteIndex: 'series_site_title',
  },
  changed: {
    order: sql`ORDER BY s.latest_changed_at DESC, s.site DESC, s.series_id DESC`,
    key: (row) => row.latest_changed_at,
    after: (key, site, id) => sql<boolean>`(s.latest_changed_at, s.site, s.series_id) < (${key}, ${site}, ${id})`,
    index: 'series_changed',
    siteIndex: null,
  },
  checked: {
    order: sql`ORDER BY s.latest_checked_at DESC, s.site DESC, s.series_id DESC`,
    key: (row) => row.latest_checked_at,
    after: (key, site, id) => sql<boolean>`(s.latest_checked_at, s.site, s.series_id) < (${key}, ${site}, ${id})`,
    index: 'series_checked',
    siteIndex: null,
  },
}

/** The filters that do not depend on the time: each a term and the small (partial) index it matches. */
const FILTERS: Record<Exclude<SeriesFilter, 'stale' | 'new'>, { where: RawBuilder<boolean>; index: string }> = {
  unchecked: { where: sql<boolean>`s.latest_checked_at = 0`, index: 'series_unchecked' },
  // Only a press the due query can serve: an orphan or a Series with no URL is never checked, however pressed.
  pending: {
    where: sql<boolean>`s.force_poll_at > s.latest_checked_at AND s.reader_count > 0 AND s.series_url <> ''`,
    index: 'series_pending',
  },
  finished: { where: sql<boolean>`s.finished_at > 0`, index: 'series_finished' },
  orphan: { where: sql<boolean>`s.reader_count = 0`, index: 'series_orphan' },
  'no-url': { where: sql<boolean>`s.series_url = ''`, index: 'series_no_url' },
}

/**
 * A stale (or new) filter with at most this many matches is read through the check stamp's (latest change's)
 * index and sorted; with more, the order's index is walked, where one row in this many or fewer is skipped.
 */
const STALE_SORTED_UP_TO = 5_000

/** The cut-off of a Site. */
function cutoffOf(before: StaleBefore, site: string): number {
  return typeof before === 'number' ? before : (before.bySite[site] ?? before.fallback)
}

/** Stale as a term on one row: checked, and last checked at or before its Site's cut-off. */
function staleTerm(before: StaleBefore): RawBuilder<boolean> {
  if (typeof before === 'number' || Object.keys(before.bySite).length === 0) {
    return sql<boolean>`s.latest_checked_at > 0 AND s.latest_checked_at <= ${cutoffOf(before, '')}`
  }
  const cases = sql.join(
    Object.entries(before.bySite).map(([site, at]) => sql`WHEN ${site} THEN ${at}`),
    sql` `,
  )
  return sql<boolean>`s.latest_checked_at > 0 AND s.latest_checked_at <= (CASE s.site ${cases} ELSE ${before.fallback} END)`
}

/** The Sites that have Series (from their counts row), or just the one asked for. */
async function sitesOf(db: Db, site: string | undefined): Promise<string[]> {
  if (site) return [site]
  return (await sql<{ site: string }>`SELECT site FROM series_counts WHERE series > 0`.execute(db)).rows.map((r) => r.site)
}

/** Stale as index ranges, one per Site: `series_site_checked (site, latest_checked_at)`. */
function staleRanges(before: StaleBefore, sites: string[]): RawBuilder<boolean> {
  if (sites.length === 0) return sql<boolean>`0`
  return sql<boolean>`(${sql.join(
    sites.map((site) => sql`(s.site = ${site} AND s.latest_checked_at BETWEEN 1 AND ${cutoffOf(before, site)})`),
    sql` OR `,
  )})`
}

/** How many Series are stale: one range count per Site. */
async function staleCount(db: Db, before: StaleBefore, site: string | undefined): Promise<number> {
  let n = 0
  for (const s of await sitesOf(db, site)) {
    const row = await sql<{ stale: number }>`
      SELECT COUNT(*) AS stale FROM series INDEXED BY series_site_checked
      WHERE site = ${s} AND latest_checked_at BETWEEN 1 AND ${cutoffOf(before, s)}`.execute(db)
    n += row.rows[0]!.stale // an aggregate without GROUP BY always returns its one row
  }
  return n
}

function searchTerm(search: string | undefined): RawBuilder<boolean> | null {
  if (!search?.trim()) return null
  const pattern = `%${search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  return sql<boolean>`(s.title LIKE ${pattern} ESCAPE '\\' OR s.series_id LIKE ${pattern} ESCAPE '\\' OR s.series_url LIKE ${pattern} ESCAPE '\\')`
}

/** A page's continuation, opaque to callers: the sort, its key and the row's primary key. */
function encodeCursor(sort: SeriesSort, row: SeriesRow): string {
  return Buffer.from(JSON.stringify([sort, SORTS[sort].key(row), row.site, row.series_id])).toString('base64url')
}

function decodeCursor(sort: SeriesSort, cursor: string): [string | number, string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
    if (
      Array.isArray(value) &&
      value.length === 4 &&
      value[0] === sort &&
      (typeof value[1] === 'string' || typeof value[1] === 'number') &&
      typeof value[2] === 'string' &&
      typeof value[3] === 'string'
    ) {
      return [value[1], value[2], value[3]]
    }
  } catch {
    // Falls through to the error below.
  }
  throw new AppError('invalid', `store: "after" is not the next page of a Series list sorted by ${sort}`)
}

const asListRow = (row: SeriesRow): SeriesListRow => ({ ...row, pending: row.force_poll_at > row.latest_checked_at })

/** One page of Series matching a filter, a Site and a search, with the total that matched when asked. */
export async function listSeries(db: Db, query: SeriesQuery): Promise<SeriesListPage> {
  const sort = SORTS[query.sort ?? 'title']
  const limit = query.limit ?? 100
  const terms: Array<RawBuilder<boolean>> = []
  if (query.site) terms.push(sql<boolean>`s.site = ${query.site}`)
  const search = searchTerm(query.search)
  if (search) terms.push(search)

  // Which index the page is read from: the filter's own, else the order's (per Site where there is one).
  let index = query.site && sort.siteIndex ? sort.siteIndex : sort.index
  let total: number | undefined
  if (query.filter === 'stale') {
    const stale = await staleCount(db, query.staleBefore, query.site)
    if (query.count !== false) total = stale
    if (stale <= STALE_SORTED_UP_TO && !search) {
      terms.push(staleRanges(query.staleBefore, await sitesOf(db, query.site)))
      index = 'series_site_checked'
    } else {
      terms.push(staleTerm(query.staleBefore))
    }
  } else if (query.filter === 'new') {
    // The Series whose Latest Chapter moved forward since newSince: a range of the latest change's index,
    // counted there; few of them are read from it and sorted, many by walking the order's own index (as stale).
    const term = sql<boolean>`s.latest_changed_at > 0 AND s.latest_changed_at >= ${query.newSince ?? 0}`
    const site = query.site ? sql<boolean>`s.site = ${query.site}` : sql<boolean>`1`
    const counted = await sql<{ n: number }>`
      SELECT COUNT(*) AS n FROM series s INDEXED BY series_changed WHERE ${term} AND ${site}`.execute(db)
    const fresh = counted.rows[0]!.n
    if (query.count !== false && !search) total = fresh
    terms.push(term)
    if (fresh <= STALE_SORTED_UP_TO || query.sort === 'changed') index = 'series_changed'
  } else if (query.filter) {
    terms.push(FILTERS[query.filter].where)
    index = FILTERS[query.filter].index
  }

  const where = (more: Array<RawBuilder<boolean>> = []) => {
    const all = [...terms, ...more]
    return all.length ? sql`WHERE ${sql.join(all, sql` AND `)}` : sql``
  }
  /** The rows the terms select, counted: from the counts kept per Site when nothing narrows them, else the index. */
  const countAll = async (): Promise<number> => {
    if (!query.filter && !search) {
      const row = await sql<{ n: number | null }>`
        SELECT SUM(series) AS n FROM series_counts ${query.site ? sql`WHERE site = ${query.site}` : sql``}`.execute(db)
      return row.rows[0]!.n ?? 0
    }
    const row = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM series s INDEXED BY ${sql.raw(index)} ${where()}`.execute(db)
    return row.rows[0]!.n
  }
  // The stale and new filters have counted already.
  if (query.count !== false) total ??= await countAll()

  const from = query.after ? sort.after(...decodeCursor(query.sort ?? 'title', query.after)) : null
  // The stale ranges are several index ranges OR'd: SQLite reads each through the index it names itself.
  const indexed = index === 'series_site_checked' ? sql`` : sql`INDEXED BY ${sql.raw(index)}`
  const result = await sql<SeriesRow>`
    SELECT s.* FROM series s ${indexed} ${where(from ? [from] : [])} ${sort.order}
    LIMIT ${limit} OFFSET ${from ? 0 : (query.offset ?? 0)}
  `.execute(db)
  const rows = result.rows.map(asListRow)
  const last = rows.at(-1)
  return {
    ...(total !== undefined ? { total } : {}),
    rows,
    ...(last && rows.length === limit ? { next: encodeCursor(query.sort ?? 'title', last) } : {}),
  }
}

/** One Series with its list figures, or undefined. */
export async function getSeriesListRow(db: Db, key: SeriesKey): Promise<SeriesListRow | undefined> {
  const row = await db
    .selectFrom('series')
    .selectAll()
    .where('site', '=', key.site)
    .where('series_id', '=', key.seriesId)
    .executeTakeFirst()
  return row ? asListRow(row) : undefined
}

export type { OverviewCounts } from '../../shared/domain'

/**
 * The Overview's counts, each from an index sized by what it counts: the Series from the per-Site counts, the
 * state filters from their own small indexes, stale from one range per Site. Nothing reads the whole table.
 */
export async function overviewCounts(db: Db, staleBefore: StaleBefore): Promise<OverviewCounts> {
  const result = await sql<Record<Exclude<keyof OverviewCounts, 'stale'>, number | null>>`
    SELECT
      (SELECT SUM(series) FROM series_counts) AS series,
      (SELECT COUNT(*) FROM series s INDEXED BY series_unchecked WHERE ${FILTERS.unchecked.where}) AS unchecked,
      (SELECT COUNT(*) FROM series s INDEXED BY series_pending WHERE ${FILTERS.pending.where}) AS pending,
      (SELECT COUNT(*) FROM series s INDEXED BY series_orphan WHERE ${FILTERS.orphan.where}) AS orphans,
      (SELECT COUNT(*) FROM series s INDEXED BY series_no_url WHERE ${FILTERS['no-url'].where}) AS noUrl,
      (SELECT COUNT(*) FROM series s INDEXED BY series_finished WHERE ${FILTERS.finished.where}) AS finished
  `.execute(db)
  const row = result.rows[0]!
  return {
    series: row.series ?? 0,
    unchecked: row.unchecked ?? 0,
    stale: await staleCount(db, staleBefore, undefined),
    pending: row.pending ?? 0,
    orphans: row.orphans ?? 0,
    noUrl: row.noUrl ?? 0,
    finished: row.finished ?? 0,
  }
}

/**
 * The Series of a Site whose last check was not a chapter, newest first: why its Lane's checks fail. Read from
 * the small index of failed checks (the term is written as that index's).
 */
export async function recentFailures(
  db: Db,
  site: string,
  limit: number,
): Promise<Array<Pick<SeriesRow, 'series_id' | 'title' | 'last_outcome' | 'last_error' | 'last_outcome_at'>>> {
  const result = await sql<Pick<SeriesRow, 'series_id' | 'title' | 'last_outcome' | 'last_error' | 'last_outcome_at'>>`
    SELECT series_id, title, last_outcome, last_error, last_outcome_at FROM series INDEXED BY series_failed
    WHERE site = ${site} AND last_outcome NOT IN ('', 'chapter')
    ORDER BY last_outcome_at DESC LIMIT ${limit}`.execute(db)
  return result.rows
}
