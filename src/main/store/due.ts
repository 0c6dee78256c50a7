/**
 * What a Lane pass reads about its Site's Series: the due query, the eligible count (the pace divisor) and
 * the newest check stamp. The semantics are the design's (docs/design.md#the-due-query).
 */
import { sql } from 'kysely'
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
}

/**
 * The due query, exactly as docs/design.md#the-due-query gives it. A forced Series overrides the rest cutoff, the Sighting
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
