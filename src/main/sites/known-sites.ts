/**
 * Known Sites: the table `scripts/known-sites.ts` derives from the keiyoushi/extensions-source facts (the
 * extensions Mihon users install): one row per source whose theme is a family this app reads, with its key,
 * name, language, family and base URL. The table is generated and committed, never edited by hand
 * (docs/adr/0078-known-sites-from-the-extension-repository.md). A known host is a Site at once: the Mihon
 * import adds the Sites its sources name, and Add a Site recognises the host without reading the page.
 */
import type { FamilyKey } from './families'
import { parseUrl } from './site'
import type { SiteEntry } from './sites-file'
import table from './known-sites.json' with { type: 'json' }

export interface KnownSite {
  key: string
  name: string
  lang: string
  family: FamilyKey
  /** Scheme and host, as the extension sets its `baseUrl`. */
  baseUrl: string
}

export interface KnownSitesTable {
  generatedBy: string
  source: { repository: string; commit: string; license: string; file: string }
  sites: KnownSite[]
}

export const KNOWN_SITES = table as KnownSitesTable

/**
 * A family's own Series paths are in its module (MangaThemesia's directories: families/mangathemesia.ts), so
 * every Site of the family reads them, however it was added; an entry names an idPattern only for a family
 * whose Known Sites need more than the family reads.
 */
const ID_PATTERNS: Partial<Record<FamilyKey, string>> = {}

let byHost: Map<string, KnownSite> | undefined

/** The hosts a Known Site pins: its own, and the same with or without "www.". */
export function knownHosts(known: Pick<KnownSite, 'baseUrl'>): string[] {
  const host = new URL(known.baseUrl).host
  return [host, host.startsWith('www.') ? host.slice(4) : `www.${host}`]
}

/** The Known Site a host belongs to, with or without "www.". */
export function knownSiteByHost(host: string): KnownSite | undefined {
  byHost ??= new Map(KNOWN_SITES.sites.flatMap((s) => knownHosts(s).map((h) => [h, s] as const)))
  return byHost.get(host.toLowerCase())
}

/** The Known Site a URL is on, or undefined. */
export function knownSiteOfUrl(rawUrl: string): KnownSite | undefined {
  const url = parseUrl(rawUrl)
  return url ? knownSiteByHost(url.host) : undefined
}

/** The sites.json entry of a Known Site, under a key none of `takenKeys` has. */
export function knownSiteEntry(known: KnownSite, takenKeys: ReadonlySet<string>): SiteEntry {
  let key = known.key
  for (let n = 2; takenKeys.has(key); n++) key = `${known.key.slice(0, 36)}-${n}`
  const idPattern = ID_PATTERNS[known.family]
  return { key, name: known.name, hosts: knownHosts(known), family: known.family, ...(idPattern ? { idPattern } : {}) }
}

/** "Asura Scans (MangaThemesia)": how a preview names a Site it would add. */
export const FAMILY_NAMES: Record<FamilyKey, string> = {
  madara: 'Madara',
  mangathemesia: 'MangaThemesia',
  webtoons: 'Webtoons',
  mangadex: 'MangaDex',
  zeistmanga: 'ZeistManga',
  keyoapp: 'Keyoapp',
  comiciviewer: 'ComiciViewer',
  mangabox: 'MangaBox',
  madtheme: 'MadTheme',
  mangacatalog: 'MangaCatalog',
  pizzareader: 'PizzaReader',
}
