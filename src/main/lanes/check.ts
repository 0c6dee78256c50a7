/**
 * One check (docs/design.md#the-lane-pass): stamp, fetch, classify, record. Shared by the Lane and Acquisition, so an acquired
 * Series is a check like any other. The stamp is written before the fetch: it ends any pending Check now
 * whatever the fetch returns (docs/adr/0001).
 */
import { highestChapter } from '../../shared/chapter-number'
import { safeText } from '../../shared/ids'
import { MAX_LABEL, MAX_TITLE } from '../sites/html'
import type { Clock } from '../clock'
import type { Fetcher } from '../fetch/fetcher'
import type { Log } from '../log'
import { type AdapterStep, AdapterError, chapterLink, type Chapter, isPinned, parseUrl, type PageRequest, type Site } from '../sites/site'
import { inlineReader, type PageReader } from '../sites/page-reader'
import { unsyncedWrites, type Db } from '../store/database'
import type { SeriesKey, SeriesRow } from '../store/schema'
import { getSeries, markLatestChecked, recordCheckOutcome, recordCheckResult, type CheckResultReport } from '../store/series'
import { siteClockOffset } from '../fetch/site-clock'
import { planAfterCheck } from './cadence'
import { judgeSightings, lastSightingId } from '../store/sightings'
import { recordNewChapterEvent, type NewChapterEvent } from '../store/notify'
import { isStorageUnavailable } from '../store/storage'
import { storeChapters, type ServedChapter } from '../store/chapters'
import { recordSiteMove } from '../store/site-moves'
import type { CoverStore } from '../store/covers'

/** The classification of one check (docs/design.md#sites-and-fetching), plus `aborted` for a check the app itself interrupted. */
export type CheckOutcome = 'chapter' | 'no-chapter' | 'refused' | 'unreachable' | 'unfetchable' | 'error' | 'aborted'

export interface CheckReport {
  outcome: CheckOutcome
  /** Why, in a few words (logged; the pass row keeps only counts). */
  reason: string
  /** When the check stamp was written; 0 when it failed. */
  stampedAt: number
  /** Whether a request went out (the Lane keeps its gap from it). */
  fetched: boolean
  title?: string
  latest?: CheckResultReport
  /** The store could not take the check stamp (a full disk, a read-only file): nothing was sent. */
  storageUnavailable?: true
  /** A refusal: how long the Site asked to be left alone (Retry-After), when it said. */
  retryAfterMs?: number
  /** The Series' own page answered 404 or 410: which (docs/adr/0113-a-series-whose-page-is-gone.md). */
  gone?: number
  /** A request was answered with a permanent redirect off the pin: the origin and the URL (docs/adr/0112-…). */
  moved?: { toOrigin: string; fromUrl: string }
}

export interface CheckContext {
  db: Db
  clock: Clock
  log: Log
  /** Called once, just before the check's first request goes out (the pacer's turn is used). */
  beforeRequest?(): void
  /**
   * Reads each fetched page with the Site's adapter: the app's reads off the main thread under a deadline
   * (sites/page-reader.ts); without one, on the calling thread (tests).
   */
  reader?: PageReader
  /** Where the cover URL a check reads is noted, for its Lane to fetch (lanes/covers.ts). */
  covers?: CoverStore
}

export interface CheckTarget {
  site: string
  series_id: string
  series_url: string
  /** The Series' check stamp as the due query read it (a Lane's check): who bookmarked after it hears nothing of this one. */
  previous_checked_at?: number
}

/** An adapter may ask for this many pages per check (the page, then e.g. an XHR list and its fallback). */
const MAX_REQUESTS = 3

export async function checkSeries(
  ctx: CheckContext,
  site: Site,
  fetcher: Fetcher | undefined,
  target: CheckTarget,
  signal?: AbortSignal,
): Promise<CheckReport> {
  const key = { site: target.site, seriesId: target.series_id }
  const stampedAt = ctx.clock.now()
  const adaptive = site.pace.cadence === 'adaptive'
  let judgeUpTo: number
  let previousCheckAt = 0
  try {
    // Not waited for on the disk: a stamp lost to a power cut leaves the Series due, checked again (docs/adr/0205-…).
    const stamped = await unsyncedWrites(ctx.db, async (db) => {
      // An adaptive Site plans from the time since the previous check (docs/adr/0014-freshness-per-request.md).
      if (adaptive) previousCheckAt = (await getSeries(db, key))?.latest_checked_at ?? 0
      return (await markLatestChecked(db, key, stampedAt, adaptive ? site.pace.restMs : undefined)) ? lastSightingId(db, key) : null
    })
    if (stamped === null) return report('error', 'the Series no longer exists', 0, false)
    judgeUpTo = stamped
  } catch (error) {
    const failed = report('error', `check stamp failed: ${(error as Error).message}`, 0, false)
    return isStorageUnavailable(error) ? { ...failed, storageUnavailable: true } : failed
  }
  const url = parseUrl(target.series_url)
  if (!url || !isPinned(site, url))
    return recorded(ctx, key, report('unfetchable', `the host pin refused ${target.series_url || 'an empty URL'}`, stampedAt, false))
  if (!fetcher) return recorded(ctx, key, report('unfetchable', 'the Site has no fetcher', stampedAt, false))

  // A New Chapter's digest tells no Reader who bookmarked the Series after the check before this one (docs/adr/0074-…).
  const checkedBefore = target.previous_checked_at ?? previousCheckAt
  const stamps = { stampedAt, judgeUpTo, previousCheckAt, checkedBefore }
  const read = fetcher.lease
    ? fetcher.lease((leased) => readSeries(ctx, site, leased, key, url, stamps, signal))
    : readSeries(ctx, site, fetcher, key, url, stamps, signal)
  return recorded(ctx, key, await read)
}

/**
 * Keeps the check's outcome on its Series (a chapter's is written with the Latest Chapter, in one
 * transaction). A check the app interrupted keeps the previous one. Called only once the stamp is written: a
 * Series whose stamp failed keeps its previous outcome too.
 */
async function recorded(ctx: CheckContext, key: SeriesKey, report: CheckReport): Promise<CheckReport> {
  const { outcome, reason, gone, moved } = report
  if (outcome === 'chapter' || outcome === 'aborted') return report
  const at = ctx.clock.now()
  try {
    // One commit, not waited for on the disk: an outcome lost to a power cut is the next check's (docs/adr/0205-…).
    await unsyncedWrites(ctx.db, (db) =>
      db.transaction().execute(async (trx) => {
        await recordCheckOutcome(trx, key, { outcome, reason, at, gone })
        if (moved) await recordSiteMove(trx, key.site, { ...moved, at })
      }),
    )
  } catch (error) {
    ctx.log.warn({ site: key.site, series: key.seriesId, err: error }, 'check: the outcome could not be recorded')
  }
  return report
}

/** The check's stamps: when it began, the Sightings it judges, and the check before it. */
interface Stamps {
  stampedAt: number
  judgeUpTo: number
  previousCheckAt: number
  checkedBefore: number
}

/** What one check learns as it reads a Series' pages. */
interface Reading {
  stampedAt: number
  /** Whether a request went out (every report says so). */
  fetched: boolean
  title?: string
  /** The cover URL a first page named, when a later page gives the chapters. */
  coverUrl?: string
  /** How far the Site's clock is ahead of ours, from the newest response that gave its Date. */
  siteOffsetMs?: number
}

type Parsed = Extract<AdapterStep, { kind: 'parsed' }>

/** Reads the Series' pages to the chapter they list (recorded), or to the exit that ends the check. */
async function readSeries(
  ctx: CheckContext,
  site: Site,
  fetcher: Fetcher,
  key: SeriesKey,
  url: URL,
  stamps: Stamps,
  signal: AbortSignal | undefined,
): Promise<CheckReport> {
  const reading: Reading = { stampedAt: stamps.stampedAt, fetched: false }
  try {
    const read = await readPages(ctx, site, fetcher, url, reading, signal)
    if ('outcome' in read) return read
    // Site text enters here: no control character or bidirectional override reaches a title, label, message or log.
    reading.title = siteText(read.result.title ?? reading.title, MAX_TITLE)
    const { title } = reading
    noteCover(ctx, key, read.result.coverUrl ?? reading.coverUrl)
    const chapters = read.result.chapters.map((c) => ({ ...c, label: siteText(c.label, MAX_LABEL) ?? '' }))
    const highest = highestChapter(chapters)
    if (!highest) return { ...exit(reading, 'no-chapter', 'a real page with no chapter found'), ...(title ? { title } : {}) }
    const latest = await recordChapter(ctx, site, key, url, stamps, reading, chapters, highest)
    return { ...exit(reading, 'chapter', `chapter ${highest.number}`), latest, ...(title ? { title } : {}) }
  } catch (error) {
    if (signal?.aborted) return exit(reading, 'aborted', 'stopped')
    const reason = error instanceof AdapterError ? `adapter: ${error.message}` : `check failed: ${(error as Error).message}`
    return exit(reading, 'error', reason)
  }
}

/**
 * Fetches the Series' page and the pages its adapter follows (at most MAX_REQUESTS, a fallback taken instead of a
 * follow that answers with another status than 200 or 204), to the parsed result or a report that ends the check.
 */
async function readPages(
  ctx: CheckContext,
  site: Site,
  fetcher: Fetcher,
  url: URL,
  reading: Reading,
  signal: AbortSignal | undefined,
): Promise<Parsed | CheckReport> {
  let request: PageRequest = site.adapter.request(url)
  let fallback: PageRequest | undefined
  for (let n = 0; ; n++) {
    if (n >= MAX_REQUESTS) return exit(reading, 'error', `the adapter asked for more than ${MAX_REQUESTS} pages`)
    const next = parseUrl(request.url)
    if (!next || !isPinned(site, next)) return exit(reading, 'unfetchable', `the host pin refused ${request.url}`)
    if (!reading.fetched) ctx.beforeRequest?.()
    reading.fetched = true
    const result = await fetcher.fetch(request, site, signal)
    if (signal?.aborted) return exit(reading, 'aborted', 'stopped')
    // A refusal says how long the Site asked to be left alone, when it said (undefined otherwise).
    if (result.kind === 'refused') return { ...exit(reading, 'refused', result.reason), retryAfterMs: result.retryAfterMs }
    if (result.kind === 'error' && result.movedTo)
      return { ...exit(reading, 'error', result.reason), moved: { toOrigin: result.movedTo, fromUrl: request.url } }
    if (result.kind !== 'page') return exit(reading, result.kind, result.reason)
    const { page } = result
    reading.siteOffsetMs = siteClockOffset(page.date, ctx.clock.now()) ?? reading.siteOffsetMs
    if (page.status !== 200 && page.status !== 204) {
      // The Series' own page "not found" or "gone": counted, so a run of them is said in words.
      if (n === 0 && (page.status === 404 || page.status === 410))
        return { ...exit(reading, 'error', `HTTP ${page.status} from ${next.host}`), gone: page.status }
      if (!fallback) return exit(reading, 'error', `HTTP ${page.status} from ${next.host}`)
      request = fallback
      fallback = undefined
      continue
    }
    const step = await (ctx.reader ?? inlineReader).read(site, page, url, signal)
    if (signal?.aborted) return exit(reading, 'aborted', 'stopped')
    if (step.kind === 'parsed') return step
    reading.title ??= step.partial?.title
    reading.coverUrl ??= step.partial?.coverUrl
    request = step.request
    fallback = step.fallback
  }
}

/**
 * The outcome, the Latest Chapter and the verdicts on the Sightings made before the check: one transaction, in
 * the steady state one read and one write.
 */
async function recordChapter(
  ctx: CheckContext,
  site: Site,
  key: SeriesKey,
  url: URL,
  stamps: Stamps,
  reading: Reading,
  chapters: readonly Chapter[],
  highest: Chapter,
): Promise<CheckResultReport> {
  const now = ctx.clock.now()
  const { title } = reading
  // Not waited for on the disk: lost to a power cut, it is lost whole, message with it, and the Series' next check
  // finds the same chapter new again; the next full commit (a Reader's write) makes it durable too (ADR 0205).
  return unsyncedWrites(ctx.db, (db) =>
    db.transaction().execute(async (trx) => {
      const moved = await recordCheckResult(trx, {
        ...key,
        found: { chapter: highest.number, label: highest.label, url: chapterLink(site, highest.url, url.href) },
        title,
        now,
        outcome: true,
        plan: site.pace.cadence === 'adaptive' ? adaptivePlan(site, chapters, stamps, reading.siteOffsetMs) : undefined,
      })
      if (stamps.judgeUpTo > 0) await judgeSightings(trx, key, highest.number, now, stamps.judgeUpTo)
      await storeChapters(trx, key, servedChapters(site, chapters, url.href), now, moved.previous)
      // Kept for the pass's digest in the same transaction: a crash after it loses no message (docs/adr/0074-…).
      if (moved.newChapter) await recordNewChapterEvent(trx, newChapterEvent(moved.series, stamps.checkedBefore, now))
      return moved
    }),
  )
}

/**
 * An adaptive Site's next check, planned from the release dates the page gave and the Site's clock
 * (docs/adr/0014-freshness-per-request.md); an offset not known is none to planAfterCheck.
 */
function adaptivePlan(site: Site, chapters: readonly Chapter[], stamps: Stamps, siteOffsetMs: number | undefined) {
  return (row: SeriesRow, newChapter: boolean) =>
    planAfterCheck({
      row,
      pageReleases: chapters.flatMap((c) => (c.released ? [c.released] : [])),
      newChapter,
      previousCheckAt: stamps.previousCheckAt,
      now: stamps.stampedAt,
      siteOffsetMs,
      pace: site.pace,
    })
}

/** The chapters a page listed, as stored: each link checked against the Site's pin (docs/adr/0072). */
function servedChapters(site: Site, chapters: readonly Chapter[], seriesUrl: string): ServedChapter[] {
  return chapters.map((c) => ({
    number: c.number,
    label: c.label,
    url: chapterLink(site, c.url, seriesUrl),
    released: c.released?.at,
  }))
}

/** The cover URL a page named, noted for the Lane (a failure to note costs only the cover). */
function noteCover(ctx: CheckContext, key: SeriesKey, url: string | undefined): void {
  try {
    ctx.covers?.note(key, url, ctx.clock.now())
  } catch (error) {
    ctx.log.warn({ site: key.site, series: key.seriesId, err: error }, 'check: the cover could not be noted')
  }
}

/** A Site's text made safe to keep (shared/ids.ts safeText); undefined stays undefined, nothing left is undefined. */
function siteText(text: string | undefined, max: number): string | undefined {
  return text === undefined ? undefined : safeText(text, max) || undefined
}

function report(outcome: CheckOutcome, reason: string, stampedAt: number, fetched: boolean): CheckReport {
  return { outcome, reason, stampedAt, fetched }
}

/** The report of a check that ends while reading, saying whether a request went out. */
function exit(reading: Reading, outcome: CheckOutcome, reason: string): CheckReport {
  return report(outcome, reason, reading.stampedAt, reading.fetched)
}

function newChapterEvent(s: SeriesRow, previousCheckAt: number, at: number): NewChapterEvent {
  return {
    site: s.site,
    seriesId: s.series_id,
    chapter: s.latest_chapter!,
    label: s.latest_chapter_label,
    url: s.latest_chapter_url || s.series_url,
    title: s.title,
    previousCheckAt,
    at,
  }
}
