/**
 * The `poll_lanes` aggregate: one row per Site holding the owner's pause and the Site's refusal. The store
 * is the only source of Lane state (docs/adr/0002-the-store-is-the-only-source-of-lane-state.md).
 */
import { compiledOnce, firstRow } from './compiled'
import type { Db } from './database'
import { AppError } from '../../shared/errors'
import { LONGEST_PAUSE_MS } from '../../shared/domain'
import type { LaneRow } from './schema'

/** Makes sure a Site has its Lane row, so one-row-per-Site reads see every Lane. */
export async function ensureLane(db: Db, site: string): Promise<void> {
  await db
    .insertInto('poll_lanes')
    .values({ site })
    .onConflict((oc) => oc.column('site').doNothing())
    .execute()
}

const LANE_ROW = compiledOnce((db, site: string) => db.selectFrom('poll_lanes').selectAll().where('site', '=', site))

/** The Lane's row; a Site never paused nor refused reads as zeros. */
export async function laneRow(db: Db, site: string): Promise<LaneRow> {
  // Read before every check (the gate): compiled once (store/compiled.ts).
  const row = await firstRow(LANE_ROW, db, site)
  return row ?? { site, paused_until: 0, refuse_until: 0, refuse_ms: 0 }
}

export async function allLanes(db: Db): Promise<LaneRow[]> {
  return db.selectFrom('poll_lanes').selectAll().orderBy('site').execute()
}

/** Pauses a Lane until a time in the future. Expiry is mandatory: an `until` not after `now` is refused. */
export async function pauseLane(db: Db, site: string, until: number, now: number): Promise<LaneRow> {
  if (!Number.isSafeInteger(until) || until <= now) {
    throw new AppError('invalid', `pause of "${site}" must end in the future (until=${until}, now=${now})`)
  }
  await db
    .insertInto('poll_lanes')
    .values({ site, paused_until: until })
    .onConflict((oc) => oc.column('site').doUpdateSet({ paused_until: until }))
    .execute()
  return laneRow(db, site)
}

/** Ends a pause by zeroing `paused_until`. The row stays: it also holds `refuse_until`. */
export async function resumeLane(db: Db, site: string): Promise<LaneRow> {
  await db.updateTable('poll_lanes').set({ paused_until: 0 }).where('site', '=', site).execute()
  return laneRow(db, site)
}

/** Lanes paused at `now`. */
export async function pausedLanes(db: Db, now: number): Promise<LaneRow[]> {
  return db.selectFrom('poll_lanes').selectAll().where('paused_until', '>', now).orderBy('site').execute()
}

/**
 * A refusal closes the Lane until `until`; durable across restarts. `lengthMs` is how long from now that is,
 * kept with it so the bound against a wall clock set back is the refusal's own (docs/adr/0047-retry-after-and-encodings.md);
 * 0 means the Site's refusal backoff.
 */
export async function recordRefusal(db: Db, site: string, until: number, lengthMs = 0): Promise<void> {
  const values = { refuse_until: until, refuse_ms: lengthMs }
  await db
    .insertInto('poll_lanes')
    .values({ site, ...values })
    .onConflict((oc) => oc.column('site').doUpdateSet(values))
    .execute()
}

/** How long a Lane's current refusal was set for: its own length, or the Site's backoff for one recorded without it. */
export function refusalLengthOf(lane: Pick<LaneRow, 'refuse_ms'>, refusalBackoffMs: number): number {
  return lane.refuse_ms > 0 ? lane.refuse_ms : refusalBackoffMs
}

/**
 * Keeps a Lane's pause and refusal from lasting longer from `now` than the app set them (the longest pause; the
 * refusal's own length), which only a wall clock set back can cause (docs/adr/0011-time-and-the-wall-clock.md).
 * Returns the row when it changed it, else undefined.
 */
export async function boundLaneTimes(db: Db, lane: LaneRow, now: number, refusalBackoffMs: number): Promise<LaneRow | undefined> {
  const refuseBound = now + refusalLengthOf(lane, refusalBackoffMs)
  const pauseBound = now + LONGEST_PAUSE_MS
  if (lane.refuse_until <= refuseBound && lane.paused_until <= pauseBound) return undefined
  await db
    .updateTable('poll_lanes')
    .set({ refuse_until: Math.min(lane.refuse_until, refuseBound), paused_until: Math.min(lane.paused_until, pauseBound) })
    .where('site', '=', lane.site)
    .execute()
  return laneRow(db, lane.site)
}
