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
  readonly sites: readonly Site[]
  get(key: string): Site | undefined
  /**
   * The Site a Series URL belongs to: the first whose host pin holds the URL's host and whose series_id
   * rule reads it. Null for anything else (another scheme, another host, not a Series path).
   */
  resolve(rawUrl: string): SiteMatch | null
}

export function createRegistry(sites: readonly Site[]): SiteRegistry {
  const byKey = new Map(sites.map((site) => [site.key, site]))
  return {
    sites,
    get: (key) => byKey.get(key),
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
