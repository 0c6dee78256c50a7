/**
 * Import (issue #17): a file read into entries, planned through the Site registry, previewed against the
 * store, and — once the owner confirms — written in one transaction. It sends no request at all: the new
 * Series are due, and the Lanes read them at their own pace (docs/adr/0036-import-plans-and-one-transaction.md).
 * The window drives it through `ImportJobs`; `npm run import` calls the same functions.
 */
import { randomUUID } from 'node:crypto'
import type { ImportJobView, ImportPreviewView, ImportResultView } from '../../shared/admin-api'
import type { ImportSkipReason } from '../../shared/library'
import type { Clock } from '../clock'
import { AppError } from '../../shared/errors'
import { familyName as familyNameOf, SITE_FAMILIES } from '../../shared/site-families'
import type { ParsedLibrary } from '../library/entries'
import { ImportError } from '../library/errors'
import { defaultOrigin, planImportInSlices, type ImportPlan, type SourceMapping } from '../library/plan'
import { readLibraryOffThread } from '../library/import-reader'
import type { Log } from '../log'
import type { SiteRegistry } from '../sites/registry'
import { knownHostFacts, knownSiteKind } from '../sites/known-sites'
import { parseUrl, type Site } from '../sites/site'
import { addSiteEntry } from '../sites/sites-writer'
import type { Db } from '../store/database'
import { existingBookmarks, existingSeries, importProgressWins, saveSourceMapping, sourceMappings, writeImport } from '../store/library'
import { getReader, readerByName } from '../store/readers'
import { hashToken, newToken, READER_NAME } from './reader-tokens'
import { planOnKnownSeries } from './series-by-url'

export interface LibraryDeps {
  db: Db
  registry: SiteRegistry
  clock: Clock
  log?: Log
  /** Where the Sites an import adds are written (`<data>/sites.json`); without it an import adds none. */
  dataDir?: string
  /** Starts a Site just written (its Lane); default: only the registry learns it. */
  addSite?(site: Site): Promise<void>
}

export type Progress = (done: number, total: number) => void

/** The remembered source mappings, by source id. */
export async function loadMappings(db: Db): Promise<Map<string, SourceMapping>> {
  const rows = await sourceMappings(db)
  return new Map(rows.map((r) => [r.source_id, { sourceId: r.source_id, sourceName: r.source_name, site: r.site, origin: r.origin }]))
}

/** The Reader an import is for, checked; undefined when none was chosen. */
export async function importReader(db: Db, readerId: number | undefined): Promise<{ id: number; name: string } | undefined> {
  if (readerId === undefined) return undefined
  const reader = await getReader(db, readerId)
  if (!reader) throw new AppError('not-found', `no Reader ${readerId}`)
  return { id: reader.id, name: reader.name }
}

/** Plans a read file for a Reader (or, for an export document, for the Readers it names). */
export async function planLibrary(
  deps: LibraryDeps,
  parsed: ParsedLibrary,
  reader: { id: number; name: string } | undefined,
): Promise<ImportPlan> {
  if (!reader && parsed.format !== 'export') {
    throw new AppError('invalid', 'choose the Reader the bookmarks are for (only an export document names its own Readers)')
  }
  const mappings = await loadMappings(deps.db)
  // In slices: the event loop (Readers, /health, the Lanes) runs between them while a large file is planned.
  const plan = await planImportInSlices(parsed, { registry: deps.registry, mappings, now: deps.clock.now(), ...(reader ? { reader } : {}) })
  // A name is at most 40 characters already (the export document's schema): it is quoted whole.
  for (const r of plan.readers) {
    if (!READER_NAME.test(r.name)) throw new ImportError(`export document: "${r.name}" is not a Reader name this app takes`)
  }
  // A Series the app knows by another id (it moved) is that Series, not a new one (docs/adr/0233-…).
  return planOnKnownSeries(deps.db, deps.registry, plan)
}

/** What the import of a plan would do, read from the store now. Writes nothing. */
export async function previewPlan(
  deps: LibraryDeps,
  plan: ImportPlan,
  fileName: string,
  reader: { id: number; name: string } | undefined,
): Promise<ImportPreviewView> {
  const { db, registry } = deps
  const readerIds = new Map<string, number>()
  for (const r of plan.readers) {
    const row = await readerByName(db, r.name)
    if (row) readerIds.set(r.name, row.id)
  }
  const sites = await previewSites(db, registry, plan, readerIds)
  const sum = (pick: (s: SiteView) => number) => sites.reduce((n, s) => n + pick(s), 0)
  const skips = skipsByReason(plan.skipped)
  return {
    fileName,
    format: plan.format,
    reader: reader ?? null,
    entries: plan.entries,
    sites,
    skipped: skips.skipped,
    unknownSources: plan.unknownSources,
    sources: sourceViews(plan, registry),
    unknownHosts: skips.unknownHosts,
    sitesToAdd: plan.sitesToAdd
      .map((s) => ({
        key: s.entry.key,
        name: s.entry.name,
        family: knownSiteKind(s.known),
        host: new URL(s.known.baseUrl).host,
        count: s.count,
      }))
      .sort((a, b) => b.count - a.count || a.name.localeCompare(b.name)),
    mappings: plan.mappingsUsed.map((m) => ({ ...m, siteName: registry.get(m.site)?.name ?? m.site })),
    readersToCreate: plan.forReader ? [] : plan.readers.filter((r) => !readerIds.has(r.name)).map((r) => r.name),
    siteChoices: registry.sites.map((s) => ({ site: s.key, name: s.name })).sort((a, b) => a.name.localeCompare(b.name)),
    totals: {
      add: sum((s) => s.add),
      present: sum((s) => s.present),
      progress: sum((s) => s.progress),
      newSeries: sum((s) => s.newSeries),
      skipped: plan.skipped.length,
    },
  }
}

type SiteView = ImportPreviewView['sites'][number]

/** The plan's backup sources for the preview: the Site each is read on by name, the family by its name. */
function sourceViews(plan: ImportPlan, registry: SiteRegistry): ImportPreviewView['sources'] {
  const adding = new Map(plan.sitesToAdd.map((s) => [s.entry.key, s.entry.name]))
  return plan.sources.map(({ site, family, ...s }) => {
    const siteName = site && (registry.get(site)?.name ?? adding.get(site) ?? site)
    const familyName = family && familyNameOf(family)
    return { ...s, ...(siteName ? { siteName } : {}), ...(familyName ? { family: familyName } : {}) }
  })
}

/** Per Site, by name: bookmarks to add, present ones and their Progress to move, new Series, entries skipped. */
async function previewSites(db: Db, registry: SiteRegistry, plan: ImportPlan, readerIds: Map<string, number>): Promise<SiteView[]> {
  const series = await existingSeries(db, plan.series)
  const bookmarks = await existingBookmarks(db, [...readerIds.values()], plan.bookmarks)
  const views = new Map<string, SiteView>()
  const adding = new Map(plan.sitesToAdd.map((s) => [s.entry.key, s.entry.name]))
  const viewOf = (key: string) => {
    let view = views.get(key)
    if (!view) {
      view = {
        site: key,
        name: registry.get(key)?.name ?? adding.get(key) ?? key,
        add: 0,
        present: 0,
        progress: 0,
        newSeries: 0,
        skipped: 0,
      }
      views.set(key, view)
    }
    return view
  }
  for (const s of plan.series) if (!series.has(`${s.site}\u0000${s.seriesId}`)) viewOf(s.site).newSeries++
  for (const b of plan.bookmarks) {
    const view = viewOf(b.site)
    // A Reader not yet created holds no bookmark: its key ("undefined…") names none.
    const was = bookmarks.get(`${readerIds.get(b.reader)}\u0000${b.site}\u0000${b.seriesId}`)
    if (!was) {
      view.add++
      continue
    }
    view.present++
    if (b.progress !== undefined && importProgressWins(b.progressAt ?? 0, was)) view.progress++
  }
  for (const skip of plan.skipped) if (skip.site) viewOf(skip.site).skipped++
  return [...views.values()].sort((a, b) => a.name.localeCompare(b.name))
}

/** The skipped entries by reason (the commonest first, three examples each) and the ten commonest unknown hosts. */
function skipsByReason(skipped: ImportPlan['skipped']): Pick<ImportPreviewView, 'skipped' | 'unknownHosts'> {
  const reasons = new Map<ImportSkipReason, { reason: ImportSkipReason; count: number; examples: string[] }>()
  const hosts = new Map<string, number>()
  for (const skip of skipped) {
    let r = reasons.get(skip.reason)
    if (!r) reasons.set(skip.reason, (r = { reason: skip.reason, count: 0, examples: [] }))
    r.count++
    if (r.examples.length < 3) r.examples.push(`${skip.ref}: ${skip.detail.slice(0, 160)}`)
    if (skip.reason === 'unknown-host' && skip.host) hosts.set(skip.host, (hosts.get(skip.host) ?? 0) + 1)
  }
  return {
    skipped: [...reasons.values()].sort((a, b) => b.count - a.count),
    unknownHosts: [...hosts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, 10)
      .map(([host, count]) => ({ host, count, ...hostHint(host) })),
  }
}

/** What the Known Sites table knows of a host no Site has, for a person: "Manganato, a MangaBox site". Sends nothing. */
function hostHint(host: string): { known?: string } {
  const facts = knownHostFacts(host)
  if (!facts) return {}
  if (facts.family) return { known: `${facts.name}, a ${SITE_FAMILIES[facts.family].name} site: Add a Site adds it` }
  return { known: `${facts.name}${facts.theme ? ` (theme ${facts.theme})` : ''}: no family reads this site yet` }
}

/**
 * Writes a plan in one transaction. Readers an export document names that do not exist are created, each
 * with a new token returned once. Sends no request.
 */
export async function applyPlan(deps: LibraryDeps, plan: ImportPlan, onProgress?: Progress): Promise<ImportResultView> {
  const now = deps.clock.now()
  const started = performance.now()
  const tokens = new Map<string, string>()
  // A chosen Reader is never created again under its name: if it was removed meanwhile, the write refuses.
  const newReaders = (plan.forReader ? [] : plan.readers).map((r) => {
    const token = newToken()
    tokens.set(r.name, token)
    return { name: r.name, tokenHash: hashToken(token), createdAt: r.createdAt || now }
  })
  const counts = await writeImport(
    deps.db,
    {
      newReaders,
      series: plan.series.map((s) => ({
        site: s.site,
        seriesId: s.seriesId,
        title: s.title,
        seriesUrl: s.seriesUrl,
        ...(s.snapshot
          ? {
              snapshot: {
                latest_chapter: s.snapshot.latestChapter,
                latest_chapter_label: s.snapshot.latestChapterLabel,
                latest_chapter_url: s.snapshot.latestChapterUrl,
                latest_source: s.snapshot.latestSource,
                latest_changed_at: s.snapshot.latestChangedAt,
                latest_checked_at: s.snapshot.latestCheckedAt,
                finished_at: s.snapshot.finishedAt,
                created_at: s.snapshot.createdAt,
              },
            }
          : {}),
      })),
      bookmarks: plan.bookmarks,
      ...(plan.lanePauses ? { lanePauses: plan.lanePauses } : {}),
    },
    now,
    onProgress,
  )
  const result: ImportResultView = {
    seriesAdded: counts.seriesAdded,
    bookmarksAdded: counts.bookmarksAdded,
    bookmarksPresent: counts.bookmarksPresent,
    progressUpdated: counts.progressUpdated,
    ...(counts.lanesPaused ? { lanesPaused: counts.lanesPaused } : {}),
    skipped: plan.skipped.length,
    readersCreated: counts.readersCreated.map((name) => ({ name, token: tokens.get(name)! })),
    ms: Math.round(performance.now() - started),
  }
  deps.log?.info(
    { format: plan.format, ...result, readersCreated: counts.readersCreated },
    `import: ${result.bookmarksAdded} bookmarks and ${result.seriesAdded} Series added`,
  )
  return result
}

/**
 * Writes the Known Sites a plan proposes to `<data>/sites.json`, one by one, and starts each (its Lane);
 * sends no request. Returns how many were added; a refusal (a key or host taken meanwhile) stops with
 * nothing more written, and the Sites written so far stay (each is whole).
 */
export async function addPlannedSites(deps: LibraryDeps, plan: ImportPlan): Promise<number> {
  if (!plan.sitesToAdd.length) return 0
  if (!deps.dataDir) throw new AppError('invalid', 'this import cannot add Sites (no data folder); add them in sites.json first')
  let added = 0
  for (const { entry } of plan.sitesToAdd) {
    const written = await addSiteEntry(deps.dataDir, entry, deps.registry.sites)
    if (!written.ok) throw new AppError('conflict', `adding the Site ${entry.name}: ${written.reason}`)
    await (deps.addSite ? deps.addSite(written.site) : Promise.resolve(deps.registry.add(written.site)))
    added++
  }
  deps.log?.info({ sites: plan.sitesToAdd.map((s) => s.entry.key) }, `import: ${added} Known Sites added`)
  return added
}

/**
 * Maps a backup source to a Site, remembered for the next import: by the Site's key (its manga paths are
 * read on the Site's first host), or by one URL of the source, whose host picks the Site and whose scheme
 * and host are kept. A URL no Site's host pin holds is refused with the sites.json entry that would add one.
 */
export async function mapSource(
  deps: LibraryDeps,
  input: { sourceId: string; sourceName: string; site?: string; url?: string },
): Promise<SourceMapping> {
  let mapping: SourceMapping
  if (input.url !== undefined) {
    const url = parseUrl(input.url)
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw new AppError('invalid', `not an http(s) URL: ${input.url.slice(0, 200)}`)
    const site = deps.registry.sites.find((s) => s.hosts.includes(url.host))
    if (!site) throw new AppError('not-found', unknownHostHint(url, input.sourceName))
    mapping = { sourceId: input.sourceId, sourceName: input.sourceName, site: site.key, origin: url.origin }
  } else {
    const site = deps.registry.get(input.site ?? '')
    if (!site) throw new AppError('not-found', `no Site "${input.site}"`)
    mapping = { sourceId: input.sourceId, sourceName: input.sourceName, site: site.key, origin: defaultOrigin(site) }
  }
  await saveSourceMapping(deps.db, { ...mapping, now: deps.clock.now() })
  return mapping
}

/**
 * What to do about a host no Site has, from what the Known Sites table knows of it — its family, or the theme a
 * source no family reads builds on — else that its family cannot be told from the address. Sends nothing.
 */
function unknownHostHint(url: URL, sourceName: string): string {
  const facts = knownHostFacts(url.host)
  const entry = { key: siteKeyFor(sourceName, url.hostname), name: sourceName.slice(0, 80), hosts: [url.host] }
  const lead = `no Site has the host ${url.host}.`
  if (facts?.family) {
    const json = JSON.stringify({ ...entry, family: facts.family })
    return `${lead} It is ${facts.name}, a ${SITE_FAMILIES[facts.family].name} site: add it with Add a Site, or as a Site in sites.json, restart, and map again: ${json}`
  }
  const known = facts
    ? ` The extension repository knows it as ${facts.name}${facts.theme ? ` (theme ${facts.theme})` : ''}, which no family of this app reads yet.`
    : ''
  return `${lead}${known} Its family cannot be told from the address: add it with Add a Site, which recognises the family from one of its pages, or as a Site in sites.json (its family or selectors as the site is built), restart, and map again: ${JSON.stringify(entry)}`
}

function siteKeyFor(name: string, hostname: string): string {
  const slug = (name || hostname)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 40)
  return slug || 'new-site'
}

interface Job {
  id: string
  fileName: string
  reader: { id: number; name: string } | undefined
  phase: ImportJobView['phase']
  done: number
  total: number
  parsed?: ParsedLibrary
  plan?: ImportPlan
  preview: ImportPreviewView | null
  result: ImportResultView | null
  error: string | null
  /** When the window last looked at it, on the monotonic clock: a wall clock set back must not make it look new. */
  touchedAt: number
}

/** How many imports the window may hold at once (each keeps its read file's entries until it ends). */
const MAX_JOBS = 4

/**
 * Imports in the window: each is read and previewed in the background (its progress polled), then written
 * when the owner confirms. A job lives in memory: a restart forgets an unconfirmed preview, and nothing was
 * written for it. At most one write runs at a time.
 */
export class ImportJobs {
  readonly #jobs = new Map<string, Job>()
  #writing: Promise<unknown> = Promise.resolve()

  constructor(private readonly deps: LibraryDeps) {}

  /** Starts reading a file; answers at once with the job (poll `get` for the preview). */
  async start(input: { readerId?: number; fileName: string; bytes: Buffer }): Promise<ImportJobView> {
    const reader = await importReader(this.deps.db, input.readerId)
    const job: Job = {
      id: randomUUID(),
      fileName: input.fileName,
      reader,
      phase: 'reading',
      done: 0,
      total: 0,
      preview: null,
      result: null,
      error: null,
      touchedAt: this.deps.clock.monotonic(),
    }
    this.#keep(job)
    void this.#read(job, input.bytes)
    return view(job)
  }

  get(id: string): ImportJobView {
    const job = this.#job(id)
    const answer = view(job)
    // The new Readers' tokens are shown once.
    if (job.result?.readersCreated.length)
      job.result = { ...job.result, readersCreated: job.result.readersCreated.map((r) => ({ ...r, token: '' })) }
    return answer
  }

  /** Maps one of the job's unknown sources to a Site (remembered), and previews the job again. */
  async map(id: string, input: { sourceId: string; site?: string; url?: string }): Promise<ImportJobView> {
    const job = this.#job(id)
    if (job.phase !== 'previewed' || !job.parsed) throw new AppError('conflict', 'this import is not waiting for a preview decision')
    const sourceName = job.parsed.sourceNames.get(input.sourceId) ?? `source ${input.sourceId}`
    await mapSource(this.deps, { ...input, sourceName })
    await this.#preview(job)
    return view(job)
  }

  /** Writes the job's import; answers at once with the job in its writing phase (poll `get`). */
  confirm(id: string): ImportJobView {
    const job = this.#job(id)
    if (job.phase !== 'previewed' || !job.parsed) throw new AppError('conflict', `this import is ${job.phase}, not waiting to be confirmed`)
    job.phase = 'writing'
    job.done = 0
    job.total = 0
    const parsed = job.parsed
    const write = async () => {
      try {
        // Planned again from the file: a mapping, the library or the Reader may have changed since the preview.
        const reader = job.reader ? await importReader(this.deps.db, job.reader.id) : undefined
        let plan = await planLibrary(this.deps, parsed, reader)
        // The Known Sites the owner saw listed are added first; planned again, their entries resolve on them.
        if (await addPlannedSites(this.deps, plan)) plan = await planLibrary(this.deps, parsed, reader)
        job.total = plan.series.length + plan.bookmarks.length
        job.result = await applyPlan(this.deps, plan, (done, total) => {
          job.done = done
          job.total = total
        })
        job.phase = 'done'
        // The file's entries are let go (as a failure lets them go): a job done refuses every use of them.
        job.parsed = undefined
        job.plan = undefined
      } catch (error) {
        this.#fail(job, error)
      }
    }
    this.#writing = this.#writing.then(write, write)
    return view(job)
  }

  cancel(id: string): void {
    const job = this.#job(id)
    if (job.phase === 'writing') throw new AppError('conflict', 'this import is being written; it cannot be cancelled now')
    this.#jobs.delete(id)
  }

  /** Resolves when every write started so far has ended (tests, shutdown). */
  async settled(): Promise<void> {
    await this.#writing
  }

  async #read(job: Job, bytes: Buffer): Promise<void> {
    try {
      job.parsed = await readLibraryOffThread(bytes, job.fileName, {
        ...(this.deps.log ? { log: this.deps.log } : {}),
        onProgress: (done, total) => {
          job.done = done
          job.total = total
        },
      })
      await this.#preview(job)
      job.phase = 'previewed'
    } catch (error) {
      this.#fail(job, error)
    }
  }

  async #preview(job: Job): Promise<void> {
    job.plan = await planLibrary(this.deps, job.parsed!, job.reader)
    job.preview = await previewPlan(this.deps, job.plan, job.fileName, job.reader)
  }

  #fail(job: Job, error: unknown): void {
    job.phase = 'failed'
    job.parsed = undefined
    job.plan = undefined
    const known = error instanceof AppError
    job.error = known ? error.message : 'the import failed on our side; nothing was written'
    if (!known) this.deps.log?.error({ err: error, file: job.fileName }, 'import: failed')
  }

  #job(id: string): Job {
    const job = this.#jobs.get(id)
    if (!job) throw new AppError('not-found', 'no such import (it ended, or the app restarted); start it again')
    job.touchedAt = this.deps.clock.monotonic()
    return job
  }

  #keep(job: Job): void {
    this.#jobs.set(job.id, job)
    // The oldest idle imports go first; one being written is never dropped.
    const idle = [...this.#jobs.values()].filter((j) => j.phase !== 'writing' && j !== job).sort((a, b) => a.touchedAt - b.touchedAt)
    while (this.#jobs.size > MAX_JOBS && idle.length) this.#jobs.delete(idle.shift()!.id)
  }
}

function view(job: Job): ImportJobView {
  return {
    id: job.id,
    phase: job.phase,
    done: job.done,
    total: job.total,
    preview: job.preview,
    result: job.result,
    error: job.error,
  }
}
