/**
 * A Site whose pages answered with a permanent redirect (301/308) to another host: a proposal to the owner to
 * move the Site's pin, kept until they accept or dismiss it; never acted on by itself
 * (docs/adr/0112-a-permanent-redirect-is-a-proposal.md).
 */
import type { Db } from './database'
import type { SiteMoveRow } from './schema'

/**
 * Records that `fromUrl` of `site` moved permanently to `toOrigin` (scheme://host[:port]). An origin the owner
 * dismissed is not proposed again; a later redirect elsewhere is.
 */
export async function recordSiteMove(db: Db, site: string, move: { toOrigin: string; fromUrl: string; at: number }): Promise<void> {
  const values = { to_origin: move.toOrigin, from_url: move.fromUrl.slice(0, 2_000), seen_at: move.at }
  await db
    .insertInto('site_moves')
    .values({ site, ...values })
    .onConflict((oc) => oc.column('site').doUpdateSet(values).where('site_moves.dismissed', '!=', move.toOrigin))
    .execute()
}

/** The moves the owner has not answered yet, by Site. */
export async function pendingSiteMoves(db: Db): Promise<SiteMoveRow[]> {
  return db.selectFrom('site_moves').selectAll().where('to_origin', '!=', '').orderBy('site').execute()
}

export async function siteMoveOf(db: Db, site: string): Promise<SiteMoveRow | undefined> {
  return db.selectFrom('site_moves').selectAll().where('site', '=', site).where('to_origin', '!=', '').executeTakeFirst()
}

/** The owner's answer: a dismissed origin is remembered (not proposed again); an accepted one is simply done. */
export async function answerSiteMove(db: Db, site: string, answer: 'accepted' | 'dismissed'): Promise<void> {
  await db
    .updateTable('site_moves')
    .set((eb) => ({ to_origin: '', ...(answer === 'dismissed' ? { dismissed: eb.ref('to_origin') } : {}) }))
    .where('site', '=', site)
    .execute()
}
