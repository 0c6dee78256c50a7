/**
 * Keeping the store bounded and its query plans current (docs/adr/0053-retention-and-statistics.md): what is
 * kept how long, the pruning of what is older, and the planner's statistics. Times are parameters.
 */
import { sql } from 'kysely'
import type { Db } from './database'

const DAY = 86_400_000

/** How long things are kept. Pass rows and orphan Series are the Lanes' (src/main/lanes/lane.ts). */
export const RETENTION = {
  /** A Sighting a check judged (confirmed or suspicious); an outstanding one is kept until judged. */
  judgedSightingsMs: 90 * DAY,
  /**
   * A Sighting no check judged (its Series unchecked: a refusing Site, a Finished Series): it goes after a
   * week, so what a Reader reports cannot pile up (docs/adr/0081-one-reader-bounded.md).
   */
  outstandingSightingsMs: 7 * DAY,
  /** A removed bookmark, as `GET /bookmarks?since=` reports it; a `since` older than this syncs in full. */
  removalsMs: 90 * DAY,
} as const

/** Deletes Sightings judged before `before` (never an outstanding one). Returns how many went. */
export async function pruneJudgedSightings(db: Db, before: number): Promise<number> {
  // Written as the partial index `sightings_judged` is, so the delete reads only that index's range.
  const result = await sql`DELETE FROM sightings WHERE verdict <> '' AND judged_at < ${before}`.execute(db)
  return Number(result.numAffectedRows ?? 0n)
}

/** Deletes outstanding Sightings made before `before`, which no check judged. Returns how many went. */
export async function pruneOutstandingSightings(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom('sightings').where('verdict', '=', '').where('sighted_at', '<', before).executeTakeFirst()
  return Number(result.numDeletedRows)
}

/**
 * Brings the planner's statistics up to date where the data changed enough to matter — usually nothing, at
 * most a bounded sample of a table (SQLite's `PRAGMA optimize`, run hourly by the Lanes' retention task; at
 * open the store runs it for tables never analysed).
 */
export async function optimizeStore(db: Db): Promise<void> {
  await sql`PRAGMA optimize`.execute(db)
}
