/**
 * Known Sites: the table `scripts/known-sites.ts` derives from the keiyoushi/extensions-source facts (the
 * extensions Mihon users install): the Sites a family of this app reads (one per host: key, name, language,
 * family, base URL and the other domains the site is on), and every source by its own id — the Site it is,
 * or, for a source no family reads, its theme and addresses. The table is generated and committed, never
 * edited by hand (docs/adr/0078-known-sites-from-the-extension-repository.md, 0106). A known host is a Site at
 * once: the Mihon import adds the Sites its sources name, and Add a Site takes its key, name and hosts (the
 * family it reads from the page itself, docs/adr/0111); a host only the `sources` list has is no Site (no family
 * reads it). A family's own Series paths are in its module, so every Site of the family reads them.
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
  /** The site's other domains (scheme and host) the extension lists; a backup's addresses may be on any. */
  mirrors?: string[]
}

/** A source of the extension repository, by the id a backup names it by. */
export interface KnownSourceRow {
  /** Decimal (it may exceed 2^53). */
  id: string
  name: string
  lang: string
  /** Absent: 1. An older backup may name the source by an older version's id (`sourceId(name, lang, v)`). */
  versionId?: number
  /** The Known Site it is (its key in `sites`); absent: no family of this app reads it. */
  site?: string
  /** Not a Site: the theme it builds on (absent: a one-off), and its addresses. */
  theme?: string
  baseUrl?: string
  mirrors?: string[]
}

export interface KnownSitesTable {
  generatedBy: string
  source: { repository: string; commit: string; license: string; file: string }
  sites: KnownSite[]
  sources: KnownSourceRow[]
}

export const KNOWN_SITES = table as KnownSitesTable

let byHost: Map<string, KnownSite> | undefined

/** The hosts a Known Site pins: its own and its mirrors', each with and without "www.". */
export function knownHosts(known: Pick<KnownSite, 'baseUrl' | 'mirrors'>): string[] {
  return [known.baseUrl, ...(known.mirrors ?? [])].flatMap((o) => withAndWithoutWww(new URL(o).host))
}

function withAndWithoutWww(host: string): string[] {
  return [host, host.startsWith('www.') ? host.slice(4) : `www.${host}`]
}

/** The Known Site a host belongs to (its own or a mirror), with or without "www.". Only Sites a family reads. */
export function knownSiteByHost(host: string): KnownSite | undefined {
  byHost ??= new Map(KNOWN_SITES.sites.flatMap((s) => knownHosts(s).map((h) => [h, s] as const)))
  return byHost.get(host.toLowerCase())
}

let sourcesByHost: Map<string, KnownSourceRow> | undefined

/**
 * What the table knows of a host no Site has: the source on it (a Known Site's, or one no family reads), with
 * the family or theme it builds on; undefined when no source of the extension repository is on it.
 */
export function knownHostFacts(host: string): { name: string; family?: FamilyKey; theme?: string } | undefined {
  const site = knownSiteByHost(host)
  if (site) return { name: site.name, family: site.family }
  sourcesByHost ??= new Map(
    KNOWN_SITES.sources.flatMap((s) =>
      [s.baseUrl, ...(s.mirrors ?? [])].flatMap((o) => (o ? withAndWithoutWww(new URL(o).host).map((h) => [h, s] as const) : [])),
    ),
  )
  const source = sourcesByHost.get(host.toLowerCase())
  return source && { name: source.name, ...(source.theme ? { theme: source.theme } : {}) }
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
  return { key, name: known.name, hosts: knownHosts(known), family: known.family }
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
  gigaviewer: 'GigaViewer',
  wpcomics: 'WPComics',
  grouple: 'Grouple',
  foolslide: 'FoolSlide',
  mmrcms: 'MMRCMS',
  mangareader: 'MangaReader',
  galleryadults: 'GalleryAdults',
}
