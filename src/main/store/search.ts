/**
 * What a title search reads and writes: which results are followed already, and a gone Series found again at
 * another URL, kept as a proposal until the owner answers (docs/adr/0147-found-again-is-a-proposal.md).
 */
import type { Db } from './database'
import type { SeriesKey } from './schema'

/**
 * Of `ids` (series_ids of `site`), those followed: by the Reader when one is named, else by anyone in the
 * household (a Series the app knows).
 */
export async function followedIds(db: Db, site: string, ids: readonly string[], readerId?: number): Promise<Set<string>> {
  if (ids.length === 0) return new Set()
  const rows =
    readerId === undefined
      ? await db.selectFrom('series').select('series_id').where('site', '=', site).where('series_id', 'in', ids).execute()
      : await db
          .selectFrom('bookmarks')
          .select('series_id')
          .where('reader_id', '=', readerId)
          .where('site', '=', site)
          .where('series_id', 'in', ids)
          .execute()
  return new Set(rows.map((r) => r.series_id))
}

export interface FoundAgainProposal {
  site: string
  seriesId: string
  title: string
  fromUrl: string
  toUrl: string
  toTitle: string
  foundAt: number
}

/** Whether the Series' gone run since `goneSince` was searched already. */
export async function searchedSince(db: Db, key: SeriesKey, goneSince: number): Promise<boolean> {
  const row = await db
    .selectFrom('series_found')
    .select('searched_at')
    .where('site', '=', key.site)
    .where('series_id', '=', key.seriesId)
    .executeTakeFirst()
  return row !== undefined && row.searched_at >= goneSince && goneSince > 0
}

/**
 * Records a search of a gone Series: the single match it found (`found`), or none. A URL the owner dismissed is
 * not offered again; a search that finds nothing leaves an earlier unanswered proposal as it was.
 */
export async function recordFoundAgain(db: Db, key: SeriesKey, at: number, found: { url: string; title: string } | null): Promise<boolean> {
  const where = { site: key.site, series_id: key.seriesId }
  const existing = await db
    .selectFrom('series_found')
    .selectAll()
    .where('site', '=', where.site)
    .where('series_id', '=', where.series_id)
    .executeTakeFirst()
  const offered = found !== null && existing?.dismissed !== found.url
  const values = offered ? { to_url: found.url, to_title: found.title, found_at: at, searched_at: at } : { searched_at: at }
  await db
    .insertInto('series_found')
    .values({ ...where, ...values })
    .onConflict((oc) => oc.columns(['site', 'series_id']).doUpdateSet(values))
    .execute()
  return offered
}

/** The proposals the owner has not answered, of Series that still exist, oldest first. */
export async function pendingFoundAgain(db: Db, key?: SeriesKey): Promise<FoundAgainProposal[]> {
  let query = db
    .selectFrom('series_found as f')
    .innerJoin('series as s', (join) => join.onRef('s.site', '=', 'f.site').onRef('s.series_id', '=', 'f.series_id'))
    .select(['f.site', 'f.series_id', 's.title', 's.series_url', 'f.to_url', 'f.to_title', 'f.found_at'])
    .where('f.to_url', '!=', '')
  if (key) query = query.where('f.site', '=', key.site).where('f.series_id', '=', key.seriesId)
  const rows = await query.orderBy('f.found_at').limit(500).execute()
  return rows.map((r) => ({
    site: r.site,
    seriesId: r.series_id,
    title: r.title,
    fromUrl: r.series_url,
    toUrl: r.to_url,
    toTitle: r.to_title,
    foundAt: r.found_at,
  }))
}

/** The owner's answer: a dismissed URL is remembered (not offered again); an accepted one is simply done. */
export async function answerFoundAgain(db: Db, key: SeriesKey, answer: 'accepted' | 'dismissed'): Promise<void> {
  await db
    .updateTable('series_found')
    .set((eb) => ({ to_url: '', ...(answer === 'dismissed' ? { dismissed: eb.ref('to_url') } : {}) }))
    .where('site', '=', key.site)
    .where('series_id', '=', key.seriesId)
    .execute()
}
