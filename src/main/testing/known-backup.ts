/**
 * A Mihon backup of a household's library spread over Known Sites of every family the table holds: the
 * sources are named by their own ids (the table's), the manga by the paths each family's extension stores. Used by the import tests and the e2e.
 */
import type { FamilyKey } from '../sites/families'
import { KNOWN_SITES, type KnownSite } from '../sites/known-sites'
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
      return `/${slug}`
    case 'comiciviewer':
      return `/series/${slug.replace(/[^0-9a-z]/g, '')}`
    case 'zeistmanga':
      return `/2026/01/${slug}.html`
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
  for (const site of KNOWN_SITES.sites) byFamily.set(site.family, [...(byFamily.get(site.family) ?? []), site])
  const chosen: KnownSite[] = []
  for (let round = 0; chosen.length < sites; round++) {
    for (const list of byFamily.values()) if (list[round] && chosen.length < sites) chosen.push(list[round]!)
  }
  const manga = Array.from({ length: entries }, (_, i) => {
    const site = chosen[i % chosen.length]!
    return {
      source: sourceIdOf(site),
      url: backupPath(site.family, `series-${i + 1}`),
      title: `Series ${i + 1}`,
      read: [1, 2, (i % 7) + 3],
    }
  })
  return { backup: { manga, sources: chosen.map((s) => ({ name: s.name, sourceId: sourceIdOf(s) })) }, sites: chosen }
}
