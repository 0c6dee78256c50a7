/**
 * A Site that moved: its pages answered with a permanent redirect to another host, which the Lane recorded as a
 * proposal (store/site-moves.ts). The owner accepts — the new host becomes the first of the Site's pin in
 * sites.json and at once in the running Site — or dismisses it (docs/adr/0112-a-permanent-redirect-is-a-proposal.md).
 */
import { AppError } from '../../shared/errors'
import type { SiteRegistry } from '../sites/registry'
import type { Db } from '../store/database'
import { moveSitePin } from '../sites/sites-writer'
import { answerSiteMove, siteMoveOf } from '../store/site-moves'

/** What moving a Site's pin needs: the running Sites, where sites.json lives, and the store. */
interface Deps {
  registry: SiteRegistry
  dataDir: string
  store: { db: Db }
}

/** Moves the Site's pin to the host its pages moved to. */
export async function acceptSiteMove(core: Deps, siteKey: string): Promise<{ hosts: string[] }> {
  const site = core.registry.get(siteKey)
  if (!site) throw new AppError('not-found', `no Site "${siteKey}"`)
  const move = await siteMoveOf(core.store.db, siteKey)
  if (!move) throw new AppError('not-found', `the Site "${site.name}" has no move to accept`)
  const host = new URL(move.to_origin).host
  const written = await moveSitePin(core.dataDir, site, host, core.registry.sites)
  if (!written.ok) throw new AppError('conflict', written.reason)
  core.registry.repin(siteKey, written.hosts)
  await answerSiteMove(core.store.db, siteKey, 'accepted')
  return { hosts: written.hosts }
}

/** Leaves the pin as it is; the same redirect is not proposed again. */
export async function dismissSiteMove(core: Deps, siteKey: string): Promise<void> {
  if (!core.registry.get(siteKey)) throw new AppError('not-found', `no Site "${siteKey}"`)
  if (!(await siteMoveOf(core.store.db, siteKey))) throw new AppError('not-found', `the Site "${siteKey}" has no move to dismiss`)
  await answerSiteMove(core.store.db, siteKey, 'dismissed')
}
