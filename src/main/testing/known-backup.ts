/**
 * A Mihon backup of a household's library spread over Known Sites of every family the table holds: the
 * sources are named by their own ids (the table's), the manga by the paths each family's extension stores. Used by the import tests and the e2e.
 */
import type { FamilyKey } from '../sites/families'
import { FAMILY_TABLE, KNOWN_SITES, type KnownSite } from '../sites/known-sites'
import { sourceId } from '../library/mihon/sources'
import { backupSeriesPath } from '../../shared/site-families'
import type { TestBackup } from './library-files'

/** The path a family's extension stores as a manga's `url` in a backup. */
export function backupPath(family: FamilyKey, slug: string): string {
  switch (family) {
    case 'madara':
    case 'mangathemesia':
      return `/manga/${slug}/`
    case 'pizzareader':
      return `/comics/${slug}`
    case 'mangacatalog':
      return `/manga/${slug}/`
    case 'mangabox':
      return `/manga/${slug}`
    case 'madtheme':
    case 'grouple':
    case 'mangareader':
      return `/${slug}`
    case 'gigaviewer':
      return `/episode/${[...slug].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 1e15, 7)}`
    case 'wpcomics':
      return `/truyen-tranh/${slug}`
    case 'foolslide':
      return `/series/${slug}/`
    case 'galleryadults':
      return `/gallery/${[...slug].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 1e9, 7)}/`
    case 'mmrcms':
      return `/manga/${slug}`
    case 'comiciviewer':
      return `/series/${slug.replace(/[^0-9a-z]/g, '')}`
    case 'zeistmanga':
      return `/2026/01/${slug}.html`
    case 'xcomic':
      return `/comic/${slug.replace(/[^0-9a-z]/g, '') || '1'}-${slug}`
    case 'libgroup':
      return `/${[...slug].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 1e6, 7)}--${slug}`
    case 'goda':
      // The extension stores the bare slug, which the import does not read yet: its Series URL's path.
      return `/manga/${slug}`
    case 'komiic':
      return `/comic/${[...slug].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 1e6, 7)}`
    case 'bilimanga':
      return `/detail/${[...slug].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 1e6, 7)}.html`
    case 'kagane':
      // The extension stores the bare id (families' `backupPrefix`).
      return slug
    case 'mangatoon':
      return `/en/detail/${[...slug].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 1e6, 7)}`
    case 'hentaihand':
      return `/en/comic/${slug}`
    case 'iken':
      // The extension stores `{slug}#{id}` (families' `backupPrefix`; the id is not needed).
      return `${slug}#${[...slug].reduce((n, c) => (n * 31 + c.charCodeAt(0)) % 1e6, 7)}`
    case 'navercomic':
      return `/webtoon/list?titleId=${slug.replace(/\D/g, '') || '1'}`
    case 'mangahub':
      // The extension stores `/manga/{slug}`, its slug lowercase.
      return `/manga/${slug.toLowerCase().replace(/[^a-z0-9_-]/g, '-')}`
    default:
      return `/series/${slug}/`
  }
}

/** The id a backup names a Known Site's source by (its first source in the table: explicit ids included). */
export function sourceIdOf(site: Pick<KnownSite, 'key'>): string {
  const row = KNOWN_SITES.sources.find((s) => s.site === site.key)
  if (!row) throw new Error(`no source of the Known Site ${site.key}`)
  return row.id
}

/**
 * `entries` manga over `sites` Known Sites, the Sites taken round-robin over the families (so every family
 * is in it), each manga read up to a chapter.
 */
export function knownSourcesBackup(entries = 50, sites = 10): { backup: TestBackup; sites: KnownSite[] } {
  const byFamily = new Map<string, KnownSite[]>()
  for (const site of KNOWN_SITES.sites) if (site.family) byFamily.set(site.family, [...(byFamily.get(site.family) ?? []), site])
  const chosen: KnownSite[] = []
  for (let round = 0; chosen.length < sites; round++) {
    for (const list of byFamily.values()) if (list[round] && chosen.length < sites) chosen.push(list[round]!)
  }
  const manga = Array.from({ length: entries }, (_, i) => {
    const site = chosen[i % chosen.length]!
    return {
      source: sourceIdOf(site),
      url: backupPath(site.family!, `series-${i + 1}`),
      title: `Series ${i + 1}`,
      read: [1, 2, (i % 7) + 3],
    }
  })
  return { backup: { manga, sources: chosen.map((s) => ({ name: s.name, sourceId: sourceIdOf(s) })) }, sites: chosen }
}

export interface RealLibrary {
  backup: TestBackup
  /** The Known Sites the readable entries are on (each proposed once). */
  sites: KnownSite[]
  /** The readable entries' sources, by id, with how many entries each. */
  readable: Map<string, number>
  /** The sources no family reads, by id, with their names and how many entries each. */
  unreadable: Map<string, { name: string; count: number }>
  /** Entries whose whole URL is on a host the Site's base URL is not (a former domain or a mirror). */
  elsewhere: number
  /** Whole URLs on a former domain (not a mirror): read by their path on the Site's base URL. */
  moved: Map<string, number>
}

/**
 * A real library as the Known Sites table's sources make it, `entries` manga (300): sources with an explicit
 * id (Manganato's among them), bumped versions named by their own and their older ids, extensions of several
 * languages, 40 % whole URLs on hosts not the Site's base URL (a former domain or a mirror), and 20 % sources
 * no family of this app reads. Built from the committed table alone.
 */
export function realLibraryBackup(entries = 300): RealLibrary {
  const sites = new Map(KNOWN_SITES.sites.map((s) => [s.key, s]))
  // The families' table's Sites (a derived Site's Series paths are its own).
  const familySites = new Set(FAMILY_TABLE.sites.map((s) => s.key))
  const readableRows = KNOWN_SITES.sources.filter((s) => s.site && familySites.has(s.site))
  const explicit = readableRows.filter((s) => s.id !== sourceId(s.name, s.lang, s.versionId ?? 1))
  const bumped = readableRows.filter((s) => (s.versionId ?? 1) > 1)
  const perSite = new Map<string, typeof readableRows>()
  for (const s of readableRows) perSite.set(s.site!, [...(perSite.get(s.site!) ?? []), s])
  const multi = [...perSite.values()].filter((rows) => rows.length > 2).flatMap((rows) => rows.slice(0, 3))
  const pick = <T>(list: readonly T[], n: number) =>
    Array.from({ length: Math.min(n, list.length) }, (_, i) => list[Math.floor((i * list.length) / n)]!)
  // [source id to name it by, its row]: bumped sources by their own id and by an older version's.
  const manganato = readableRows.find((s) => s.id === '1024627298672457456')!
  const pool: Array<[string, (typeof readableRows)[number]]> = [
    [manganato.id, manganato],
    ...pick(explicit, 20).map((s) => [s.id, s] as [string, typeof s]),
    ...pick(bumped, 10).flatMap((s) => [[s.id, s] as [string, typeof s], [sourceId(s.name, s.lang, 1), s] as [string, typeof s]]),
    ...pick(multi, 15).map((s) => [s.id, s] as [string, typeof s]),
    ...pick(readableRows, 15).map((s) => [s.id, s] as [string, typeof s]),
  ]
  const builtIn = new Set(['mangadex.org', 'www.webtoons.com'])
  const others = pick(
    KNOWN_SITES.sources.filter((s) => !s.site && s.baseUrl && !builtIn.has(new URL(s.baseUrl).host)),
    25,
  )
  const result: RealLibrary = {
    backup: { manga: [], sources: [] },
    sites: [],
    readable: new Map(),
    unreadable: new Map(),
    elsewhere: 0,
    moved: new Map(),
  }
  const used = new Set<string>()
  let r = 0
  for (let i = 0; i < entries; i++) {
    const slug = `series-${i + 1}`
    if (i % 5 === 4) {
      const row = others[((i / 5) % others.length) | 0]!
      const whole = i % 10 === 4
      if (whole) result.elsewhere++
      result.backup.manga.push({
        source: row.id,
        url: whole ? `${row.baseUrl}/manga/${slug}/` : `/manga/${slug}/`,
        title: `Series ${i + 1}`,
        read: [1],
      })
      const seen = result.unreadable.get(row.id)
      result.unreadable.set(row.id, { name: row.name, count: (seen?.count ?? 0) + 1 })
      continue
    }
    const [id, row] = pool[r % pool.length]!
    const site = sites.get(row.site!)!
    const path = backupPath(site.family!, slug)
    // Three readable entries in eight are a whole URL on a host its Site's base URL is not: a mirror, else a domain
    // it left (with the sources no family reads, 40 % of the file).
    let url = path
    if (r % 8 === 1 || r % 8 === 3 || r % 8 === 5) {
      const mirror = site.mirrors && r % 8 === 1 ? site.mirrors[0]! : undefined
      const former =
        site.key === 'manganato' ? 'https://chapmanganato.com' : `https://former-${new URL(site.baseUrl).host.replace(/^www\./, '')}`
      // A bare id (a family's `backupPrefix`) is never a whole URL: its Series path is.
      url = `${mirror ?? former}${backupSeriesPath(site.family, path)}`
      result.elsewhere++
      if (!mirror) result.moved.set(site.key, (result.moved.get(site.key) ?? 0) + 1)
    }
    r++
    result.backup.manga.push({ source: id, url, title: `Series ${i + 1}`, read: [1, 2, (i % 7) + 3] })
    result.readable.set(id, (result.readable.get(id) ?? 0) + 1)
    if (!used.has(site.key)) result.sites.push(site)
    used.add(site.key)
  }
  return result
}
