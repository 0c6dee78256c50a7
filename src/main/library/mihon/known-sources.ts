/**
 * Backup sources resolved with no mapping, by the id the backup names them by (docs/adr/0106). The Known
 * Sites table stores every source's own id — computed from its name or set by its extension (Manganato keeps
 * the id of its former name "Manganelo") — with its language and version. A source that bumped its
 * `versionId` had other ids before: an older backup names it by the id of an older version, which the
 * default rule (sources.ts) gives from the name, language and that version; those resolve too, unless a
 * source's own id is the same number. The index is built once, on the first backup read.
 */
import { KNOWN_SITES, type KnownSite, type KnownSourceRow } from '../../sites/known-sites'
import { sourceId } from './sources'

/** A source of the table: the Known Site it is, or none (no family reads it). */
export interface KnownSource extends KnownSourceRow {
  knownSite?: KnownSite
}

let byId: Map<string, KnownSource> | undefined

function index(): Map<string, KnownSource> {
  const sites = new Map(KNOWN_SITES.sites.map((s) => [s.key, s]))
  const rows: KnownSource[] = KNOWN_SITES.sources.map((row) => {
    const knownSite = row.site ? sites.get(row.site) : undefined
    return knownSite ? { ...row, knownSite } : row
  })
  const map = new Map<string, KnownSource>(rows.map((row) => [row.id, row]))
  for (const row of rows) {
    for (let v = 1; v <= (row.versionId ?? 1); v++) {
      const former = sourceId(row.name, row.lang, v)
      if (!map.has(former)) map.set(former, row)
    }
  }
  return map
}

/** The source a backup's source id names, or undefined when the table has none. */
export function knownSourceById(id: string): KnownSource | undefined {
  byId ??= index()
  return byId.get(id)
}
