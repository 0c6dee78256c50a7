/** The Sites the app knows, and which one a URL belongs to. */
import { isPinned, parseUrl, type Site } from './site'

export interface SiteMatch {
  site: Site
  seriesId: string
  url: URL
  /** The Series' own page, whatever URL of it was given. */
  seriesUrl: string
}

export interface SiteRegistry {
  /** The Sites now, in the order a URL is matched against them. */
  readonly sites: readonly Site[]
  get(key: string): Site | undefined
  /**
   * The Site a Series URL belongs to: the first whose host pin holds the URL's host and whose series_id
   * rule reads it. Null for anything else (another scheme, another host, not a Series path).
   */
  resolve(rawUrl: string): SiteMatch | null
  /** Adds a Site the owner just added (Add a Site); a key already known is refused. */
  add(site: Site): void
  /**
   * Gives a running Site a new host pin (the owner accepted its move, after sites.json was written): the Site
   * object its Lane holds is changed in place, so the Lane's next check reads it.
   */
  repin(key: string, hosts: readonly string[]): Site
}

export function createRegistry(initial: readonly Site[]): SiteRegistry {
  let sites = [...initial]
  const byKey = new Map(sites.map((site) => [site.key, site]))
  return {
    get sites() {
      return sites
    },
    get: (key) => byKey.get(key),
    add(site) {
      if (byKey.has(site.key)) throw new Error(`registry: a Site "${site.key}" is known already`)
      byKey.set(site.key, site)
      sites = [...sites, site]
    },
    repin(key, hosts) {
      const site = byKey.get(key)
      if (!site) throw new Error(`registry: no Site "${key}"`)
      ;(site as { hosts: readonly string[] }).hosts = [...hosts]
      return site
    },
    resolve(rawUrl) {
      const url = parseUrl(rawUrl)
      if (!url) return null
      for (const site of sites) {
        if (!isPinned(site, url)) continue
        const seriesId = site.seriesIdOf(url)
        if (seriesId) return { site, seriesId, url, seriesUrl: site.canonicalUrl?.(url) ?? url.href }
      }
      return null
    },
  }
}
