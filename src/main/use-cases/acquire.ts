/**
 * Acquisition (docs/design.md#acquisition): a Reader bookmarks a Series by URL. The Site comes from the host
 * pin; the bookmark is answered at once, and a new Series is read in the background — title and Latest Chapter
 * — taking its turn in the Site's pace with the Lane (docs/adr/0013-acquisition-takes-its-turn.md): one request
 * per `minGapMs` per Site, none while the Lane is paused or refusing, and at most a bounded number of new
 * Series per Reader per hour. Past any of those the Series simply waits for the Lane: it is due at once.
 * An acquisition is a check like any other: it stamps `latest_checked_at` before its fetch.
 */
import type { Clock } from '../clock'
import type { BrowserHealth } from '../fetch/browser-health'
import { fetcherFor, type Fetchers } from '../fetch/fetcher'
import { checkSeries, type CheckReport } from '../lanes/check'
import type { CoverStore } from '../store/covers'
import type { PageReader } from '../sites/page-reader'
import { laneGate, refusalLength } from '../lanes/decisions'
import type { SitePacer } from '../lanes/pacer'
import type { Log } from '../log'
import { AppError } from '../../shared/errors'
import type { SiteRegistry } from '../sites/registry'
import { addBookmark, countReaderBookmarks, getBookmark, readerBookmarks, type ReaderBookmark } from '../store/bookmarks'
import type { Db } from '../store/database'
import { laneRow, recordRefusal } from '../store/lanes'
import type { BookmarkStatus, SeriesKey } from '../store/schema'
import { addSeries, getSeries, setSeriesUrl, stillDue } from '../store/series'
import { seriesOfUrl } from './series-by-url'

/** How many new Series one Reader's bookmarks may have read at once per hour; past it they wait for the Lane. */
export const NEW_SERIES_PER_READER_PER_HOUR = 60
const HOUR = 3_600_000

export interface AcquireDeps {
  db: Db
  registry: SiteRegistry
  fetchers: Fetchers
  health: BrowserHealth
  /** The spacing of requests per Site, shared with the Lanes. */
  pacer: SitePacer
  clock: Clock
  log: Log
  /** Aborted when the app stops: queued acquisitions end without a request. */
  signal?: AbortSignal
  /** Every acquisition's report (the simulation reads them). */
  onCheck?(key: SeriesKey, report: CheckReport): void
  /** Reads fetched pages (default: on the calling thread). */
  reader?: PageReader
  /** Where a check notes the cover it read, for the Lane to fetch. */
  covers?: CoverStore
}

/** What happens to a new Series: read now (in the background), or left for its Lane, and why. */
export interface AcquisitionPlan {
  state: 'reading' | 'waiting'
  message: string
}

export interface AcquireResult {
  bookmark: ReaderBookmark
  /** The bookmark did not exist before. */
  created: boolean
  /** For a new Series: what happens to it. Absent for a Series the app knew. */
  acquisition?: AcquisitionPlan
  /** Settles when the background read has ended (with its report, or undefined when none was made). */
  acquired?: Promise<CheckReport | undefined>
}

/** New Series read per Reader, per hour (in memory: a restart forgets, which errs on the generous side). */
const readerWindows = new WeakMap<AcquireDeps, Map<number, number[]>>()

export async function bookmarkByUrl(
  deps: AcquireDeps,
  input: { readerId: number; url: string; status?: BookmarkStatus; maxBookmarks?: number },
): Promise<AcquireResult> {
  // The Series the URL names: a moved Series by its old or its new URL is the one Series (docs/adr/0233-…).
  const match = await seriesOfUrl(deps.db, deps.registry, input.url)
  if (!match) throw new AppError('off-pin', `not a Series URL on any known Site's host pin: ${truncate(input.url)}`)
  const { site, key, seriesUrl } = match
  const seriesId = key.seriesId
  const now = deps.clock.now()

  const { existing, created } = await deps.db.transaction().execute(async (trx) => {
    if (input.maxBookmarks !== undefined) await checkBookmarkRoom(trx, input.readerId, key, input.maxBookmarks)
    const existing = await getSeries(trx, key)
    if (!existing) await addSeries(trx, { ...key, seriesUrl, now })
    else if (!existing.series_url) await setSeriesUrl(trx, key, seriesUrl, now)
    const created = await addBookmark(trx, { ...key, readerId: input.readerId, status: input.status ?? 'reading', now })
    return { existing, created }
  })
  const [bookmark] = await readerBookmarks(deps.db, input.readerId, { key })
  if (existing) return { bookmark: bookmark!, created }

  const plan = await planAcquisition(deps, input.readerId, key)
  if (plan.state === 'waiting') {
    deps.log.info({ site: site.key, series: seriesId, why: plan.message }, 'acquire: the Series waits for its Lane')
    return { bookmark: bookmark!, created, acquisition: plan }
  }
  const acquired = acquire(deps, key).catch((error: unknown) => {
    deps.log.error({ site: site.key, series: seriesId, err: error }, 'acquire: failed')
    return undefined
  })
  return { bookmark: bookmark!, created, acquisition: plan, acquired }
}

/** Refuses a new bookmark of a Reader who holds `max` already (docs/adr/0081-one-reader-bounded.md). */
async function checkBookmarkRoom(db: Db, readerId: number, key: SeriesKey, max: number): Promise<void> {
  if ((await countReaderBookmarks(db, readerId)) < max || (await getBookmark(db, readerId, key))) return
  throw new AppError(
    'invalid',
    `you hold ${max.toLocaleString('en')} bookmarks, the most a Reader may hold here; remove some, or ask the owner to raise the limit (Settings)`,
  )
}

async function planAcquisition(deps: AcquireDeps, readerId: number, key: SeriesKey): Promise<AcquisitionPlan> {
  const site = deps.registry.get(key.site)!
  const gate = laneGate(await laneRow(deps.db, site.key), deps.clock.now())
  if (gate === 'paused') return { state: 'waiting', message: `${site.name} is paused; its Lane will read the Series after the pause` }
  if (gate === 'refusing')
    return { state: 'waiting', message: `${site.name} is refusing for now; its Lane will read the Series after the backoff` }
  if (!takeReaderSlot(deps, readerId)) {
    return {
      state: 'waiting',
      message: `more than ${NEW_SERIES_PER_READER_PER_HOUR} new Series in an hour; this one waits for ${site.name}'s Lane`,
    }
  }
  return { state: 'reading', message: `reading the Series from ${site.name}` }
}

/** A Reader's hourly budget of new Series read at once: true (and counted) while there is room. */
function takeReaderSlot(deps: AcquireDeps, readerId: number): boolean {
  let windows = readerWindows.get(deps)
  if (!windows) readerWindows.set(deps, (windows = new Map()))
  const now = deps.clock.monotonic()
  const recent = (windows.get(readerId) ?? []).filter((at) => now - at < HOUR)
  if (recent.length >= NEW_SERIES_PER_READER_PER_HOUR) {
    windows.set(readerId, recent)
    return false
  }
  windows.set(readerId, [...recent, now])
  return true
}

/**
 * Reads a new Series once it is the Site's turn: nothing when the app stops first, when the Lane closed (a pause
 * or a refusal) or the browser went down meanwhile, or when the Series was read or left since.
 */
async function acquire(deps: AcquireDeps, key: SeriesKey): Promise<CheckReport | undefined> {
  const site = deps.registry.get(key.site)!
  const turn = await deps.pacer.turn(site.key, site.pace.minGapMs, deps.signal)
  if (!turn) return undefined
  try {
    if (laneGate(await laneRow(deps.db, site.key), deps.clock.now())) return undefined
    const fetcher = fetcherFor(site, deps.fetchers)
    if (fetcher?.kind === 'browser' && deps.health.isDown()) return undefined
    const series = await getSeries(deps.db, key)
    // Two first bookmarks of one new Series at once, or the Lane got there first: it is read already.
    if (!series || series.latest_checked_at > 0) return undefined
    const url = await stillDue(deps.db, key, 0)
    if (url === null) return undefined
    const report = await checkSeries(
      { db: deps.db, clock: deps.clock, log: deps.log, beforeRequest: () => turn.sent(), reader: deps.reader, covers: deps.covers },
      site,
      fetcher,
      { site: key.site, series_id: key.seriesId, series_url: url },
      deps.signal,
    )
    if (report.outcome === 'aborted') return undefined
    if (report.outcome === 'refused') {
      const length = refusalLength(site.pace, report.retryAfterMs)
      const until = deps.clock.now() + length.ms
      await recordRefusal(deps.db, site.key, until, length.ms)
      deps.log.warn({ site: site.key, reason: report.reason, until, backoffMs: length.ms }, 'acquire: refused; the Lane backs off')
    }
    if (report.outcome === 'unreachable') deps.health.markDown()
    deps.onCheck?.(key, report)
    deps.log.info({ site: site.key, series: key.seriesId, outcome: report.outcome, reason: report.reason }, 'acquire: read a new Series')
    return report
  } finally {
    turn.skip()
  }
}

function truncate(s: string): string {
  return s.length > 200 ? `${s.slice(0, 200)}…` : s
}
