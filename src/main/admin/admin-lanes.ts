/**
 * The admin operations on Lanes and Sites: the Overview (the counts and every Lane), the Lanes page, pausing and
 * resuming a Lane, and adding a Site from one of its Series' URLs. Nothing here commands a Lane (docs/adr/0001).
 */
import { PAUSE_DURATIONS, type AdminApi, type SiteProposalView } from '../../shared/admin-api'
import { NEW_CHAPTER_MS } from '../../shared/domain'
import { AppError } from '../../shared/errors'
import { pauseLane, resumeLane } from '../store/lanes'
import { overviewCounts } from '../store/series-list'
import { isStorageUnavailable } from '../store/storage'
import { newChapterCount } from '../store/updates'
import { siteProposals } from '../use-cases/site-proposals'
import { acceptSiteMove, dismissSiteMove } from '../use-cases/site-moves'
import type { AdminScope } from './admin-scope'
import { laneViews } from './admin-views'

type LaneOperations = Pick<
  AdminApi,
  'overview' | 'lanes' | 'pauseLane' | 'resumeLane' | 'acceptSiteMove' | 'dismissSiteMove' | 'proposeSite' | 'addSite'
>

export function laneOperations(scope: AdminScope): LaneOperations {
  const { core, db, now, oneLane } = scope
  const newSites = siteProposals(core)
  const knownSite = (site: string) => {
    if (!scope.siteOf(site)) throw new AppError('not-found', `no Site "${site}"`)
  }
  return {
    async overview() {
      try {
        return {
          now: now(),
          counts: { ...(await overviewCounts(db, scope.staleBefore())), newChapters: await newChapterCount(db, now() - NEW_CHAPTER_MS) },
          lanes: await laneViews(core, false),
          siteProblems: [...core.siteProblems],
          storage: scope.storageView(),
        }
      } catch (error) {
        // A database that cannot be read (a damaged page): the answer is what the owner must do about it.
        const problem = core.storage.problem()
        if (isStorageUnavailable(error) && problem) throw new AppError('storage-unavailable', problem.message, { cause: error })
        throw error
      }
    },
    lanes: () => laneViews(core, true),
    async pauseLane(input) {
      knownSite(input.site)
      await pauseLane(db, input.site, now() + PAUSE_DURATIONS[input.duration], now())
      return oneLane(input.site)
    },
    async resumeLane(input) {
      knownSite(input.site)
      await resumeLane(db, input.site)
      return oneLane(input.site)
    },
    async acceptSiteMove(input) {
      await acceptSiteMove(core, input.site)
      return oneLane(input.site)
    },
    async dismissSiteMove(input) {
      await dismissSiteMove(core, input.site)
      return oneLane(input.site)
    },
    async proposeSite({ url }) {
      const proposal = await newSites.propose(url)
      if (!proposal.ok) return proposal
      return {
        ok: true,
        id: proposal.id,
        entry: proposal.entry as Extract<SiteProposalView, { ok: true }>['entry'],
        recognisedBy: proposal.recognisedBy,
        seriesUrl: proposal.seriesUrl,
        preview: proposal.preview,
      }
    },
    async addSite({ proposalId, key, name }) {
      // An empty key or name is the proposal's own (confirm keeps only those given).
      const added = await newSites.confirm(proposalId, { key, name })
      return { lane: await oneLane(added.site.key), seriesUrl: added.seriesUrl }
    },
  }
}
