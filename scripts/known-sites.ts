/**
 * `npm run known-sites -- <known-sources dir>`: writes src/main/sites/known-sites.json, the Known Sites table,
 * from the keiyoushi/extensions-source facts in `<dir>/all-sources.json` (every source, with its real id; the
 * commit is read from `<dir>/README.md`). Two lists:
 * - `sites`: the Sites the app reads, one per host: every source whose theme is a family this app reads, with
 *   a usable base URL, grouped by that host (an extension's languages on one host are one Site) — key, name,
 *   lang, family, base URL and the other domains the extension lists (`mirrors`).
 * - `sources`: every source, one row each, by the id a backup names it by — its name, language, versionId
 *   (when not 1), and the Site it is (`site`), or, for a source no family reads, its theme and addresses, so
 *   an import names it and a host's theme is known.
 * Nothing else is copied. Regenerate after adding a family; never edit the table by hand. Also prints the
 * coverage figures docs/sites.md quotes.
 */
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { wantsHelp } from '../src/main/cli/help'
import { FAMILY_KEYS, SITE_FAMILIES, type FamilyKey } from '../src/shared/site-families'
import type { KnownSitesTable, KnownSite, KnownSourceRow } from '../src/main/sites/known-sites'

const KNOWN_SITES_FILE = 'src/main/sites/known-sites.json'

/** A row of all-sources.json (its README says what each field means). */
export interface SourceFact {
  extension: string
  name: string
  lang: string
  /** Decimal; may exceed 2^53. */
  id: string
  idFrom: 'md5' | 'gradle'
  versionId: number
  baseUrl: string | null
  baseUrlType?: 'static' | 'mirrors' | 'custom'
  mirrors?: string[]
  theme: string | null
}

const REPOSITORY = 'https://github.com/keiyoushi/extensions-source'
/** Extensions the built-in Sites read (MangaDex by source id, Webtoons by host). */
export const BUILT_IN_EXTENSIONS = new Set(['src/all/mangadex', 'src/all/webtoons'])

/**
 * Themes whose Series pages are another family's markup, read by that family's adapter (its descriptor's `themes`
 * beyond its own, src/shared/site-families.ts): ManhwaZ writes Madara's `li.wp-manga-chapter` rows.
 */
export const THEMES_READ_AS: Readonly<Record<string, FamilyKey>> = Object.fromEntries(
  FAMILY_KEYS.flatMap((key) =>
    (SITE_FAMILIES[key].themes as readonly string[]).filter((theme) => theme !== key).map((theme) => [theme, key]),
  ),
)

/** The family that reads a theme's Sites, if any: the one whose descriptor lists the theme. */
function familyOf(theme: string | null): FamilyKey | undefined {
  if (!theme) return undefined
  return FAMILY_KEYS.find((key) => (SITE_FAMILIES[key].themes as readonly string[]).includes(theme))
}

/** Mihon's default source id: MD5("<name lowercased>/<lang>/<versionId>"), first 8 bytes big-endian, sign cleared. */
export function md5Id(name: string, lang: string, versionId: number): string {
  const digest = createHash('md5').update(`${name.toLowerCase()}/${lang}/${versionId}`).digest()
  return (digest.readBigUInt64BE(0) & 0x7fff_ffff_ffff_ffffn).toString()
}

/** The table from the facts; pure. Throws on facts that contradict themselves (a repeated id, a wrong md5 id). */
export function knownSitesTable(facts: readonly SourceFact[], commit: string): KnownSitesTable {
  checkIds(facts)
  const ordered = [...facts].sort(
    (a, b) => a.extension.localeCompare(b.extension) || a.lang.localeCompare(b.lang) || a.name.localeCompare(b.name),
  )
  const groups = readableGroups(ordered)
  const sites = siteRows(groups)
  const siteOf = new Map<SourceFact, string>()
  groups.forEach((group, i) => group.forEach((f) => siteOf.set(f, sites[i]!.key)))
  const sources = ordered.map((f): KnownSourceRow => {
    const row: KnownSourceRow = { id: f.id, name: f.name, lang: f.lang }
    if (f.versionId !== 1) row.versionId = f.versionId
    const site = siteOf.get(f)
    if (site) return { ...row, site }
    if (f.theme) row.theme = f.theme
    const base = origin(f.baseUrl)
    if (base) row.baseUrl = base
    const mirrors = otherOrigins(f, base)
    if (mirrors.length) row.mirrors = mirrors
    return row
  })
  return {
    generatedBy: 'scripts/known-sites.ts (regenerate; never edit by hand)',
    source: { repository: REPOSITORY, commit, license: 'Apache-2.0', file: 'each extension build.gradle.kts' },
    sites,
    sources,
  }
}

function checkIds(facts: readonly SourceFact[]): void {
  const seen = new Set<string>()
  for (const f of facts) {
    if (!/^\d{1,19}$/.test(f.id) || BigInt(f.id) >= 1n << 63n)
      throw new Error(`${f.extension} ${f.name}/${f.lang}: id ${f.id} is not a source id`)
    if (seen.has(f.id)) throw new Error(`${f.extension} ${f.name}/${f.lang}: id ${f.id} is repeated`)
    seen.add(f.id)
    if (f.idFrom === 'md5' && md5Id(f.name, f.lang, f.versionId) !== f.id)
      throw new Error(`${f.extension} ${f.name}/${f.lang}: id ${f.id} is not the md5 of its name, lang and versionId`)
  }
}

/** The sources of a family the app reads, grouped by their base URL's host (with or without "www."). */
function readableGroups(ordered: readonly SourceFact[]): SourceFact[][] {
  const byHost = new Map<string, SourceFact[]>()
  for (const f of ordered) {
    if (!familyOf(f.theme) || BUILT_IN_EXTENSIONS.has(f.extension) || !origin(f.baseUrl)) continue
    const host = bareHost(origin(f.baseUrl)!)
    // A self-hosted source's placeholder (FoolSlide Customizable's https://127.0.0.1) is the owner's own server, no Site.
    if (/^(?:127\.|localhost(?::|$)|\[::1\])/.test(host)) continue
    byHost.set(host, [...(byHost.get(host) ?? []), f])
  }
  return [...byHost.values()]
}

/** One Site per group: keys are the name's slug, with the language when two Sites share a name. */
function siteRows(groups: readonly SourceFact[][]): KnownSite[] {
  const slugs = new Map<string, number>()
  for (const [f] of groups) slugs.set(slug(f!.name), (slugs.get(slug(f!.name)) ?? 0) + 1)
  const taken = new Set<string>(['mangadex', 'webtoons'])
  const claimed = new Set(groups.map(([f]) => bareHost(origin(f!.baseUrl)!)))
  return groups.map((group) => {
    const first = group[0]!
    const langs = new Set(group.map((f) => f.lang))
    const lang = langs.size === 1 ? first.lang : 'all'
    let key = slugs.get(slug(first.name))! > 1 || taken.has(slug(first.name)) ? slug(`${first.name}-${lang}`) : slug(first.name)
    for (let n = 2; taken.has(key); n++) key = `${slug(first.name).slice(0, 36)}-${n}`
    taken.add(key)
    const baseUrl = origin(first.baseUrl)!
    // A mirror another Site has as its own host stays that Site's: a host pins one Site.
    const mirrors = [...new Set(group.flatMap((f) => otherOrigins(f, baseUrl)))].filter((m) => !claimed.has(bareHost(m)))
    mirrors.forEach((m) => claimed.add(bareHost(m)))
    const site: KnownSite = { key, name: first.name, lang, family: familyOf(first.theme)!, baseUrl }
    return mirrors.length ? { ...site, mirrors } : site
  })
}

/** The source's other domains (its `mirrors` but its base URL's host), as origins. */
function otherOrigins(f: SourceFact, base: string | null): string[] {
  const own = base ? bareHost(base) : ''
  const all = (f.mirrors ?? []).map(origin).filter((m): m is string => m !== null && bareHost(m) !== own)
  return [...new Set(all)]
}

/** A base URL's origin (http or https only), or null for a templated or unreadable one. */
export function origin(base: string | null | undefined): string | null {
  if (!base || base.includes('$')) return null
  try {
    const url = new URL(base)
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : null
  } catch {
    return null
  }
}

export const bareHost = (o: string) => new URL(o).host.replace(/^www\./, '')

/** A Site key made from a name: ASCII, lowercase, dashes, at most 40 characters. */
export function slug(text: string): string {
  const s = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)
    .replace(/-$/, '')
  return s || 'site'
}

/** One row a line, so a regeneration's diff reads row by row. */
export function formatTable(table: KnownSitesTable): string {
  const rows = (list: readonly object[]) => list.map((s) => `    ${JSON.stringify(s)}`).join(',\n')
  return `{\n  "generatedBy": ${JSON.stringify(table.generatedBy)},\n  "source": ${JSON.stringify(table.source)},\n  "sites": [\n${rows(table.sites)}\n  ],\n  "sources": [\n${rows(table.sources)}\n  ]\n}\n`
}

/** Sources readable with no setup: of a Known Site, or of a built-in Site. */
export function coverage(facts: readonly SourceFact[], table: KnownSitesTable): { total: number; before: number; after: number } {
  const before = facts.filter((f) => BUILT_IN_EXTENSIONS.has(f.extension)).length
  return { total: facts.length, before, after: before + table.sources.filter((s) => s.site).length }
}

/** The same by language: sources of each language, and how many of them are readable with no setup; most first. */
export function coverageByLanguage(
  facts: readonly SourceFact[],
  table: KnownSitesTable,
): Array<{ lang: string; total: number; readable: number }> {
  const onSite = new Set(table.sources.filter((s) => s.site).map((s) => s.id))
  const by = new Map<string, { lang: string; total: number; readable: number }>()
  for (const f of facts) {
    const row = by.get(f.lang) ?? { lang: f.lang, total: 0, readable: 0 }
    row.total++
    if (BUILT_IN_EXTENSIONS.has(f.extension) || onSite.has(f.id)) row.readable++
    by.set(f.lang, row)
  }
  return [...by.values()].sort((a, b) => b.total - a.total || a.lang.localeCompare(b.lang))
}

async function main(argv: string[]): Promise<void> {
  if (wantsHelp(argv) || !argv[0]) {
    console.log('Usage: npm run known-sites -- <known-sources dir>\n\nWrites src/main/sites/known-sites.json from <dir>/all-sources.json.')
    process.exit(argv[0] ? 0 : 2)
  }
  const dir = argv[0]
  const facts = JSON.parse(readFileSync(join(dir, 'all-sources.json'), 'utf8')) as SourceFact[]
  const commit = /commit ([0-9a-f]{40})/.exec(readFileSync(join(dir, 'README.md'), 'utf8'))?.[1]
  if (!commit) throw new Error(`${dir}/README.md names no 40-hex commit`)
  const table = knownSitesTable(facts, commit)
  const text = formatTable(table)
  writeFileSync(KNOWN_SITES_FILE, text)
  const byFamily = new Map<string, number>()
  for (const s of table.sites) byFamily.set(s.family ?? '', (byFamily.get(s.family ?? '') ?? 0) + 1)
  const c = coverage(facts, table)
  const pct = (n: number) => `${((100 * n) / c.total).toFixed(1)} %`
  console.log(
    `wrote ${KNOWN_SITES_FILE} (${Math.round(text.length / 1024)} KiB): ${table.sites.length} Known Sites (${[...byFamily].map(([f, n]) => `${f} ${n}`).join(', ')}), ${table.sources.length} sources`,
  )
  console.log(`sources of a Site the app reads with no setup: ${c.after} of ${c.total} (${pct(c.after)})`)
  const langs = coverageByLanguage(facts, table).filter((l) => l.total >= 30)
  console.log(`by language (30 sources or more): ${langs.map((l) => `${l.lang} ${l.readable}/${l.total}`).join(', ')}`)
  // The same through the import itself: a backup with one manga of every source, planned with no mapping.
  const { everySourceBackup } = await import('../src/main/testing/every-source')
  const r = everySourceBackup(facts)
  console.log(
    `a backup of every source: ${r.resolved} of ${r.total} entries resolve to a Site (${((100 * r.resolved) / r.total).toFixed(1)} %); every other source named: ${r.named} of ${r.total - r.resolved}`,
  )
}

if (process.argv[1]?.endsWith('known-sites.ts')) void main(process.argv.slice(2))
