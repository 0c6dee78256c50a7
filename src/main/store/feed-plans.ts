/**
 * What a Site's latest-updates page changes in the store (docs/adr/0165-site-feeds.md): the plans of an adaptive
 * Site's Series — a Sighting from the Site plans a check now; a Series the page shows unchanged, or covers
 * without showing it, has its plan moved after the page's next read, never past its safety ceiling. No Latest
 * Chapter is ever written here: only a check writes one.
 */
import { sql } from 'kysely'
import type { Db } from './database'

export interface FeedSeries {
  series_id: string
  latest_chapter: number | null
  latest_checked_at: number
  next_check_at: number
}

/** A Series URL of the Site to make the feed's request from (its origin, its Series directory), or null. */
export async function sampleSeriesUrl(db: Db, site: string): Promise<string | null> {
  const row = await db
    .selectFrom('series')
    .select('series_url')
    .where('site', '=', site)
    .where('series_url', '<>', '')
    .where('reader_count', '>', 0)
    .orderBy('latest_checked_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  return row?.series_url ?? null
}

/** How many bookmarked Series of the Site a feed stands for (eligible ones: a URL, a Reader, not Finished). */
export async function heldCount(db: Db, site: string): Promise<number> {
  const row = await db
    .selectFrom('series')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('site', '=', site)
    .where('series_url', '<>', '')
    .where('reader_count', '>', 0)
    .where('finished_at', '=', 0)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/** The bookmarked, eligible Series among `ids` (the ones a feed names). */
export async function feedSeries(db: Db, site: string, ids: readonly string[]): Promise<FeedSeries[]> {
  if (ids.length === 0) return []
  return db
    .selectFrom('series')
    .select(['series_id', 'latest_chapter', 'latest_checked_at', 'next_check_at'])
    .where('site', '=', site)
    .where('series_id', 'in', [...ids])
    .where('series_url', '<>', '')
    .where('reader_count', '>', 0)
    .where('finished_at', '=', 0)
    .execute()
}

export interface FeedPlan {
  site: string
  now: number
  /** Sightings from the Site: planned now. */
  sighted: readonly string[]
  /** Seen on the page with no chapter above their Latest Chapter: no check needed now. */
  unchanged: readonly string[]
  /** Series checked at or after this are covered by the page without being on it (null: the page covers none). */
  coveredSince: number | null
  /** A plan that comes before this is moved to it (the page's next read, with a margin). */
  until: number
  /** The safety ceiling: no plan is moved past the Series' last check plus this. */
  safetyMs: number
}

/**
 * Writes a feed's verdicts as plans, in one transaction; returns how many plans moved each way. Only a Series whose
 * last check read its page is postponed (ADR 0200): the ceiling counts from a check that read it, and a check that
 * failed is tried again by the cadence, never put off by the page for another ceiling.
 */
export async function applyFeedPlan(db: Db, plan: FeedPlan): Promise<{ sighted: number; postponed: number }> {
  return db.transaction().execute(async (trx) => {
    let sighted = 0
    if (plan.sighted.length) {
      const result = await trx
        .updateTable('series')
        .set({ next_check_at: plan.now })
        .where('site', '=', plan.site)
        .where('series_id', 'in', [...plan.sighted])
        .where((eb) => eb.or([eb('next_check_at', '=', 0), eb('next_check_at', '>', plan.now)]))
        .executeTakeFirst()
      sighted = Number(result.numUpdatedRows)
    }
    const target = sql<number>`MIN(latest_checked_at + ${plan.safetyMs}, ${plan.until})`
    const postpone = (covered: ReturnType<typeof sql>) =>
      sql`UPDATE series SET next_check_at = ${target}
          WHERE site = ${plan.site} AND next_check_at BETWEEN 1 AND ${plan.until} AND next_check_at < ${target}
            AND force_poll_at <= latest_checked_at AND last_outcome = 'chapter' AND last_outcome_at >= latest_checked_at
            AND ${covered}`.execute(trx)
    let postponed = 0
    if (plan.unchanged.length) {
      const r = await postpone(sql`series_id IN (${sql.join(plan.unchanged)})`)
      postponed += Number(r.numAffectedRows ?? 0)
    }
    if (plan.coveredSince !== null) {
      const seen = [...plan.sighted, ...plan.unchanged]
      const notSeen = seen.length ? sql`AND series_id NOT IN (${sql.join(seen)})` : sql``
      const r = await postpone(sql`latest_checked_at >= ${plan.coveredSince} ${notSeen}`)
      postponed += Number(r.numAffectedRows ?? 0)
    }
    return { sighted, postponed }
  })
}

/**
 * The wall clock was set forward by `ms` (ADR 0238): each stamp of the Site's Series written on the old clock (at or
 * before `before`) moves forward with it — the check stamp (the safety ceiling counts from it), its outcome's, and a
 * Check now pressed before the step — so a Series is due when it was on the old clock, not `ms` early. A Check now
 * pending stays pending. Plans are left: one made on the old clock comes early (a check too soon, never late), and
 * the read that saw the step moves the ones it covers. Returns how many Series moved.
 */
export async function stampsSteppedForward(db: Db, site: string, ms: number, before: number): Promise<number> {
  const moved = (column: string) =>
    sql`(CASE WHEN ${sql.ref(column)} BETWEEN 1 AND ${before} THEN ${sql.ref(column)} + ${ms} ELSE ${sql.ref(column)} END)`
  const result = await sql`
    UPDATE series SET
      latest_checked_at = latest_checked_at + ${ms},
      last_outcome_at = ${moved('last_outcome_at')},
      force_poll_at = CASE WHEN force_poll_at > latest_checked_at
        THEN MAX(${moved('force_poll_at')}, latest_checked_at + ${ms} + 1) ELSE force_poll_at END
    WHERE site = ${site} AND latest_checked_at BETWEEN 1 AND ${before}
  `.execute(db)
  return Number(result.numAffectedRows ?? 0n)
}
