/**
 * A backup of every source of the extension repository's facts, one manga each, planned with no mapping on the
 * built-in Sites: how many resolve to a Site, and whether every other one is named. The coverage figure
 * `npm run known-sites` prints (docs/sites.md).
 */
import { planImport } from '../library/plan'
import { BUILT_IN_SITES } from '../sites/builtin'
import { FAMILY_KEYS, type FamilyKey } from '../sites/families'
import { createRegistry } from '../sites/registry'
import { backupPath } from './known-backup'

interface Fact {
  extension: string
  name: string
  lang: string
  id: string
  theme: string | null
}

/** The manga path a source's extension stores, for the families the app reads; any path for the others. */
function pathOf(fact: Fact, i: number): string {
  if (fact.extension === 'src/all/mangadex') return `/manga/0aea9f43-d4a9-4bf7-bebc-${String(i).padStart(12, '0')}`
  if (fact.extension === 'src/all/webtoons') return `/${fact.lang}/romance/series-${i}/list?title_no=${i + 1}`
  const family = (FAMILY_KEYS as readonly string[]).includes(fact.theme ?? '') ? (fact.theme as FamilyKey) : 'madara'
  return backupPath(family, `series-${i + 1}`)
}

export function everySourceBackup(facts: readonly Fact[]): { total: number; resolved: number; named: number } {
  const entries = facts.map((f, i) => ({
    ref: `manga ${i + 1}`,
    target: { kind: 'source' as const, sourceId: f.id, path: pathOf(f, i) },
    title: f.name,
  }))
  const plan = planImport(
    { format: 'mihon', entries, sourceNames: new Map(), unreadable: [] },
    { registry: createRegistry(BUILT_IN_SITES), mappings: new Map(), reader: { id: 1, name: 'Everyone' } },
  )
  const named = plan.sources.filter((s) => s.outcome !== 'unknown' && s.resolved < s.count).reduce((n, s) => n + s.count - s.resolved, 0)
  return { total: entries.length, resolved: plan.bookmarks.length, named }
}
