/**
 * The `poll_passes` aggregate: one durable row per Lane pass, the proof that a Lane is alive or the reason
 * it declined to work.
 */
import { sql } from 'kysely'
import type { Db } from './database'
import type { PassRow } from './schema'
import { ensureLane } from './lanes'

export type PassFigures = Omit<PassRow, 'id'>

/**
 * Carry-forward (docs/design.md#the-lane-pass): a pass that returned before computing its figures — its own gap is 0 — takes
 * the previous pass's due, gap, clamped and checked, so no row states a zero it did not measure.
 */
export function carryForward(pass: PassFigures, previous: PassRow | undefined): PassFigures {
  if (pass.gap !== 0 || !previous) return pass
  return { ...pass, due: previous.due, gap: previous.gap, clamped: previous.clamped, checked: previous.checked }
}

/** Writes a pass row, applying carry-forward, and returns it as stored. */
export async function insertPass(db: Db, pass: PassFigures): Promise<PassRow> {
  return (await insertPasses(db, [pass]))[0]!
}

/**
 * Writes pass rows of one Site in the order given, in one transaction, each with carry-forward from the row
 * before it — a Lane's rows held while the store could not take them, then its newest
 * (docs/adr/0045-storage-faults.md). Returns them as stored.
 */
export async function insertPasses(db: Db, passes: readonly PassFigures[]): Promise<PassRow[]> {
  if (passes.length === 0) return []
  return db.transaction().execute(async (trx) => {
    const stored: PassRow[] = []
    await ensureLane(trx, passes[0]!.site)
    for (const pass of passes) {
      if (pass.site !== passes[0]!.site) throw new Error(`store: pass rows of one Site at a time (${passes[0]!.site}, ${pass.site})`)
      const row = carryForward(pass, stored.at(-1) ?? (await latestPass(trx, pass.site)))
      stored.push(await trx.insertInto('poll_passes').values(row).returningAll().executeTakeFirstOrThrow())
    }
    return stored
  })
}

export async function latestPass(db: Db, site: string): Promise<PassRow | undefined> {
  return db.selectFrom('poll_passes').selectAll().where('site', '=', site).orderBy('id', 'desc').limit(1).executeTakeFirst()
}

/**
 * The latest pass of every Lane, in one query. Each Site's newest row is found by an index seek on
 * (site, id) from its `poll_lanes` row, never by scanning `poll_passes`.
 */
export async function latestPassPerSite(db: Db): Promise<PassRow[]> {
  const result = await sql<PassRow>`
    SELECT p.* FROM poll_lanes l
    JOIN poll_passes p ON p.id = (SELECT MAX(id) FROM poll_passes WHERE site = l.site)
    ORDER BY p.site
  `.execute(db)
  return result.rows
}

/** A Site's recent passes, newest first, for the Lanes page chart. */
export async function recentPasses(db: Db, site: string, limit: number): Promise<PassRow[]> {
  return db.selectFrom('poll_passes').selectAll().where('site', '=', site).orderBy('id', 'desc').limit(limit).execute()
}

/**
 * Retention: deletes pass rows that ended before `before`, except each Lane's newest row, which keeps a
 * long-silent Lane readable as silent rather than as never run. Returns how many went.
 */
export async function prunePasses(db: Db, before: number): Promise<number> {
  // (Not a correlated MAX per poll_lanes row: a Lane with no passes would add a NULL, and NOT IN (…, NULL)
  // deletes nothing.)
  const result = await sql`
    DELETE FROM poll_passes
    WHERE ended_at < ${before}
      AND id NOT IN (SELECT MAX(id) FROM poll_passes GROUP BY site)
  `.execute(db)
  return Number(result.numAffectedRows ?? 0n)
}
