/**
 * Backup sources resolved with no mapping: a source id is computed from the source's name, language and
 * version (sources.ts), so every Known Site's ids are known in advance. An extension that bumped its
 * `versionId` (a source that moved and kept its name) has a new id; versions 1–3 are read, which covers the
 * bumps the extension repository has made. The index is built once, on the first backup read.
 */
import { KNOWN_SITES, type KnownSite } from '../../sites/known-sites'
import { sourceId } from './sources'

/** The versions a source's id is computed with. */
const VERSIONS = [1, 2, 3] as const

let byId: Map<string, KnownSite> | undefined

/** The Known Site a backup's source id names, or undefined. */
export function knownSourceById(id: string): KnownSite | undefined {
  byId ??= new Map(KNOWN_SITES.sites.flatMap((site) => VERSIONS.map((v) => [sourceId(site.name, site.lang, v), site] as const)))
  return byId.get(id)
}
