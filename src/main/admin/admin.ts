/**
 * The core's implementation of the owner's admin contract (src/shared/admin-api.ts). Each write is a row
 * write answered with the freshly read row or block it changed; nothing commands a Lane (docs/adr/0001).
 * Inputs are validated by `validated()` before they reach these functions.
 */
import {
  PAUSE_DURATIONS,
  type AdminApi,
  type CheckFailureView,
  type LaneView,
  type PassView,
  type SeriesRowView,
  type SettingsView,
  type SiteProposalView,
  type StorageView,
} from '../../shared/admin-api'
import { checkNowRefusal } from '../../shared/check-now'
import { NEW_CHAPTER_MS } from '../../shared/domain'
import { seriesWaiting, type SeriesWaitingView } from '../../shared/series-state'
import { fetcherFor } from '../fetch/fetcher'
import { cadenceWords } from '../lanes/cadence'
import { readerAddress } from '../server/addresses'
import type { SignInCodes } from './sign-in-codes'
import type { Settings } from '../../shared/settings'
import { newChapterCount, newChapterUpdates } from '../store/updates'
import { chapterList } from '../store/chapters'
import type { Core } from '../core'
import { AppError } from '../../shared/errors'
import { isPinned, parseUrl, type Site } from '../sites/site'
import { bookmarkCounts, removeBookmark, seriesReaders } from '../store/bookmarks'
import { allLanes, laneRow, pauseLane, resumeLane } from '../store/lanes'
import { latestPassPerSite, recentPasses } from '../store/passes'
import { listReaders, getReader } from '../store/readers'
import type { LaneRow, PassRow } from '../store/schema'
import { finishSeries, forceSeriesPoll, latestChapterHistory, setSeriesUrl, unfinishSeries } from '../store/series'
import { getSeriesListRow, listSeries, overviewCounts, recentFailures, type SeriesListRow } from '../store/series-list'
import { readSettings, writeSettings } from '../store/settings'
import { seriesSightings } from '../store/sightings'
import { isStorageUnavailable } from '../store/storage'
import { bookmarkByUrl } from '../use-cases/acquire'
import { siteProposals } from '../use-cases/add-site'
import { exportLibrary } from '../use-cases/library-export'
import type { BigReads } from '../sync/big-reads'
import type { ExportDocument } from '../../shared/export-format'
import { JsonText } from './json-text'
import { ImportJobs } from '../use-cases/library-import'
import { createReader, deleteReader, rotateToken } from '../use-cases/reader-tokens'
import { DEFAULT_PACE } from '../sites/site'
import { applyLogLevel, logProblem } from '../log'
import { ownerNotifications } from '../notify/owner'
import { upcomingSeries } from '../notify/upcoming'

export interface AdminContext {
  core: Core
  shell: 'electron' | 'headless'
  /** Where the sync endpoint listens now, e.g. http://127.0.0.1:4711. */
  listening(): string
  /**
   * Moves the sync endpoint to the bind and port the owner chose, at once (absent: a core without its HTTP
   * server). Throws, leaving it where it was, when the new address cannot be had.
   */
  moveSyncEndpoint?(bind: Settings['syncBind'], port: number | undefined): Promise<void>
  /**
   * One-time codes the Readers' page exchanges for a token (docs/adr/0087-sign-in-links-that-end.md): a new or
   * rotated token's sign-in link carries one. Absent (a core without its HTTP server): the link is the token's own.
   */
  readerCodes?: SignInCodes
  /** The library's export read off the main thread (docs/adr/0093-…); absent: read here. */
  bigReads?: Pick<BigReads, 'exportLibrary'>
}

/** How many stored chapters the Series detail shows, newest first. */
const DETAIL_CHAPTERS = 200

/** How many New Chapters the Updates page reads at once, by default. */
const UPDATES_PAGE = 50

/** How many recent passes the Lanes page charts. */
export const CHART_PASSES = 60
/** How many of a Site's failed checks the Lanes page explains. */
const FAILURES_SHOWN = 5

export function createAdmin(ctx: AdminContext): AdminApi {
  const { core } = ctx
  const db = core.store.db
  const now = () => core.clock.now()
  const siteOf = (key: string): Site | undefined => core.registry.get(key)
  const imports = new ImportJobs({
    db,
    registry: core.registry,
    clock: core.clock,
    log: core.log,
    dataDir: core.dataDir,
    addSite: (site) => core.addSite(site),
  })
  const newSites = siteProposals(core)
  // Each Site's own ceiling says when its checks are stale.
  const staleBefore = () => ({
    fallback: now() - DEFAULT_PACE.ceilingMs,
    bySite: Object.fromEntries(core.registry.sites.map((s) => [s.key, now() - s.pace.ceilingMs])),
  })

  /** What each Series waits for needs its Lane's row: read once per answer, for every Lane. */
  async function waitingFor(): Promise<(row: SeriesListRow) => SeriesWaitingView> {
    const lanes = new Map((await allLanes(db)).map((l) => [l.site, l]))
    const at = now()
    return (row) => {
      const site = siteOf(row.site)
      const lane = lanes.get(row.site)
      return seriesWaiting(
        {
          url: row.series_url,
          readerCount: row.reader_count,
          finishedAt: row.finished_at,
          pending: row.pending,
          latestCheckedAt: row.latest_checked_at,
          latestSightedAt: row.latest_sighted_at,
          plannedAt: site?.pace.cadence === 'adaptive' ? row.next_check_at : 0,
        },
        {
          ...(site
            ? {
                site: {
                  restMs: site.pace.restMs,
                  ceilingMs: site.pace.ceilingMs,
                  hasFetcher: fetcherFor(site, core.fetchers) !== undefined,
                },
              }
            : {}),
          pausedUntil: lane?.paused_until ?? 0,
          refuseUntil: lane?.refuse_until ?? 0,
        },
        at,
      )
    }
  }

  async function row(key: { site: string; seriesId: string }): Promise<SeriesRowView> {
    const found = await getSeriesListRow(db, key)
    if (!found) throw new AppError('not-found', `no Series ${key.site}/${key.seriesId}`)
    return seriesRowView(found, siteOf(found.site), (await waitingFor())(found))
  }

  const allLaneViews = (withHistory: boolean) => laneViews(core, withHistory)

  async function oneLane(site: string): Promise<LaneView> {
    if (!siteOf(site)) throw new AppError('not-found', `no Site "${site}"`)
    const lanes = await allLaneViews(false)
    const found = lanes.find((l) => l.site === site)
    return found ?? laneView(core, await laneRow(db, site), undefined)
  }

  async function readerViews() {
    const [readers, counts] = await Promise.all([listReaders(db), bookmarkCounts(db)])
    return readers.map((r) => ({ id: r.id, name: r.name, createdAt: r.created_at, bookmarks: counts.get(r.id) ?? 0 }))
  }

  const storageView = () => storageViewOf(core)

  async function settingsView(): Promise<SettingsView> {
    return {
      settings: await readSettings(db),
      listening: ctx.listening(),
      readersPage: readersPage(ctx.listening()),
      shell: ctx.shell,
      storage: storageView(),
      logLevelFromEnvironment: Boolean(process.env.MB_LOG_LEVEL),
    }
  }

  async function detail(key: { site: string; seriesId: string }) {
    const [r, readers, sightings, history, chapters] = await Promise.all([
      row(key),
      seriesReaders(db, key),
      seriesSightings(db, key),
      latestChapterHistory(db, key),
      chapterList(db, key, { limit: DETAIL_CHAPTERS }),
    ])
    return {
      row: r,
      readers: readers.map((x) => ({
        readerId: x.reader_id,
        name: x.name,
        status: x.status,
        progress: x.progress,
        progressAt: x.progress_at,
      })),
      sightings: sightings.map((g) => ({
        id: g.id,
        readerName: g.reader_name,
        chapter: g.chapter,
        sightedAt: g.sighted_at,
        verdict: g.verdict,
        judgedAt: g.judged_at,
      })),
      history: history.map((h) => ({ chapter: h.chapter, label: h.label, source: h.source, at: h.at })),
      chapters: chapters.map((c) => ({
        number: c.number,
        label: c.label,
        url: c.url,
        releasedAt: c.released_at,
        firstSeenAt: c.first_seen_at,
        arrived: c.arrived === 1,
        vanishedAt: c.vanished_at,
      })),
    }
  }

  const issued = async (result: Awaited<ReturnType<typeof createReader>>) => ({
    reader: {
      id: result.reader.id,
      name: result.reader.name,
      createdAt: result.reader.created_at,
      bookmarks: (await bookmarkCounts(db)).get(result.reader.id) ?? 0,
    },
    token: result.token,
    address: readerAddress(
      ctx.listening(),
      ctx.readerCodes ? `code=${ctx.readerCodes.issue(result.token).code}` : `token=${encodeURIComponent(result.token)}`,
    ),
  })

  return {
    async overview() {
      try {
        return {
          now: now(),
          counts: { ...(await overviewCounts(db, staleBefore())), newChapters: await newChapterCount(db, now() - NEW_CHAPTER_MS) },
          lanes: await allLaneViews(false),
          siteProblems: [...core.siteProblems],
          storage: storageView(),
        }
      } catch (error) {
        // A database that cannot be read (a damaged page): the answer is what the owner must do about it.
        const problem = core.storage.problem()
        if (isStorageUnavailable(error) && problem) throw new AppError('storage-unavailable', problem.message, { cause: error })
        throw error
      }
    },
    async listSeries(input) {
      const page = await listSeries(db, {
        staleBefore: staleBefore(),
        newSince: now() - NEW_CHAPTER_MS,
        ...(input.sort ? { sort: input.sort } : {}),
        offset: input.offset ?? 0,
        limit: input.limit ?? 100,
        count: input.count ?? true,
        ...(input.after ? { after: input.after } : {}),
        ...(input.filter ? { filter: input.filter } : {}),
        ...(input.site ? { site: input.site } : {}),
        ...(input.search ? { search: input.search } : {}),
      })
      const waiting = await waitingFor()
      return {
        ...(page.total !== undefined ? { total: page.total } : {}),
        offset: input.offset ?? 0,
        rows: page.rows.map((r) => seriesRowView(r, siteOf(r.site), waiting(r))),
        ...(page.next ? { next: page.next } : {}),
      }
    },
    seriesDetail: (input) => detail(input),
    async updates(input) {
      const limit = input?.limit ?? UPDATES_PAGE
      const rows = await newChapterUpdates(db, {
        limit,
        ...(input?.before !== undefined ? { before: input.before } : {}),
        ...(input?.readerId !== undefined ? { readerId: input.readerId } : {}),
      })
      const last = rows.at(-1)
      return {
        items: rows.map((u) => ({
          id: u.id,
          site: u.site,
          siteName: siteOf(u.site)?.name ?? u.site,
          seriesId: u.series_id,
          title: u.title,
          chapter: u.chapter,
          label: u.label,
          previous: u.previous,
          at: u.at,
          url: u.url,
        })),
        ...(last && rows.length === limit ? { next: last.id } : {}),
        ...(input?.before === undefined ? { upcoming: await upcomingSeries(db, now(), (site) => siteOf(site)?.name ?? site) } : {}),
      }
    },
    lanes: () => allLaneViews(true),
    readers: () => readerViews(),
    settings: () => settingsView(),
    ...ownerNotifications(core),
    async forceSeriesPoll(input) {
      // The pair the due query never overrides: a press here would only sit pending for ever.
      const current = await row(input)
      const refusal = checkNowRefusal(current)
      if (refusal) throw new AppError('invalid', refusal)
      await forceSeriesPoll(db, input, now())
      return row(input)
    },
    async pauseLane(input) {
      if (!siteOf(input.site)) throw new AppError('not-found', `no Site "${input.site}"`)
      await pauseLane(db, input.site, now() + PAUSE_DURATIONS[input.duration], now())
      return oneLane(input.site)
    },
    async resumeLane(input) {
      if (!siteOf(input.site)) throw new AppError('not-found', `no Site "${input.site}"`)
      await resumeLane(db, input.site)
      return oneLane(input.site)
    },
    async finishSeries(input) {
      await finishSeries(db, input, now())
      return row(input)
    },
    async unfinishSeries(input) {
      await unfinishSeries(db, input, now())
      return row(input)
    },
    async setSeriesUrl(input) {
      const site = siteOf(input.site)
      const url = parseUrl(input.url)
      if (!site) throw new AppError('not-found', `no Site "${input.site}"`)
      if (!url || !isPinned(site, url))
        throw new AppError('off-pin', `the URL is not on ${site.name}'s host pin (${site.hosts.join(', ')})`)
      await setSeriesUrl(db, { site: input.site, seriesId: input.seriesId }, url.href, now())
      return row(input)
    },
    async addBookmark(input) {
      if (!(await getReader(db, input.readerId))) throw new AppError('not-found', `no Reader ${input.readerId}`)
      const result = await bookmarkByUrl(core.acquireDeps, {
        readerId: input.readerId,
        url: input.url,
        ...(input.status ? { status: input.status } : {}),
      })
      return row({ site: result.bookmark.site, seriesId: result.bookmark.series_id })
    },
    async removeBookmark(input) {
      await removeBookmark(db, input.readerId, { site: input.site, seriesId: input.seriesId }, now())
      return detail(input)
    },
    async addReader(input) {
      return issued(await createReader(db, input.name, now()))
    },
    async rotateReaderToken(input) {
      return issued(await rotateToken(db, input.readerId))
    },
    async removeReader(input) {
      await deleteReader(db, input.readerId)
      return readerViews()
    },
    async updateSettings(input) {
      await moveSyncEndpoint(ctx, await readSettings(db), input)
      await writeSettings(db, input)
      if (input.logLevel) applyLogLevel(core.log, input.logLevel)
      return settingsView()
    },
    startImport: ({ readerId, file }) =>
      imports.start({
        ...(readerId !== undefined ? { readerId } : {}),
        fileName: file.fileName,
        bytes: file.base64 !== undefined ? Buffer.from(file.base64, 'base64') : Buffer.from(file.text ?? '', 'utf8'),
      }),
    importJob: async ({ jobId }) => imports.get(jobId),
    mapImportSource: ({ jobId, sourceId, site, url }) =>
      imports.map(jobId, { sourceId, ...(site !== undefined ? { site } : {}), ...(url !== undefined ? { url } : {}) }),
    confirmImport: async ({ jobId }) => imports.confirm(jobId),
    async cancelImport({ jobId }) {
      imports.cancel(jobId)
      return null
    },
    // Off the main thread, as JSON text the admin listener sends as it is (json-text.ts); typed as the document it holds.
    exportLibrary: async () =>
      ctx.bigReads
        ? (new JsonText(await ctx.bigReads.exportLibrary(now())) as unknown as ExportDocument)
        : exportLibrary({ db, registry: core.registry, now: now() }),
    async proposeSite({ url }) {
      const proposal = await newSites.propose(url)
      if (!proposal.ok) return proposal
      return {
        ok: true,
        id: proposal.id,
        entry: proposal.entry as Extract<SiteProposalView, { ok: true }>['entry'],
        recognisedBy: proposal.recognisedBy,
        seriesUrl: proposal.seriesUrl,
        preview: proposal.preview,
      }
    },
    async addSite({ proposalId, key, name }) {
      const added = await newSites.confirm(proposalId, { ...(key ? { key } : {}), ...(name ? { name } : {}) })
      return { lane: await oneLane(added.site.key), seriesUrl: added.seriesUrl }
    },
    async backupNow() {
      try {
        await core.backups.backupNow()
      } catch (error) {
        throw new AppError('storage-unavailable', (error as Error).message, { cause: error })
      }
      return storageView()
    },
    async backups() {
      return (await core.restorer.list()).map(({ verdict, ...b }) => ({ ...b, ok: verdict.ok, problems: verdict.problems }))
    },
    async restoreBackup({ file }) {
      const report = await core.restorer.restore(file)
      return { ...report, storage: storageView() }
    },
  }
}

/** Whether the store takes writes, and the backups: what the Overview, the Settings and the tray say of them. */
export function storageViewOf(core: Core): StorageView {
  return {
    file: core.store.file,
    problem: core.storage.problem(),
    madeEmpty: core.madeEmpty(),
    logProblem: logProblem(core.log),
    ...core.backups.state(),
  }
}

/**
 * One line per running Lane: its row, its latest pass and, with history, its recent passes and failed checks.
 * What the Overview, the Lanes page and the tray show (the tray reads only this, never the counts).
 */
export async function laneViews(core: Core, withHistory = false): Promise<LaneView[]> {
  const db = core.store.db
  const [lanes, latest] = await Promise.all([allLanes(db), latestPassPerSite(db)])
  const bySite = new Map(latest.map((p) => [p.site, p]))
  // Lanes of Sites that are no longer configured are left out: nothing runs them.
  const known = lanes.filter((l) => core.registry.get(l.site))
  return Promise.all(
    known.map(async (l) =>
      withHistory
        ? laneView(
            core,
            l,
            bySite.get(l.site),
            await recentPasses(db, l.site, CHART_PASSES),
            await recentFailures(db, l.site, FAILURES_SHOWN),
          )
        : laneView(core, l, bySite.get(l.site)),
    ),
  )
}

function laneView(
  core: Core,
  lane: LaneRow,
  latest: PassRow | undefined,
  recent?: PassRow[],
  failures?: Awaited<ReturnType<typeof recentFailures>>,
): LaneView {
  const site = core.registry.get(lane.site)
  const pace = site?.pace ?? DEFAULT_PACE
  return {
    site: lane.site,
    name: site?.name ?? lane.site,
    fetcher: site?.fetcher ?? 'http',
    pausedUntil: lane.paused_until,
    refuseUntil: lane.refuse_until,
    latestPass: latest ? passView(latest) : null,
    pace: { restMs: pace.restMs, maxPassMs: pace.maxPassMs, maxGapMs: pace.maxGapMs, idleRequeryMs: pace.idleRequeryMs },
    ...(recent ? { recent: recent.map(passView).reverse() } : {}),
    ...(failures
      ? {
          recentFailures: failures.map((f) => ({
            seriesId: f.series_id,
            title: f.title,
            outcome: f.last_outcome as CheckFailureView['outcome'],
            reason: f.last_error,
            at: f.last_outcome_at,
          })),
        }
      : {}),
  }
}

export function seriesRowView(r: SeriesListRow, site: Site | undefined, waiting: SeriesWaitingView): SeriesRowView {
  return {
    site: r.site,
    siteName: site?.name ?? r.site,
    seriesId: r.series_id,
    title: r.title,
    url: r.series_url,
    latestChapter: r.latest_chapter,
    latestChapterLabel: r.latest_chapter_label,
    latestChapterUrl: r.latest_chapter_url,
    latestSource: r.latest_source,
    latestChangedAt: r.latest_changed_at,
    latestCheckedAt: r.latest_checked_at,
    forcePollAt: r.force_poll_at,
    pending: r.pending,
    finishedAt: r.finished_at,
    readerCount: r.reader_count,
    lastOutcome: r.last_outcome,
    lastError: r.last_error,
    lastOutcomeAt: r.last_outcome_at,
    waiting,
    ...(site?.pace.cadence === 'adaptive' ? { rhythm: cadenceWords(r, site.pace.restMs), plannedCheckAt: r.next_check_at } : {}),
  }
}

export function passView(p: PassRow): PassView {
  return {
    id: p.id,
    startedAt: p.started_at,
    endedAt: p.ended_at,
    skip: p.skip,
    due: p.due,
    gap: p.gap,
    clamped: p.clamped === 1,
    checked: p.checked,
    refused: p.refused,
    unreachable: p.unreachable,
    noChapter: p.no_chapter,
    unfetchable: p.unfetchable,
    errors: p.errors,
    // A skipped pass checked nothing itself: its `checked` is carried forward from the pass before.
    success: p.skip ? 0 : p.checked - p.refused - p.no_chapter - p.unfetchable - p.errors,
  }
}

/** The Readers' page as another device opens it, for the Settings and the token screen (no token in it). */
function readersPage(listening: string): { url: string; reachableFromOtherDevices: boolean } {
  const { url, reachableFromOtherDevices } = readerAddress(listening, '')
  return { url, reachableFromOtherDevices }
}

/**
 * A new bind or port moves the sync endpoint before the setting is written: a port that cannot be had is an
 * error that changes nothing (docs/adr/0077-settings-that-apply-at-once.md).
 */
async function moveSyncEndpoint(ctx: AdminContext, before: Settings, input: Partial<Settings>): Promise<void> {
  const bindChanged = input.syncBind !== undefined && input.syncBind !== before.syncBind
  const portChanged = input.syncPort !== undefined && input.syncPort !== before.syncPort
  if (!ctx.moveSyncEndpoint || (!bindChanged && !portChanged)) return
  try {
    await ctx.moveSyncEndpoint(input.syncBind ?? before.syncBind, portChanged ? input.syncPort : undefined)
  } catch (error) {
    throw new AppError('conflict', (error as Error).message.replace(/^server: /, ''), { cause: error })
  }
}
