/**
 * An adaptive Site's latest-updates page on its Lane (docs/adr/0165-site-feeds.md, docs/freshness.md#the-sites-own-page):
 * read as one more request on the Lane's pace, on its own cadence learnt from how often it changes; what it shows
 * plans the Series' checks — a chapter above a Series' Latest Chapter is a Sighting from the Site (a check now,
 * judged by that check), a Series shown unchanged or covered by the page needs no check before the page's next
 * read, and every Series keeps its safety ceiling. A page that stops parsing leaves the plans to the cadence
 * and says so.
 */
import { siteClockOffset } from '../fetch/site-clock'
import type { Fetcher } from '../fetch/fetcher'
import { troubleOver, warnOnce, type Log } from '../log'
import { siteFeed, type FeedEntry, type SiteFeed } from '../sites/feeds'
import { AdapterError, isPinned, parseUrl, type Site } from '../sites/site'
import type { Db } from '../store/database'
import { applyFeedPlan, feedSeries, heldCount, sampleSeriesUrl, stampsSteppedForward, type FeedSeries } from '../store/feed-plans'

/**
 * A Series on a Site with a feed is still checked at least every this many rests (capped by the Site's ceiling;
 * ADR 0200: once a day at the default rest).
 */
export const FEED_SAFETY_RESTS = 24
/**
 * The feed is read at most every quarter rest, at least every half of the Lane's turn — a rest, or the time it
 * takes to go round its Series when they outnumber a rest's requests (ADR 0165: at two rests, chapters came 1.6×
 * later; ADR 0231: a crowded Lane's fixed schedule comes round no sooner than its turn).
 */
export const FEED_MIN_RESTS = 0.25
export const FEED_MAX_RESTS = 0.5
/**
 * The share of the page a read should show new (ADR 0231): fewer new lines and the page is read less often (by
 * at most half as long again), more than half new and sooner (half as long).
 */
export const FEED_NEW_SHARE = 0.25
/**
 * The page's reads cost at most this share of checking every bookmarked Series of the Site once a rest (ADR 0200):
 * a Site with few bookmarks reads it less often, never less than every FEED_LONGEST_RESTS rests.
 */
export const FEED_READ_SHARE = 0.09
export const FEED_LONGEST_RESTS = 2
/**
 * A page that failed is tried again after its interval, twice as long after each failure in a row, at most this
 * many rests (ADR 0231: the Series it covered come due two intervals after the last read; the cadence plans them
 * meanwhile).
 */
export const FEED_RETRY_RESTS = 1
/**
 * A rise of the wall clock over both the monotonic clock and the Site's own (its `Date`) by more than this between
 * two reads is a wall clock set forward (ADR 0238; the same minute as a step back, WALL_STEP_MS in pass.ts).
 */
export const FEED_STEP_MS = 60_000

interface FeedPace {
  restMs: number
  ceilingMs: number
  minGapMs: number
}

/** The safety ceiling of a Site with a feed: FEED_SAFETY_RESTS rests, never past the Site's ceiling. */
export function safetyCeilingMs(pace: Pick<FeedPace, 'restMs' | 'ceilingMs'>): number {
  return Math.min(pace.ceilingMs, FEED_SAFETY_RESTS * pace.restMs)
}

/** What the Lane knows of its Site's feed between reads (in memory: a restart reads the page at its first pass). */
export interface FeedStatus {
  /** `unread` before the first read; `reading` while it parses; `broken` once it stopped parsing. */
  state: 'unread' | 'reading' | 'broken'
  /** Why it is broken, in words. */
  reason: string
  lastReadAt: number
  nextReadAt: number
  intervalMs: number
  /** Series checked at or after this are covered by the page (null: the page covers nobody now). */
  coveredSince: number | null
  /** Lines the last read that parsed showed. */
  entries: number
}

/** One Lane's feed: its cadence and what the last read showed. */
export class FeedWatch {
  readonly status: FeedStatus
  /** The last read that parsed (kept through a failed one: a later read that overlaps it carries the chain on). */
  #previous: readonly FeedEntry[] | null = null
  /** The coverage that read gave (ADR 0200: a page that failed once does not cost every Series a check). */
  #chain: number | null = null
  /** Reads that failed in a row. */
  #failures = 0
  /** The last read was older than the one before (a second such read in a row is taken as the page's present). */
  #stale = false
  /** The three clocks at the last read that told the Site's time: the wall, the monotonic one and the Site's. */
  #clocks: { wall: number; monotonic: number; site: number } | null = null

  constructor(pace: Pick<FeedPace, 'restMs'>) {
    this.status = { state: 'unread', reason: '', lastReadAt: 0, nextReadAt: 0, intervalMs: pace.restMs / 2, coveredSince: null, entries: 0 }
  }

  /** The lines the last read showed (null before a read, or after one failed). */
  previousLines(): ReadonlySet<string> | null {
    return this.#previous && new Set(this.#previous.map(lineKey))
  }

  /** Due when its time came, or when the wall clock reads before the last read (set back unseen). */
  due(now: number): boolean {
    return now >= this.status.nextReadAt || now < this.status.lastReadAt
  }

  /**
   * The wall clock was set back by `ms` (the Lane saw the step; docs/adr/0011): the read times and the coverage
   * move back with it, as the Series' stamps and plans do, so the page is read when it was planned and the Series
   * it covered stay covered, instead of every plan coming due with no read for the length of the step.
   */
  steppedBack(ms: number): void {
    if (ms <= 0) return
    const s = this.status
    s.lastReadAt -= ms
    s.nextReadAt -= ms
    if (s.coveredSince !== null) s.coveredSince -= ms
    if (this.#chain !== null) this.#chain -= ms
  }

  /**
   * How far the wall clock was set forward since the last read that told the Site's time (ADR 0238), or null: the
   * wall clock rose over the monotonic clock and over the Site's own by the same step. A machine that slept moves
   * the Site's clock with the wall's (no step); a Date without a step of the wall moves nothing. The page's own
   * times on the old clock move with it, as for a step back. `before`: stamps at or before it were written on the
   * old clock (the step came after the last read; anything written since on the new clock is later).
   */
  steppedForward(wall: number, monotonic: number, site: number | undefined): { ms: number; before: number } | null {
    if (site === undefined || !Number.isFinite(site)) return null
    const previous = this.#clocks
    this.#clocks = { wall, monotonic, site }
    if (!previous) return null
    const overMonotonic = wall - monotonic - (previous.wall - previous.monotonic)
    const overSite = wall - site - (previous.wall - previous.site)
    const ms = Math.min(overMonotonic, overSite)
    if (ms <= FEED_STEP_MS) return null
    const s = this.status
    const before = Math.min(previous.wall + ms, wall - ms) - 1
    const moved = (at: number) => (at <= before ? at + ms : at)
    s.lastReadAt = moved(s.lastReadAt)
    if (s.coveredSince !== null) s.coveredSince = moved(s.coveredSince)
    if (this.#chain !== null) this.#chain = moved(this.#chain)
    return { ms, before }
  }

  /**
   * A read that parsed: the coverage it gives and when to read again (`held`: the Site's bookmarked Series).
   * Returns false for a page older than the last one that parsed (a stale cache; ADR 0231): it says nothing of the
   * time since, so it is taken as a read that failed — it covers nobody, the chain it would have broken is kept
   * for the next read, tried again after the interval — though a chapter on it above a Latest Chapter is still a
   * Sighting. A second such read in a row is the page as it is now (a Site that renumbered a chapter down): read
   * as any other, it breaks the chain.
   */
  parsed(entries: readonly FeedEntry[], now: number, offsetMs: number, pace: FeedPace, held = Infinity): boolean {
    const previous = this.#previous
    const s = this.status
    this.#stale = !this.#stale && olderThan(previous, entries)
    if (this.#stale) {
      s.coveredSince = null
      s.lastReadAt = now
      s.nextReadAt = now + Math.max(pace.minGapMs, s.intervalMs)
      return false
    }
    s.coveredSince = coveredSince(previous, entries, this.#chain, now, offsetMs)
    this.#chain = s.coveredSince
    s.intervalMs = nextInterval(s.intervalMs, changedEntries(previous, entries), entries.length, pace, held)
    s.entries = entries.length
    s.state = 'reading'
    s.reason = ''
    s.lastReadAt = now
    s.nextReadAt = now + s.intervalMs
    this.#previous = entries
    this.#failures = 0
    return true
  }

  /**
   * A read that failed to parse or to come: the page covers nobody until it reads again — then, if that read
   * overlaps the last one that parsed, the coverage goes on from where it was. Tried again after its interval,
   * doubled for each failure in a row, at most FEED_RETRY_RESTS rests (ADR 0231: a page that failed once is
   * read again before the Series it covered come due).
   */
  failed(reason: string, now: number, pace: FeedPace): void {
    const s = this.status
    s.state = 'broken'
    s.reason = reason
    s.coveredSince = null
    const retry = Math.min(FEED_RETRY_RESTS * pace.restMs, s.intervalMs * 2 ** Math.min(this.#failures, 30))
    this.#failures++
    s.nextReadAt = now + Math.max(pace.minGapMs, retry)
  }

  /** A read put off (a refusal, no Series to make the request from): tried again after a while. */
  putOff(now: number, ms: number): void {
    this.status.nextReadAt = now + ms
  }
}

/** The key a line is known by from one read to the next: its Series and what it shows. */
const lineKey = (e: FeedEntry): string => `${e.seriesUrl}\n${e.label}`

/** How many lines the new read shows that the previous one did not (all of them for a first read). */
export function changedEntries(previous: readonly FeedEntry[] | null, entries: readonly FeedEntry[]): number {
  if (!previous) return entries.length
  const before = new Set(previous.map(lineKey))
  return entries.filter((e) => !before.has(lineKey(e))).length
}

/**
 * Since when the page covers every Series: a Series checked at or after it that moved since would be on it.
 * With times on every line (MangaDex), from the oldest line's time (on the wall clock, a minute's margin). Without
 * them, by overlap: when a line of the previous read is still on the page unchanged (ADR 0200: any of them, not
 * only its newest), the page reaches back past the previous read, every Series that moved since is on it, and the
 * coverage goes on from where it was; when none is left, lines may have fallen off between the reads, and only
 * Series checked from this read on are covered. A page older than the previous read (a Series on it shows a lower
 * chapter than the previous read showed: a stale cache) does not carry the coverage on either.
 */
export function coveredSince(
  previous: readonly FeedEntry[] | null,
  entries: readonly FeedEntry[],
  before: number | null,
  now: number,
  offsetMs: number,
): number {
  const times = entries.map((e) => e.updatedAt)
  const timed = entries.length > 0 && times.every((t): t is number => t !== undefined)
  const own = timed ? Math.min(now, Math.min(...times) - offsetMs + 60_000) : now
  if (before !== null && previousOverlaps(previous, entries)) return Math.min(before, own)
  return own
}

/** Whether a page is older than the previous read: a Series on it shows a lower chapter than it showed then. */
export function olderThan(previous: readonly FeedEntry[] | null, entries: readonly FeedEntry[]): boolean {
  if (!previous?.length) return false
  const before = new Map(previous.map((e) => [e.seriesUrl, e]))
  return entries.some((e) => {
    const was = before.get(e.seriesUrl)
    return was?.chapter != null && e.chapter !== null && e.chapter < was.chapter
  })
}

function previousOverlaps(previous: readonly FeedEntry[] | null, entries: readonly FeedEntry[]): boolean {
  if (!previous?.length || olderThan(previous, entries)) return false
  const keys = new Set(previous.map(lineKey))
  return entries.some((e) => keys.has(lineKey(e)))
}

/**
 * The feed's next interval, learnt from how much it changed: more than half the page new (lines may have fallen
 * off between reads) halves it; fewer than FEED_NEW_SHARE of it new lengthens it toward the interval that would
 * show that many (by half at most, nothing new: by half), else it stays; between FEED_MIN_RESTS rests and
 * FEED_MAX_RESTS of the Lane's turn (a rest, or `held` × the Site's gap when its Series outnumber a rest's
 * requests; never under the gap) — and never shorter than its share of the checks it stands for allows (`held`
 * bookmarked Series: a rest ÷ (FEED_READ_SHARE × held), at most FEED_LONGEST_RESTS rests).
 */
export function nextInterval(current: number, changed: number, length: number, pace: FeedPace, held = Infinity): number {
  const wanted = FEED_NEW_SHARE * length
  const next = changed * 2 > length ? current / 2 : changed < wanted ? current * Math.min(1.5, wanted / Math.max(changed, 1)) : current
  const share = held > 0 ? pace.restMs / (FEED_READ_SHARE * held) : 0
  const min = Math.max(pace.minGapMs, FEED_MIN_RESTS * pace.restMs, Math.min(FEED_LONGEST_RESTS * pace.restMs, share))
  const turn = Number.isFinite(held) ? Math.max(pace.restMs, held * pace.minGapMs) : pace.restMs
  return Math.round(Math.max(min, Math.min(FEED_MAX_RESTS * turn, next)))
}

export interface FeedVerdicts {
  sighted: string[]
  unchanged: string[]
}

/**
 * The page's lines against the Series they name: a chapter above the Latest Chapter (or a line without a number
 * that changed since the last read) is a Sighting from the Site; any other line shows the Series unchanged.
 */
export function feedVerdicts(
  lines: ReadonlyMap<string, FeedEntry>,
  rows: readonly FeedSeries[],
  previous: ReadonlySet<string> | null,
): FeedVerdicts {
  const sighted: string[] = []
  const unchanged: string[] = []
  for (const row of rows) {
    const line = lines.get(row.series_id)
    if (!line) continue
    const above = line.chapter !== null && (row.latest_chapter === null || line.chapter > row.latest_chapter)
    const moved = line.chapter === null && previous !== null && !previous.has(lineKey(line))
    if (above || moved) sighted.push(row.series_id)
    else unchanged.push(row.series_id)
  }
  return { sighted, unchanged }
}

export interface FeedReadDeps {
  db: Db
  site: Site
  fetcher: Fetcher
  log: Log
  now(): number
  /** The monotonic clock (to tell a wall clock set forward from a machine that slept; without it, none is seen). */
  monotonic?(): number
  watch: FeedWatch
  /** Called just before the request goes out (the pacer's turn is then spent). */
  beforeRequest?(): void
}

export type FeedReadOutcome = 'read' | 'broken' | 'refused' | 'skipped'

/**
 * Reads the feed once (the caller took the Lane's turn and checked its gate) and plans from it. A refusal is the
 * caller's to record, as a check's. Never throws: a store that failed leaves the plans as they were.
 */
export async function readFeed(deps: FeedReadDeps, signal?: AbortSignal): Promise<{ outcome: FeedReadOutcome; retryAfterMs?: number }> {
  const { db, site, fetcher, watch } = deps
  const feed = siteFeed(site.adapter)
  const pace = site.pace
  const sample = feed && (await sampleSeriesUrl(db, site.key).catch(() => null))
  const sampleUrl = sample ? parseUrl(sample) : null
  if (!feed || !sampleUrl) {
    watch.putOff(deps.now(), pace.restMs)
    return { outcome: 'skipped' }
  }
  const request = feed.request(sampleUrl)
  const target = parseUrl(request.url)
  if (!target || !isPinned(site, target)) return broken(deps, `the host pin refused ${request.url}`)
  deps.beforeRequest?.()
  const result = await fetcher.fetch(request, site, signal)
  if (result.kind === 'refused') {
    watch.putOff(deps.now(), pace.refusalBackoffMs)
    return { outcome: 'refused', retryAfterMs: result.retryAfterMs }
  }
  if (result.kind !== 'page') return broken(deps, result.reason)
  return planFromPage(deps, feed, result.page)
}

async function planFromPage(
  deps: FeedReadDeps,
  feed: SiteFeed,
  page: Parameters<SiteFeed['read']>[0],
): Promise<{ outcome: FeedReadOutcome }> {
  const { db, site, log, watch } = deps
  let entries: FeedEntry[]
  try {
    entries = feed.read(page)
  } catch (error) {
    if (error instanceof AdapterError) return broken(deps, `the updates page: ${error.message}`)
    throw error
  }
  const now = deps.now()
  await followWallForward(deps, page.date, now)
  const previous = watch.previousLines()
  const held = await heldCount(db, site.key).catch(() => Infinity)
  const fresh = watch.parsed(entries, now, siteClockOffset(page.date, now) ?? 0, site.pace, held)
  troubleOver(log, `feed:${site.key}`, { site: site.key }, 'lane: the updates page reads again')
  const lines = new Map<string, FeedEntry>()
  for (const entry of entries) {
    const url = parseUrl(entry.seriesUrl)
    const id = url && site.seriesIdOf(url)
    if (id && !lines.has(id)) lines.set(id, entry)
  }
  try {
    const rows = await feedSeries(db, site.key, [...lines.keys()])
    const found = feedVerdicts(lines, rows, previous)
    // A stale page's Sightings stand; what it shows unchanged may have moved since.
    const verdicts = fresh ? found : { sighted: found.sighted, unchanged: [] }
    const { intervalMs, coveredSince: covered } = watch.status
    const moved = await applyFeedPlan(db, {
      site: site.key,
      now,
      ...verdicts,
      coveredSince: covered,
      until: now + 2 * intervalMs,
      safetyMs: safetyCeilingMs(site.pace),
    })
    log.debug({ site: site.key, lines: entries.length, ...moved }, 'lane: updates page read')
  } catch (error) {
    log.error({ site: site.key, err: error }, 'lane: the updates page could not be planned from')
  }
  return { outcome: 'read' }
}

/**
 * A wall clock set forward (ADR 0238): the stamps of the Site's Series written on the old clock move with it, as
 * they move back with a step back, so the step brings no ceiling due early. A store that failed leaves them.
 */
async function followWallForward(deps: FeedReadDeps, siteAt: number | undefined, now: number): Promise<void> {
  const { db, site, log, watch } = deps
  if (!deps.monotonic) return
  const step = watch.steppedForward(now, deps.monotonic(), siteAt)
  if (!step) return
  const moved = await stampsSteppedForward(db, site.key, step.ms, step.before).catch((error: unknown) => {
    log.error({ site: site.key, err: error }, 'lane: the stamps could not follow the wall clock set forward')
    return 0
  })
  log.warn({ site: site.key, steppedForwardMs: step.ms, moved }, 'lane: the wall clock was set forward; stamps before it moved with it')
}

/**
 * Between reads, on each pass: a Series checked since the last read (by a Sighting, its ceiling or its cadence) is
 * covered like the ones the read put off, so a plan its check made before the page's next read moves past it the
 * same way (to the next read plus an interval, within its safety ceiling; ADR 0231). Only plans a check made since
 * the read: a Sighting the read planned waits for its check, however long the Lane's backlog. Returns how many
 * plans moved; a page that covers nobody now moves none.
 */
export async function holdCovered(db: Db, site: Site, watch: FeedWatch, now: number): Promise<number> {
  const { coveredSince, lastReadAt, nextReadAt, intervalMs } = watch.status
  if (coveredSince === null || watch.due(now)) return 0
  const covered = Math.max(coveredSince, lastReadAt + 1)
  const moved = await applyFeedPlan(db, {
    site: site.key,
    now,
    sighted: [],
    unchanged: [],
    coveredSince: covered,
    until: nextReadAt + intervalMs,
    safetyMs: safetyCeilingMs(site.pace),
  })
  return moved.postponed
}

function broken(deps: FeedReadDeps, reason: string): { outcome: FeedReadOutcome } {
  const { site, log, watch } = deps
  watch.failed(reason, deps.now(), site.pace)
  warnOnce(log, `feed:${site.key}`, { site: site.key, reason }, 'lane: the updates page does not read; its Series keep their cadence')
  return { outcome: 'broken' }
}

/** What the Lane says of its feed, in words ('' for a Site without one). */
export function feedWords(status: FeedStatus | undefined): string {
  if (!status) return ''
  if (status.state === 'broken') return `updates page not read (${status.reason}): each Series keeps its own cadence`
  if (status.state === 'unread') return 'updates page not read yet'
  return 'updates page read: it shows which Series moved'
}
