/**
 * The admin operations on title search (docs/adr/0145-search-is-a-request-on-the-lane.md): the Sites and whether
 * each can be searched, a search of one (a request on its Lane, as a Reader's is, without a Reader's bound: the
 * owner's window is one person), and the gone Series found again, which the owner moves or leaves
 * (docs/adr/0147-found-again-is-a-proposal.md).
 */
import type { AdminApi, FoundAgainView } from '../../shared/admin-api'
import { pendingFoundAgain } from '../store/search'
import { acceptFoundAgain, dismissFoundAgain } from '../use-cases/found-again'
import { searchableSites, searchSite } from '../use-cases/search-site'
import type { AdminScope } from './admin-scope'

type SearchOperations = Pick<AdminApi, 'searchSites' | 'searchSite' | 'foundAgain' | 'acceptFoundAgain' | 'dismissFoundAgain'>

export function searchOperations(scope: AdminScope): SearchOperations {
  const { core, db } = scope
  const deps = core.acquireDeps
  const proposals = async (): Promise<FoundAgainView[]> =>
    (await pendingFoundAgain(db)).map((p) => ({ ...p, siteName: scope.siteOf(p.site)?.name ?? p.site }))
  return {
    searchSites: async () => searchableSites(core.registry.sites),
    searchSite: (input) => searchSite(deps, { site: input.site, query: input.query }),
    foundAgain: proposals,
    async acceptFoundAgain(input) {
      await acceptFoundAgain(deps, { site: input.site, seriesId: input.seriesId })
      return proposals()
    },
    async dismissFoundAgain(input) {
      await dismissFoundAgain(deps, { site: input.site, seriesId: input.seriesId })
      return proposals()
    },
  }
}
