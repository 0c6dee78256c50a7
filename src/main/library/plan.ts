/**
 * The plan of an import: every entry resolved through the Site registry — host pin and series_id rule — into
 * the Series and bookmarks it would add, or skipped with a reason. Pure: it reads nothing and sends nothing;
 * whether a bookmark is new or already present is the store's to say (use-cases/library-import.ts).
 */
import { safeText, unsafeIdReason } from '../../shared/ids'
import type { ImportFormat, ImportSkipReason } from '../../shared/library'
import { LONGEST_PAUSE_MS } from '../../shared/domain'
import { backupSeriesPath } from '../../shared/site-families'
import type { BookmarkStatus } from '../../shared/sync-schemas'
import type { SiteRegistry } from '../sites/registry'
import { isPinned, parseUrl, type Site } from '../sites/site'
import type { ImportEntry, ParsedLibrary, SeriesSnapshot } from './entries'
import { MANGADEX_SOURCE_IDS, mangaDexTitleUrl } from './mihon/sources'
import { knownSourceById, type KnownSource } from './mihon/known-sources'
import { knownHosts, knownSiteEntry, type KnownSite } from '../sites/known-sites'
import { checkSiteEntry, type SiteEntry } from '../sites/sites-file'

/** A backup source the owner mapped to a Site: its manga's paths are read on `origin` (scheme and host). */
export interface SourceMapping {
  sourceId: string
  sourceName: string
  site: string
  origin: string
}

export interface PlanOptions {
  registry: SiteRegistry
  mappings: ReadonlyMap<string, SourceMapping>
  /** The Reader every bookmark goes to; absent: each export-document bookmark goes to the Reader it names. */
  reader?: { id: number; name: string }
  /** Now (unix ms): no time a file gives may lie beyond it. Absent: times are taken as the file gives them. */
  now?: number
}

/** The longest title an import keeps, in characters (the export document's own bound). */
export const IMPORT_TITLE_MAX = 500

export interface PlannedSeries {
  site: string
  seriesId: string
  seriesUrl: string
  title: string
  snapshot?: SeriesSnapshot
}

export interface PlannedBookmark {
  /** The Reader by name (an export document's Readers may not exist yet). */
  reader: string
  site: string
  seriesId: string
  status: BookmarkStatus
  progress?: number
  progressAt?: number
  createdAt?: number
}

export interface PlannedSkip {
  ref: string
  reason: ImportSkipReason
  /** What was skipped, for a person: the URL, the manga's path, the row. */
  detail: string
  /** The Site it came close to (a URL on its pin that is not a Series). */
  site?: string
  host?: string
  sourceId?: string
}

/** A backup source the owner may map: unknown, or named by the table but read by no family of this app. */
export interface UnknownSource {
  sourceId: string
  name: string
  count: number
  /** One manga `url` of the source, to recognise it by. */
  example: string
}

/**
 * What happens to a backup source's entries: read on a running Site; on a Known Site the import adds; read as
 * the owner mapped it; named by the table but read by no family of this app; or not known at all.
 */
export type SourceOutcome = 'site' | 'site-to-add' | 'mapped' | 'not-readable' | 'unknown'

/** A backup source, with how many of the file's entries name it and what happens to them. */
export interface SourceSummary {
  sourceId: string
  name: string
  outcome: SourceOutcome
  /** Entries of the library (not only the history) that name it. */
  count: number
  /** Of them, those read as a Series. */
  resolved: number
  /** The Site they are read on (its key), for 'site', 'site-to-add' and 'mapped'. */
  site?: string
  /** The family that reads it (a FamilyKey), or for a source no family reads the theme it builds on. */
  family?: string
  /** Addresses on a host the Site no longer has, read by their path on its current one. */
  moved: Array<{ from: string; to: string; count: number }>
}

export interface ImportPlan {
  format: ImportFormat
  /** The chosen Reader every bookmark goes to; absent: the Readers an export document names. */
  forReader?: { id: number; name: string }
  /** Entries read from the file. */
  entries: number
  series: PlannedSeries[]
  bookmarks: PlannedBookmark[]
  skipped: PlannedSkip[]
  unknownSources: UnknownSource[]
  /** Every backup source the file names, the commonest first (Mihon and Tachiyomi backups). */
  sources: SourceSummary[]
  /** The Readers the bookmarks go to, with the time an export document says each was added. */
  readers: Array<{ name: string; createdAt?: number }>
  /** The mappings the plan used. */
  mappingsUsed: SourceMapping[]
  /** Known Sites the backup's sources name that the app does not run yet: added when the owner confirms. */
  sitesToAdd: PlannedSite[]
  /**
   * Export documents restored whole (no chosen Reader): the Lane pauses they record that have not ended, of
   * Sites the app runs, each ending at most the longest pause the app sets from now.
   */
  lanePauses?: Array<{ site: string; until: number }>
}

/** A Known Site an import would add, with its sites.json entry. */
export interface PlannedSite {
  entry: SiteEntry & { key: string; name: string }
  known: KnownSite
  /** How many of the file's entries it reads. */
  count: number
}

/** The Sites a plan proposes, by Known Site key, with the Site each makes. */
type Proposed = Map<string, { planned: PlannedSite; site: Site }>

/** How a backup source's entry was resolved, for the plan's per-source summary. */
interface Via {
  outcome: SourceOutcome
  name?: string
  site?: string
  family?: string
  moved?: { from: string; to: string }
}

type Resolved = ({ ok: true; site: Site; seriesId: string; seriesUrl: string } | { ok: false; skip: Omit<PlannedSkip, 'ref'> }) & {
  via?: Via
}

export function planImport(parsed: ParsedLibrary, options: PlanOptions): ImportPlan {
  const steps = planSteps(parsed, options)
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * The same plan, made in slices of about `sliceMs` between which the event loop runs: the window's import plans
 * on the thread that answers Readers, and 20,000 entries are a few hundred milliseconds of work. The plan is
 * made from the entries alone, so nothing another task does between slices changes it.
 */
export async function planImportInSlices(parsed: ParsedLibrary, options: PlanOptions, sliceMs = 10): Promise<ImportPlan> {
  const steps = planSteps(parsed, options)
  let sliceStart = performance.now()
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
    if (performance.now() - sliceStart < sliceMs) continue
    await new Promise((resolve) => setImmediate(resolve))
    sliceStart = performance.now()
  }
}

/** How many entries are planned between two looks at the clock. */
const PLAN_STEP_ENTRIES = 256

/** The plan, entry by entry: it pauses (yields) every PLAN_STEP_ENTRIES entries and returns the plan. */
function* planSteps(parsed: ParsedLibrary, options: PlanOptions): Generator<void, ImportPlan> {
  const series = new Map<string, PlannedSeries>()
  const bookmarks = new Map<string, PlannedBookmark>()
  const readers = new Map<string, { name: string; createdAt?: number }>()
  const skipped: PlannedSkip[] = parsed.unreadable.map((u) => ({ ref: u.ref, reason: 'unreadable', detail: u.detail }))
  const unknown = new Map<string, UnknownSource>()
  const used = new Map<string, SourceMapping>()
  const stamp = (at: number) => Math.min(at, options.now ?? at)
  const proposed: Proposed = new Map()
  const sources = new Map<string, SourceSummary>()
  if (options.reader) readers.set(options.reader.name, { name: options.reader.name })
  // Every Reader an export names is restored, one with no bookmark too.
  else for (const r of parsed.readers ?? []) readers.set(r.name, { name: r.name, createdAt: stamp(r.createdAt) })

  for (const [i, entry] of parsed.entries.entries()) {
    if (i % PLAN_STEP_ENTRIES === PLAN_STEP_ENTRIES - 1) yield
    if (entry.inLibrary === false) {
      skipped.push({ ref: entry.ref, reason: 'not-in-library', detail: describe(entry) })
      continue
    }
    const resolved = resolve(entry, options, used, proposed)
    if (entry.target.kind === 'source') tallySource(sources, entry.target.sourceId, resolved, parsed.sourceNames)
    if (!resolved.ok) {
      skipped.push({ ref: entry.ref, ...resolved.skip })
      if (resolved.skip.reason === 'unmapped-source' || resolved.skip.reason === 'not-readable')
        countUnknownSource(
          unknown,
          entry,
          resolved.via?.name ? new Map([[resolved.skip.sourceId!, resolved.via.name]]) : parsed.sourceNames,
        )
      continue
    }
    const key = `${resolved.site.key}\u0000${resolved.seriesId}`
    const planned = series.get(key)
    // Every file is read as if a stranger typed it: titles bounded and stripped of control characters,
    // times no later than now, a chapter link only on the Site's pin.
    const title = safeText(entry.title, IMPORT_TITLE_MAX)
    if (!planned) {
      series.set(key, {
        site: resolved.site.key,
        seriesId: resolved.seriesId,
        seriesUrl: resolved.seriesUrl,
        title,
        snapshot: entry.series && revalidated(entry.series, resolved.site, stamp),
      })
    } else if (!planned.title && title) planned.title = title

    if (entry.bookmark === false) continue
    const reader = options.reader ?? (entry.reader ? { name: entry.reader.name } : undefined)
    if (!reader) continue
    if (!readers.has(reader.name)) readers.set(reader.name, { name: reader.name, createdAt: entry.reader && stamp(entry.reader.createdAt) })
    const bookmarkKey = `${reader.name}\u0000${key}`
    if (bookmarks.has(bookmarkKey)) {
      skipped.push({ ref: entry.ref, reason: 'duplicate', detail: describe(entry), site: resolved.site.key })
      continue
    }
    bookmarks.set(bookmarkKey, {
      reader: reader.name,
      site: resolved.site.key,
      seriesId: resolved.seriesId,
      status: entry.status ?? 'reading',
      progress: entry.progress,
      progressAt: entry.progressAt === undefined ? undefined : stamp(entry.progressAt),
      createdAt: entry.createdAt === undefined ? undefined : stamp(entry.createdAt),
    })
  }
  return {
    format: parsed.format,
    forReader: options.reader,
    entries: parsed.entries.length + parsed.unreadable.length,
    series: [...series.values()],
    bookmarks: [...bookmarks.values()],
    skipped,
    unknownSources: [...unknown.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
    sources: [...sources.values()].sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
    readers: [...readers.values()],
    mappingsUsed: [...used.values()],
    sitesToAdd: [...proposed.values()].map((p) => p.planned),
    lanePauses: !options.reader && parsed.lanePauses?.length ? plannedPauses(parsed.lanePauses, options) : undefined,
  }
}

/** A backup source no mapping names, counted with its name and one example path for the owner to map it. */
function countUnknownSource(unknown: Map<string, UnknownSource>, entry: ImportEntry, sourceNames: ReadonlyMap<string, string>): void {
  if (entry.target.kind !== 'source') return
  const { sourceId, path } = entry.target
  const known = unknown.get(sourceId)
  if (known) known.count++
  else unknown.set(sourceId, { sourceId, name: sourceNames.get(sourceId) || `source ${sourceId}`, count: 1, example: path })
}

/** Counts an entry of a backup source: under the name the table or the backup gives it, with what became of it. */
function tallySource(sources: Map<string, SourceSummary>, sourceId: string, resolved: Resolved, names: ReadonlyMap<string, string>): void {
  const via = resolved.via ?? { outcome: 'unknown' }
  let summary = sources.get(sourceId)
  if (!summary) {
    const name = via.name || names.get(sourceId) || `source ${sourceId}`
    summary = { sourceId, name, outcome: via.outcome, count: 0, resolved: 0, moved: [] }
    if (via.site) summary.site = via.site
    if (via.family) summary.family = via.family
    sources.set(sourceId, summary)
  }
  summary.count++
  if (!resolved.ok) return
  summary.resolved++
  if (!via.moved) return
  const { from, to } = via.moved
  const move = summary.moved.find((m) => m.from === from && m.to === to)
  if (move) move.count++
  else summary.moved.push({ from, to, count: 1 })
}

/** The pauses a restore keeps: of Sites the app runs, not ended, and no longer from now than the app pauses (docs/export-format.md). */
function plannedPauses(pauses: NonNullable<ParsedLibrary['lanePauses']>, options: PlanOptions): Array<{ site: string; until: number }> {
  const now = options.now ?? 0
  return pauses
    .filter((p) => options.registry.get(p.site) && p.until > now)
    .map((p) => ({ site: p.site, until: options.now === undefined ? p.until : Math.min(p.until, now + LONGEST_PAUSE_MS) }))
}

function resolve(entry: ImportEntry, options: PlanOptions, used: Map<string, SourceMapping>, proposed: Proposed): Resolved {
  const { registry } = options
  const target = entry.target
  switch (target.kind) {
    case 'url':
      return byUrl(registry, target.url)
    case 'series': {
      const site = registry.get(target.site)
      const url = target.url ? parseUrl(target.url) : null
      // An id no entry may make (control characters, bidi overrides: src/shared/ids.ts) is not a Series.
      if (unsafeIdReason(target.seriesId) !== null)
        return { ok: false, skip: { reason: 'not-series', detail: JSON.stringify(`${target.site}/${target.seriesId}`) } }
      if (site && !target.url) return { ok: true, site, seriesId: target.seriesId, seriesUrl: '' }
      // A URL on the named Site's pin: the id is the one the Site's own rule reads from it, and a document that
      // names another is reported, not stored (it would bind a known id to a page of the file's choosing).
      if (site && url && isPinned(site, url)) {
        const derived = site.seriesIdOf(url)
        if (derived === null) return { ok: false, skip: { reason: 'not-series', detail: url.href, site: site.key } }
        if (derived !== target.seriesId) {
          const detail = `${target.site}/${target.seriesId}: its URL ${url.href} is Series ${derived}`
          return { ok: false, skip: { reason: 'id-mismatch', detail, site: site.key } }
        }
        return { ok: true, site, seriesId: derived, seriesUrl: url.href }
      }
      if (target.url) return byUrl(registry, target.url)
      return { ok: false, skip: { reason: 'unknown-site', detail: `${target.site}/${target.seriesId}` } }
    }
    case 'source':
      return bySource(target.sourceId, target.path, options, used, proposed)
  }
}

/**
 * A backup source's manga: the owner's mapping first, then MangaDex, then the source the table names by this
 * id (docs/adr/0106) — its Known Site, running or proposed; or, for a source no family reads, a running Site
 * on its host (a built-in one, the owner's own entry), else named and skipped. An id nobody knows resolves
 * only a whole URL, by its host.
 */
function bySource(sourceId: string, path: string, options: PlanOptions, used: Map<string, SourceMapping>, proposed: Proposed): Resolved {
  const { registry } = options
  const mapping = options.mappings.get(sourceId)
  if (MANGADEX_SOURCE_IDS.has(sourceId)) {
    const url = mangaDexTitleUrl(path)
    const via: Via = { outcome: 'site', name: 'MangaDex', site: 'mangadex', family: 'mangadex' }
    if (!url) return { ok: false, skip: { reason: 'not-series', detail: `MangaDex ${path}`, sourceId }, via }
    return { ...byUrl(registry, url), via }
  }
  if (mapping) {
    const site = registry.get(mapping.site)
    const via: Via = { outcome: 'mapped', name: mapping.sourceName, site: mapping.site }
    if (!site)
      return { ok: false, skip: { reason: 'unknown-site', detail: `${mapping.site} (mapped from ${mapping.sourceName})`, sourceId }, via }
    used.set(sourceId, mapping)
    return { ...onSite(site, parseUrl(path, mapping.origin), path, sourceId), via }
  }
  const known = knownSourceById(sourceId)
  if (known?.knownSite) return byKnownSite(known.knownSite, path, registry, proposed, sourceId, known)
  if (known) return byNamedSource(known, path, registry, sourceId)
  // Some sources keep whole URLs: those resolve by their host like any link.
  if (/^https?:\/\//i.test(path)) return { ...byUrl(registry, path), via: { outcome: 'unknown' } }
  return { ok: false, skip: { reason: 'unmapped-source', detail: path, sourceId }, via: { outcome: 'unknown' } }
}

/** A source the table names that no family of this app reads: on a running Site of its host, else skipped, by name. */
function byNamedSource(known: KnownSource, path: string, registry: SiteRegistry, sourceId: string): Resolved {
  const origins = [known.baseUrl, ...(known.mirrors ?? [])].filter((o): o is string => !!o)
  const hosts = origins.flatMap((o) => knownHosts({ baseUrl: o }))
  const running = registry.sites.find((s) => hosts.some((h) => s.hosts.includes(h)))
  if (running) {
    const host = hosts.find((h) => running.hosts.includes(h))!
    const via: Via = { outcome: 'site', name: known.name, site: running.key, ...(running.family ? { family: running.family } : {}) }
    return { ...readOn(running, `${new URL(origins[0]!).protocol}//${host}`, path, sourceId), via }
  }
  const via: Via = { outcome: 'not-readable', name: known.name, ...(known.theme ? { family: known.theme } : {}) }
  // A whole URL on a Site the owner runs is read there, as any link.
  const whole = /^https?:\/\//i.test(path) ? byUrl(registry, path) : undefined
  if (whole?.ok) return { ...whole, via: { ...via, outcome: 'site', site: whole.site.key } }
  const detail = `${known.name}: ${path}`
  return { ok: false, skip: { reason: 'not-readable', detail, sourceId }, via }
}

/** An export document's Series as a stranger might have written it, made safe to store. */
function revalidated(snapshot: SeriesSnapshot, site: Site, stamp: (at: number) => number): SeriesSnapshot {
  const chapterUrl = snapshot.latestChapterUrl ? parseUrl(snapshot.latestChapterUrl) : null
  return {
    ...snapshot,
    latestChapterLabel: safeText(snapshot.latestChapterLabel, IMPORT_TITLE_MAX),
    // A chapter link the Readers' cards open: only one on the Site's own pin (a phishing page is not).
    latestChapterUrl: chapterUrl && isPinned(site, chapterUrl) ? chapterUrl.href : '',
    latestChangedAt: stamp(snapshot.latestChangedAt),
    latestCheckedAt: stamp(snapshot.latestCheckedAt),
    finishedAt: stamp(snapshot.finishedAt),
    createdAt: stamp(snapshot.createdAt),
  }
}

/**
 * A manga's `url` read on a Site whose source the backup names: a path on `base`; a whole URL on a host the
 * Site does not pin (a domain the site has left) by its path on `base` — the source id says which Site it is.
 */
function readOn(site: Site, base: string, path: string, sourceId: string): Resolved {
  const url = parseUrl(path, base)
  const away = url && (url.protocol === 'http:' || url.protocol === 'https:') && !isPinned(site, url)
  if (!away) return onSite(site, url, path, sourceId)
  const moved = new URL(`${url.pathname}${url.search}`, base)
  const resolved = onSite(site, moved, path, sourceId)
  return resolved.ok ? { ...resolved, via: { outcome: 'site', moved: { from: url.host, to: moved.host } } } : resolved
}

/** A manga's path read on a Site: its Series, or skipped as no Series of it. */
function onSite(site: Site, url: URL | null, path: string, sourceId: string): Resolved {
  const seriesId = url && isPinned(site, url) ? site.seriesIdOf(url) : null
  if (!url || !seriesId) return { ok: false, skip: { reason: 'not-series', detail: url?.href ?? path, site: site.key, sourceId } }
  return { ok: true, site, seriesId, seriesUrl: site.canonicalUrl?.(url) ?? url.href }
}

/**
 * A source of the Known Sites table (docs/adr/0078-known-sites-from-the-extension-repository.md): read on the
 * running Site that pins its host, or on the Site the table makes, which the plan proposes to add.
 */
function byKnownSite(
  known: KnownSite,
  path: string,
  registry: SiteRegistry,
  proposed: Proposed,
  sourceId: string,
  source: KnownSource,
): Resolved {
  path = backupSeriesPath(known.family, path)
  const hosts = knownHosts(known)
  const running = registry.sites.find((s) => hosts.some((h) => s.hosts.includes(h)))
  const via = (outcome: SourceOutcome, site: string, r: Resolved): Resolved => ({
    ...r,
    via: { outcome, name: source.name, site, family: known.family, ...(r.via?.moved ? { moved: r.via.moved } : {}) },
  })
  if (running) {
    const host = hosts.find((h) => running.hosts.includes(h))!
    return via('site', running.key, readOn(running, `${new URL(known.baseUrl).protocol}//${host}`, path, sourceId))
  }
  let held = proposed.get(known.key)
  if (!held) {
    const taken = new Set([...registry.sites.map((s) => s.key), ...[...proposed.values()].map((p) => p.planned.entry.key)])
    const entry = knownSiteEntry(known, taken) as PlannedSite['entry']
    const checked = checkSiteEntry(entry, new Map())
    // The table is generated against the same schema (known-sites.test.ts); a row it refuses is no Site.
    if ('problems' in checked) return { ok: false, skip: { reason: 'unmapped-source', detail: checked.problems.join('; '), sourceId } }
    held = { planned: { entry, known, count: 0 }, site: checked.site }
    proposed.set(known.key, held)
  }
  held.planned.count++
  return via('site-to-add', held.planned.entry.key, readOn(held.site, known.baseUrl, path, sourceId))
}

function byUrl(registry: SiteRegistry, raw: string): Resolved {
  const match = registry.resolve(raw)
  if (match) return { ok: true, site: match.site, seriesId: match.seriesId, seriesUrl: match.seriesUrl }
  const url = parseUrl(raw)
  const host = url?.host.toLowerCase() ?? ''
  const pinned = url ? registry.sites.find((s) => isPinned(s, url)) : undefined
  if (pinned) return { ok: false, skip: { reason: 'not-series', detail: raw, site: pinned.key, host } }
  return { ok: false, skip: { reason: 'unknown-host', detail: raw, host } }
}

function describe(entry: ImportEntry): string {
  const t = entry.target
  return t.kind === 'url' ? t.url : t.kind === 'source' ? t.path : `${t.site}/${t.seriesId}`
}

/**
 * The origin a mapped source's paths are read on when the owner names only the Site: its first host, over
 * https — or http for a host on this machine, which serves no TLS (the demo and test Sites).
 */
export function defaultOrigin(site: Pick<Site, 'hosts'>): string {
  const host = site.hosts[0] ?? ''
  const loopback = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])(:\d+)?$/i.test(host)
  return `${loopback ? 'http' : 'https'}://${host}`
}
