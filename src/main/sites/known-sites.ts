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
import { SITE_FAMILIES, type FamilyDescriptor } from '../../shared/site-families'
import { parseUrl } from './site'
import type { SiteEntry } from './sites-file'
import type { Selectors } from './families/selectors'
import table from './known-sites.json' with { type: 'json' }
import derivedTable from './derived-sites.json' with { type: 'json' }

export interface KnownSite {
  key: string
  name: string
  lang: string
  /** The family that reads it; absent on a derived Site, which `selectors` read. */
  family?: FamilyKey
  /**
   * A derived Site (src/main/sites/derived-sites.json): the selectors its extension's own code reads, untried
   * until a check of it reads a chapter (docs/adr/0160-derived-selector-entries.md).
   */
  selectors?: Selectors
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

/** A one-off source's Site, its selectors derived from the extension's code by scripts/derived-sites.ts. */
export interface DerivedSite {
  key: string
  name: string
  lang: string
  baseUrl: string
  mirrors?: string[]
  /** Read by the selectors derived from its extension's chapter list parse … */
  selectors?: Selectors
  /** … or by an adapter of this app written for the Site by hand (an API the extension reads). */
  family?: FamilyKey
  /** Which simple shape of chapter list parse the selectors came from, or "adapter". */
  shape: string
  /** The ids of the sources on it. */
  sources: string[]
}

export interface DerivedSitesTable {
  generatedBy: string
  source: KnownSitesTable['source']
  sites: DerivedSite[]
}

/**
 * The table with the derived Sites merged in: each a Known Site (read by its selectors), and its sources' rows
 * naming it. A host a family's Site has, or a key taken, stays the family's: the derived Site is left out.
 */
export function withDerived(known: KnownSitesTable, derived: DerivedSitesTable): KnownSitesTable {
  const keys = new Set(known.sites.map((s) => s.key))
  const hosts = new Set(known.sites.flatMap(knownHosts))
  const added = derived.sites.filter((d) => !keys.has(d.key) && !knownHosts(d).some((h) => hosts.has(h)))
  const siteOf = new Map(added.flatMap((d) => d.sources.map((id) => [id, d.key] as const)))
  return {
    ...known,
    sites: [
      ...known.sites,
      ...added.map(({ key, name, lang, baseUrl, mirrors, selectors, family }): KnownSite => ({
        key,
        name,
        lang,
        baseUrl,
        ...(mirrors ? { mirrors } : {}),
        ...(family ? { family } : { selectors }),
      })),
    ],
    sources: known.sources.map((row) => {
      const site = !row.site && siteOf.get(row.id)
      if (!site) return row
      const { theme: _theme, baseUrl: _baseUrl, mirrors: _mirrors, ...rest } = row
      return { ...rest, site }
    }),
  }
}

/** The families' table alone, as scripts/known-sites.ts writes it. */
export const FAMILY_TABLE = table as KnownSitesTable

export const KNOWN_SITES = withDerived(FAMILY_TABLE, derivedTable as DerivedSitesTable)

/** How a preview names what reads a Known Site: its family, or its derived selectors. */
export function knownSiteKind(known: Pick<KnownSite, 'family'>): string {
  return known.family ? SITE_FAMILIES[known.family].name : DERIVED_KIND
}

/** A derived Site's kind, as a preview or the import names it. */
export const DERIVED_KIND = "Derived (the extension's selectors)"

/** What the owner reads of a derived Site until a check of it reads a chapter. */
export const DERIVED_WORDS = "untried — derived from the extension's selectors"

/** Whether a Site's selectors are a derived Site's, on one of its hosts: the Site is derived. */
export function isDerivedSite(hosts: readonly string[], selectors: Selectors | undefined): boolean {
  if (!selectors) return false
  const known = hosts.map(knownSiteByHost).find((k) => k?.selectors)
  const fields = ['chapter', 'title', 'number', 'name', 'link'] as const
  return !!known && fields.every((f) => (known.selectors![f] ?? '') === (selectors[f] ?? ''))
}

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
  if (site) return { name: site.name, ...(site.family ? { family: site.family } : {}) }
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
  const reads = known.family ? { family: known.family } : { selectors: { ...known.selectors! } }
  // A family whose adapter asks an API elsewhere pins exactly that host too.
  const family: FamilyDescriptor | undefined = known.family ? SITE_FAMILIES[known.family] : undefined
  const apiHosts: string[] = [...(family?.apiHosts ?? [])]
  // A family whose API is on a host under the Site's own (`api.`) pins that host of its own.
  if (family?.apiSubdomain) apiHosts.push(`${family.apiSubdomain}${new URL(known.baseUrl).hostname.replace(/^www\./, '')}`)
  return { key, name: known.name, hosts: [...knownHosts(known), ...apiHosts], ...reads }
}
