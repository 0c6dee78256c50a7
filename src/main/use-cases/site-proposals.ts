/**
 * Add a Site from one URL (docs/adr/0028-add-a-site-from-one-url.md): the owner pastes a Series URL of a site
 * the app does not know; the app reads it — plain HTTP, the browser when the page is challenged —, recognises
 * the family, and proposes a `sites.json` entry with a preview. The proposal is kept here, in memory, for a
 * while; confirming it writes the entry atomically and starts the Site's Lane without a restart.
 */
import { randomBytes } from 'node:crypto'
import { AppError } from '../../shared/errors'
import type { Clock } from '../clock'
import type { Fetchers } from '../fetch/fetcher'
import type { PageReader } from '../sites/page-reader'
import type { SiteRegistry } from '../sites/registry'
import { proposeSite, type FetchPage, type SiteProposal } from '../sites/recognise-site'
import { DEFAULT_PACE, type Site } from '../sites/site'
import type { SiteEntry } from '../sites/sites-file'
import { addSiteEntry } from '../sites/sites-writer'

/** How long a proposal waits for its confirm. */
export const PROPOSAL_TTL_MS = 30 * 60_000
const MAX_PROPOSALS = 20

type Proposed = Extract<SiteProposal, { ok: true }>

export interface HeldProposal extends Proposed {
  id: string
}

export interface SiteProposals {
  /** Reads the URL and proposes a Site, or says in words why it cannot. Writes nothing. */
  propose(url: string): Promise<HeldProposal | { ok: false; reason: string }>
  /** Writes the proposal's entry (with the owner's key and name, if given) and starts its Lane. */
  confirm(id: string, changes?: { key?: string; name?: string }): Promise<{ site: Site; seriesUrl: string }>
}

/** What proposing and confirming a Site needs of the app (the core gives it). */
export interface SiteProposalDeps {
  registry: SiteRegistry
  fetchers: Fetchers
  clock: Clock
  dataDir: string
  /** Starts a confirmed Site's Lane without a restart. */
  addSite(site: Site): Promise<void>
  /** Where pages are read (a worker with a deadline); absent: read in process. */
  acquireDeps?: { reader?: PageReader }
}

export function siteProposals(core: SiteProposalDeps): SiteProposals {
  const held = new Map<string, { proposal: Proposed; at: number }>()
  /** Drops the proposals past their time. */
  const forget = () => {
    const now = core.clock.monotonic()
    for (const [id, entry] of held) if (now - entry.at > PROPOSAL_TTL_MS) held.delete(id)
  }

  /** Fetches within the pasted URL's own host: over HTTP, and through the browser when HTTP meets a challenge. */
  const fetchPage: FetchPage = async (request) => {
    const host = new URL(request.url).host
    const probe: Site = {
      hosts: [host],
      name: host,
      key: 'new-site',
      fetcher: 'http',
      fallback: 'none',
      adapter: { request: () => request, read: () => ({ kind: 'parsed', result: { chapters: [] } }) },
      seriesIdOf: () => null,
      pace: DEFAULT_PACE,
      origin: 'sites.json',
    }
    const overHttp = await core.fetchers.http.fetch(request, probe)
    if (overHttp.kind !== 'refused' || !core.fetchers.browser) return overHttp
    const inBrowser = await core.fetchers.browser.fetch(request, { ...probe, fetcher: 'browser' })
    return inBrowser.kind === 'page' ? { ...inBrowser, fetcher: 'browser' as const } : inBrowser
  }

  return {
    async propose(url) {
      const proposal = await proposeSite(fetchPage, url, {
        sites: core.registry.sites,
        reader: core.acquireDeps?.reader,
      })
      if (!proposal.ok) return proposal
      forget()
      // Room for this one: the oldest goes (a confirm only forgets expired ones, so it never drops another).
      while (held.size >= MAX_PROPOSALS) held.delete(held.keys().next().value!)
      const id = randomBytes(12).toString('base64url')
      held.set(id, { proposal, at: core.clock.monotonic() })
      return { ...proposal, id }
    },

    async confirm(id, changes = {}) {
      forget()
      const found = held.get(id)
      if (!found) throw new AppError('not-found', 'that proposal has expired or was confirmed already; paste the URL again')
      const entry: SiteEntry = {
        ...found.proposal.entry,
        ...(changes.key ? { key: changes.key } : {}),
        ...(changes.name ? { name: changes.name } : {}),
      }
      const written = await addSiteEntry(core.dataDir, entry, core.registry.sites)
      if (!written.ok) throw new AppError('invalid', written.reason)
      held.delete(id)
      await core.addSite(written.site)
      return { site: written.site, seriesUrl: found.proposal.seriesUrl }
    },
  }
}
