/**
 * What a Lane pass reads about its Site's Series: the due query, the eligible count (the pace divisor) and
 * the newest check stamp. The semantics are the design's (docs/design.md#the-due-query); the shape is for a
 * large library (docs/adr/0050-the-due-query-reads-what-a-pass-can-use.md): a pass reads how many are due,
 * then only as many as it can check, from an index range on the check stamp and a small index of the Series
 * pending a Check now — never the Site's whole table.
 */
import { sql, type RawBuilder } from 'kysely'
import type { Db } from './database'
import type { SeriesRow } from './schema'

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
  /**
   * An adaptive Site's (docs/adr/0014-freshness-per-request.md): now. A Series with a planned check is due when
   * its plan is at or before it; one with no plan, after the rest. Absent for a fixed Site: every Series rests.
   */
  plannedBy?: number
  /**
   * How many checks one rest holds at the Site's pace (rest / minGap). When the Site has more eligible Series
   * than that, a Reader holding more than their share of it (this over the Readers holding any) is served after
   * every Series another Reader holds (docs/adr/0081-one-reader-bounded.md). Absent: no fair share.
   */
  restCapacity?: number
}

/** What the whole due set of a Site looks like, without reading it. */
export interface DueFigures {
  /** How many Series are due: the pass row's `due`. */
  due: number
  /** How many of them are pending a Check now. */
  forced: number
  /**
   * The oldest check stamp among them (0 when one was never checked, or none is due). An adaptive Site's
   * planned Series counts its plan less a rest: a Series planned hours after its check has waited only since
   * its plan, as a fixed Series waits only since its rest ran out (the browser's wake threshold reads it).
   */
  oldestCheckedAt: number
}

/** The Series pending a Check now: it overrides the rest cutoff, the Sighting deferral and the Finished gate. */
const FORCED = (site: string) => sql`
  s.site = ${site} AND s.force_poll_at > s.latest_checked_at AND s.series_url <> '' AND s.reader_count > 0`

/**
 * The rest of the due set: eligible Series checked at or before the rest cutoff, less those deferred by a
 * recent Sighting (one Reader, sighted within the rest, checked within the ceiling). A forced Series overrides
 * exactly the three gates above and nothing else (docs/adr/0001-commands-through-the-database.md): never an
 * empty URL, never an orphan. `reader_count` is the number of bookmarks holding the Series (kept by triggers),
 * the join's COUNT(*) of old. The URL test is written `(series_url <> '') = 1`, the expression the indexes
 * hold, so a Series passed over costs no table read.
 */
const UNFORCED = (site: string, { restCutoff, ceilingCutoff }: DueCutoffs) => sql`
  s.site = ${site} AND s.latest_checked_at <= ${restCutoff}
  AND (s.series_url <> '') = 1 AND s.finished_at = 0 AND s.reader_count > 0
  AND s.force_poll_at <= s.latest_checked_at
  AND (s.reader_count > 1 OR s.latest_sighted_at <= ${restCutoff} OR s.latest_checked_at <= ${ceilingCutoff})`

/** What is due besides the check stamp's range: the gates every unforced Series passes, whatever its Site's cadence. */
const GATES = ({ restCutoff, ceilingCutoff }: DueCutoffs) => sql`
  (s.series_url <> '') = 1 AND s.finished_at = 0 AND s.reader_count > 0
  AND s.force_poll_at <= s.latest_checked_at
  AND (s.reader_count > 1 OR s.latest_sighted_at <= ${restCutoff} OR s.latest_checked_at <= ${ceilingCutoff})`

/**
 * An adaptive Site's unforced due set, in two ranges of `series_planned`: Series whose planned check has come,
 * and Series with no plan (never checked since the Site became adaptive) past the rest. Every other gate is the
 * fixed Site's.
 */
const PLANNED = (site: string, cutoffs: DueCutoffs) => sql`
  s.site = ${site} AND s.next_check_at BETWEEN 1 AND ${cutoffs.plannedBy ?? 0} AND ${GATES(cutoffs)}`
const UNPLANNED = (site: string, cutoffs: DueCutoffs) => sql`
  s.site = ${site} AND s.next_check_at = 0 AND s.latest_checked_at <= ${cutoffs.restCutoff} AND ${GATES(cutoffs)}`

/** The order a pass takes them in; the final `series_id` only makes ties deterministic. */
const ORDER = sql`ORDER BY s.reader_count DESC, s.latest_checked_at ASC, s.series_id ASC`

/**
 * Above this many due Series (per row a pass asks for) the first few are read in the pass's order from
 * `series_due_order`, stopping at the last one wanted; below it the due range is read by check stamp and
 * sorted, which costs less when few are due. Either way the same rows come back.
 */
const WALK_ABOVE_PER_ROW = 8

/**
 * How many Series of a Site are due, how many of them forced, and the oldest check stamp among them — one pass
 * over the due range of an index, reading no table row. With nothing due it reads nothing. Each index is named,
 * so the plan does not drift with the statistics (docs/adr/0053-retention-and-statistics.md).
 */
export async function dueFigures(db: Db, site: string, cutoffs: DueCutoffs): Promise<DueFigures> {
  if (cutoffs.plannedBy !== undefined) return plannedFigures(db, site, cutoffs)
  const result = await sql<{ due: number; forced: number | null; oldest: number | null }>`
    SELECT COUNT(*) AS due, SUM(forced) AS forced, MIN(latest_checked_at) AS oldest FROM (
      SELECT 1 AS forced, s.latest_checked_at FROM series s INDEXED BY series_pending WHERE ${FORCED(site)}
      UNION ALL
      SELECT 0 AS forced, s.latest_checked_at FROM series s INDEXED BY series_due WHERE ${UNFORCED(site, cutoffs)})
  `.execute(db)
  // An aggregate without GROUP BY always returns its one row.
  const row = result.rows[0]!
  return { due: row.due, forced: row.forced ?? 0, oldestCheckedAt: row.oldest ?? 0 }
}

/**
 * The due Series of a Site in the order a pass checks them — forced first, then by Reader count, then the
 * oldest check — at most `limit` of them (a pass takes no more than it can check before maxPassMs;
 * docs/adr/0050-the-due-query-reads-what-a-pass-can-use.md). `figures`, when the caller has them, choose the
 * cheaper of two reads of the same rows.
 */
export async function dueSeries(
  db: Db,
  site: string,
  cutoffs: DueCutoffs,
  limit = -1,
  figures?: Pick<DueFigures, 'due' | 'forced'>,
): Promise<DueSeries[]> {
  const forced =
    figures?.forced === 0
      ? []
      : (
          await sql<DueSeries>`
            SELECT s.*, 1 AS forced FROM series s INDEXED BY series_pending WHERE ${FORCED(site)} ${ORDER} LIMIT ${limit}`.execute(db)
        ).rows
  // What is left of the limit (forced rows never outnumber it); any negative LIMIT is no limit to SQLite.
  const left = limit - forced.length
  if (left === 0 || (figures && figures.due === forced.length)) return forced
  const over = cutoffs.restCapacity === undefined ? [] : await overShareReaders(db, site, cutoffs.restCapacity)
  if (over.length === 0) {
    const walk = figures !== undefined && left > 0 && figures.due - figures.forced > left * WALK_ABOVE_PER_ROW
    return [...forced, ...(await unforcedSeries(db, site, cutoffs, left, walk, sql``))]
  }
  // A fair share (docs/adr/0081-one-reader-bounded.md): the Series another Reader holds first, in the usual
  // order; those only over-share Readers hold after them.
  const fair = await unforcedSeries(db, site, cutoffs, left, false, sql`AND EXISTS (${heldByOthers(over)})`)
  const more = left - fair.length
  if (more === 0) return [...forced, ...fair]
  return [...forced, ...fair, ...(await unforcedSeries(db, site, cutoffs, more, false, sql`AND NOT EXISTS (${heldByOthers(over)})`))]
}

/** A bookmark of the Series by a Reader not in `over`. */
const heldByOthers = (over: number[]) => sql`
  SELECT 1 FROM bookmarks b WHERE b.site = s.site AND b.series_id = s.series_id AND b.reader_id NOT IN (${sql.join(over)})`

/** The unforced due Series in the pass's order, at most `left`, with `extra` as one more condition. */
async function unforcedSeries(
  db: Db,
  site: string,
  cutoffs: DueCutoffs,
  left: number,
  walk: boolean,
  extra: RawBuilder<unknown>,
): Promise<DueSeries[]> {
  if (cutoffs.plannedBy !== undefined) return plannedSeries(db, site, cutoffs, left, walk, extra)
  const rest = walk
    ? await sql<DueSeries>`
        SELECT s.*, 0 AS forced FROM series s INDEXED BY series_due_order WHERE ${UNFORCED(site, cutoffs)} ${extra} ${ORDER} LIMIT ${left}`.execute(
        db,
      )
    : await sql<DueSeries>`
        SELECT s.*, 0 AS forced FROM series s INDEXED BY series_due WHERE ${UNFORCED(site, cutoffs)} ${extra} ${ORDER} LIMIT ${left}`.execute(
        db,
      )
  return rest.rows
}

/**
 * The Readers holding more than their share of a Site whose eligible Series are more than a rest holds: more
 * than `restCapacity` over the number of Readers holding any of its Series. None while every eligible Series
 * fits in a rest (one row read), or when every Reader is over it (nobody to serve first). The counts come from
 * `reader_site_counts` (one row per Reader holding any Series of the Site, kept by triggers; migration 0011),
 * so the share costs two reads of a Site's few rows, whatever its bookmarks
 * (docs/adr/0081-one-reader-bounded.md).
 */
export async function overShareReaders(db: Db, site: string, restCapacity: number): Promise<number[]> {
  if ((await eligibleCount(db, site)) <= restCapacity) return []
  // An aggregate answers one row. More eligible Series than a rest holds means some Reader holds them, so
  // `holders` is at least one here; were it none, the share would be infinite and nobody over it.
  const result = await sql<{ holders: number; least: number; most: number }>`
    SELECT COUNT(*) AS holders, COALESCE(MIN(bookmarks), 0) AS least, COALESCE(MAX(bookmarks), 0) AS most
    FROM reader_site_counts WHERE site = ${site} AND bookmarks > 0`.execute(db)
  const { holders, least, most } = result.rows[0]!
  const share = restCapacity / holders
  // Nobody over, or every Reader over their share: nobody to serve first, and the usual order reads fewest rows.
  if (most <= share || least > share) return []
  const over = await sql<{ reader_id: number }>`
    SELECT reader_id FROM reader_site_counts WHERE site = ${site} AND bookmarks > ${share} ORDER BY reader_id`.execute(db)
  return over.rows.map((r) => r.reader_id)
}

/** dueFigures for an adaptive Site: the same figures, from the two ranges of `series_planned`. */
async function plannedFigures(db: Db, site: string, cutoffs: DueCutoffs): Promise<DueFigures> {
  const result = await sql<{ due: number; forced: number | null; oldest: number | null }>`
    SELECT COUNT(*) AS due, SUM(forced) AS forced, MIN(latest_checked_at) AS oldest FROM (
      SELECT 1 AS forced, s.latest_checked_at FROM series s INDEXED BY series_pending WHERE ${FORCED(site)}
      UNION ALL
      SELECT 0 AS forced, s.next_check_at - ${(cutoffs.plannedBy ?? 0) - cutoffs.restCutoff} FROM series s INDEXED BY series_planned WHERE ${PLANNED(site, cutoffs)}
      UNION ALL
      SELECT 0 AS forced, s.latest_checked_at FROM series s INDEXED BY series_planned WHERE ${UNPLANNED(site, cutoffs)})
  `.execute(db)
  const row = result.rows[0]! // an aggregate without GROUP BY always returns its one row
  return { due: row.due, forced: row.forced ?? 0, oldestCheckedAt: row.oldest ?? 0 }
}

/**
 * dueSeries' unforced part for an adaptive Site, in the same order: a large due set walked in order from
 * `series_due_order` (which holds the plan, so a Series passed over costs no row), a small one read from the two
 * ranges of `series_planned` and sorted.
 */
async function plannedSeries(
  db: Db,
  site: string,
  cutoffs: DueCutoffs,
  left: number,
  walk: boolean,
  extra: RawBuilder<unknown>,
): Promise<DueSeries[]> {
  const result = walk
    ? await sql<DueSeries>`
        SELECT s.*, 0 AS forced FROM series s INDEXED BY series_due_order
        WHERE s.site = ${site} AND s.reader_count > 0
          AND ((s.next_check_at BETWEEN 1 AND ${cutoffs.plannedBy ?? 0}) OR (s.next_check_at = 0 AND s.latest_checked_at <= ${cutoffs.restCutoff}))
          AND ${GATES(cutoffs)} ${extra}
        ${ORDER} LIMIT ${left}`.execute(db)
    : await sql<DueSeries>`
        SELECT * FROM (
          SELECT s.*, 0 AS forced FROM series s INDEXED BY series_planned WHERE ${PLANNED(site, cutoffs)} ${extra}
          UNION ALL
          SELECT s.*, 0 AS forced FROM series s INDEXED BY series_planned WHERE ${UNPLANNED(site, cutoffs)} ${extra})
        ORDER BY reader_count DESC, latest_checked_at ASC, series_id ASC LIMIT ${left}`.execute(db)
  return result.rows
}

/**
 * The eligible count, the pace divisor: Series with a URL, not Finished, held by a Reader. Deliberately no
 * force clause, so one press never speeds up every other fetch on the Site. Kept per Site by triggers on
 * `series` (migration 0007), so a pass reads one row instead of counting the Site while nothing changed.
 */
export async function eligibleCount(db: Db, site: string): Promise<number> {
  const result = await sql<{ n: number }>`SELECT eligible AS n FROM series_counts WHERE site = ${site}`.execute(db)
  return result.rows[0]?.n ?? 0
}

/** The newest check stamp of a Site: when this app last fetched from it (0 = never). */
export async function lastCheckedAt(db: Db, site: string): Promise<number> {
  const row = await db
    .selectFrom('series')
    .select((eb) => eb.fn.max('latest_checked_at').as('at'))
    .where('site', '=', site)
    .executeTakeFirstOrThrow()
  return Number(row.at ?? 0)
}
