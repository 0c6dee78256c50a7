/**
 * The Lanes: one loop per Site, each repeating `runPass` (docs/design.md#the-lane-pass). Everything started
 * here stops with `stop()`: a pass in flight is abandoned whole, its current fetch aborted.
 */
import type { Clock } from '../clock'
import { BrowserHealth } from '../fetch/browser-health'
import type { Fetchers } from '../fetch/fetcher'
import type { Log } from '../log'
import type { PageReader } from '../sites/page-reader'
import type { Site } from '../sites/site'
import type { Db } from '../store/database'
import { lastCheckedAt, type DueSeries } from '../store/due'
import { pruneRemovals } from '../store/bookmarks'
import { allLanes, ensureLane } from '../store/lanes'
import { isStorageUnavailable } from '../store/storage'
import { optimizeStore, pruneJudgedSightings, pruneOutstandingSightings, RETENTION } from '../store/maintenance'
import { insertPasses, prunePasses } from '../store/passes'
import { pruneOrphanSeries } from '../store/series'
import type { CheckReport } from './check'
import { SitePacer } from './pacer'
import type { CoverKey, CoverStore } from '../store/covers'
import type { ImageFetcher, ImageResult } from '../fetch/image-fetcher'
import { runPass, UnwrittenPasses, WallWatch, type NewChapter, type PassResult } from './pass'
import { FeedWatch, type FeedStatus } from './feed'
import { siteFeed } from '../sites/feeds'

export const PASS_RETENTION_MS = 14 * 86_400_000
/** An orphan Series (no Reader holds it) not checked for this long is deleted with its history. */
export const ORPHAN_RETENTION_MS = 30 * 86_400_000
const PRUNE_EVERY_MS = 3_600_000
/** The retention task first runs this long after the Lanes start, not while the app is starting. */
const FIRST_PRUNE_AFTER_MS = 60_000
/**
 * Each Lane's first pass starts this much after the previous Lane's, so a start (or a wake from sleep) does
 * not run every Site's first pass at once while the endpoint should be answering.
 */
export const FIRST_PASS_STAGGER_MS = 200

export interface LanesOptions {
  /** Where each Lane's updates page state is kept for the owner's window to read (the core's). */
  feeds?: Map<string, FeedStatus>
  db: Db
  sites: readonly Site[]
  fetchers: Fetchers
  clock: Clock
  log: Log
  health?: BrowserHealth
  /** The spacing of requests per Site, shared with Acquisition. */
  pacer?: SitePacer
  retentionMs?: number
  /** New Chapters found by one pass of one Lane, batched (for notifications). */
  onNewChapters?(site: Site, chapters: NewChapter[]): void
  /** Every pass result, for tests and the tray. */
  onPass?(site: Site, result: PassResult): void
  /** Every check a Lane makes, as it ends. */
  onCheck?(site: Site, series: DueSeries, report: CheckReport): void
  /** Reads fetched pages (default: on the calling thread). */
  reader?: PageReader
  /** Where checks note covers and the Lanes keep them (none: no cover is fetched). */
  covers?: CoverStore
  fetchImage?: ImageFetcher
  /** Every cover request a Lane makes, as it ends. */
  onCover?(site: Site, key: CoverKey, result: ImageResult): void
  /**
   * The Lanes' first passes wait for this, then stagger as usual (the app: its endpoint's first answer, or half a
   * second after it listens; docs/adr/0229-a-start-that-loads-what-it-answers-with.md).
   */
  firstPassAfter?: Promise<unknown>
}

export interface Lanes {
  readonly health: BrowserHealth
  /** Starts the Lane of a Site added while the app runs (Add a Site); one already running is left alone. */
  add(site: Site): Promise<void>
  /** Stops every Lane and the retention task; resolves when all have returned. */
  stop(): Promise<void>
}

export async function startLanes(options: LanesOptions): Promise<Lanes> {
  const controller = new AbortController()
  const { signal } = controller
  const shared: LaneShared = {
    options,
    signal,
    health: options.health ?? new BrowserHealth(options.clock),
    pacer: options.pacer ?? new SitePacer(options.clock),
  }
  await ensureLanes(options.sites, options.db, options.log)
  const running = new Set(options.sites.map((site) => site.key))
  const loops = options.sites.map((site, index) => runLane(shared, site, index * FIRST_PASS_STAGGER_MS))
  loops.push(retention(options, signal))

  let stopping: Promise<void> | undefined
  return {
    health: shared.health,
    async add(site) {
      if (signal.aborted || running.has(site.key)) return
      running.add(site.key)
      await ensureLanes([site], options.db, options.log)
      loops.push(runLane(shared, site))
    },
    stop: () =>
      (stopping ??= (async () => {
        controller.abort()
        await Promise.allSettled(loops)
      })()),
  }
}

/** What the Lanes of one start share: their options, the stop signal, the browser's health and the pacer. */
interface LaneShared {
  options: LanesOptions
  signal: AbortSignal
  health: BrowserHealth
  pacer: SitePacer
}

/** One Site's Lane: after its stagger, pass after pass until the stop, then one more try at rows held. */
async function runLane(shared: LaneShared, site: Site, startAfterMs = 0): Promise<void> {
  const { options, signal } = shared
  const { clock, log } = options
  if (options.firstPassAfter) await untilOrAborted(options.firstPassAfter, signal)
  if (startAfterMs > 0) await clock.sleep(startAfterMs, signal)
  if (signal.aborted) return
  await seedPacer(shared, site)
  const unwritten = new UnwrittenPasses()
  const deps = passDeps(shared, site, unwritten)
  while (!signal.aborted) {
    let sleepMs = site.pace.idleRequeryMs
    try {
      const result = await runPass(deps, signal)
      sleepMs = result.sleepMs
      options.onPass?.(site, result)
      if (result.newChapters.length) options.onNewChapters?.(site, result.newChapters)
    } catch (error) {
      if (signal.aborted) break
      log.error({ site: site.key, err: error }, 'lane: pass failed')
    }
    if (sleepMs > 0) await clock.sleep(sleepMs, signal)
  }
  await writeHeldRows(options, site, unwritten)
}

/** Resolves when `gate` settles, or at once when `signal` aborts (a stop does not wait for the gate). */
function untilOrAborted(gate: Promise<unknown>, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise<void>((resolve) => {
    const done = () => {
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done, { once: true })
    gate.then(done, done)
  })
}

/** The gap holds across a restart: the newest stamp is this app's last request to the Site. */
async function seedPacer(shared: LaneShared, site: Site): Promise<void> {
  try {
    shared.pacer.seed(site.key, await lastCheckedAt(shared.options.db, site.key))
  } catch (error) {
    shared.options.log.error({ site: site.key, err: error }, 'lane: cannot read the last check stamp')
  }
}

/** What one Lane's passes are given. */
function passDeps(shared: LaneShared, site: Site, unwritten: UnwrittenPasses) {
  const { options, health, pacer } = shared
  const { onCheck, onCover } = options
  return {
    covers: options.covers,
    fetchImage: options.fetchImage,
    onCover: onCover && ((key: CoverKey, result: ImageResult) => onCover(site, key, result)),
    db: options.db,
    site,
    unwritten,
    wallWatch: new WallWatch(),
    feed: feedWatch(options, site),
    fetchers: options.fetchers,
    health,
    pacer,
    clock: options.clock,
    log: options.log,
    reader: options.reader,
    onCheck: onCheck && ((series: DueSeries, report: CheckReport) => onCheck(site, series, report)),
  }
}

/**
 * Each `feeds` map's watches: the core keeps its map while the Lanes stop and start again, so a Lane started again
 * goes on from what its page last showed — its next read that overlaps it carries the coverage on — instead of
 * every Series it covered coming due at once (docs/adr/0231-what-a-feed-site-still-wasted.md).
 */
const watchesOf = new WeakMap<Map<string, FeedStatus>, Map<string, FeedWatch>>()

/** An adaptive Site whose family publishes an updates page reads it on its Lane (docs/adr/0165-site-feeds.md). */
function feedWatch(options: LanesOptions, site: Site): FeedWatch | undefined {
  if (site.pace.cadence !== 'adaptive' || !siteFeed(site.adapter)) return undefined
  const kept = options.feeds && (watchesOf.get(options.feeds) ?? watchesOf.set(options.feeds, new Map()).get(options.feeds)!)
  const watch = kept?.get(site.key) ?? new FeedWatch(site.pace)
  kept?.set(site.key, watch)
  options.feeds?.set(site.key, watch.status)
  return watch
}

/** Stopping with rows held: one more try, so a store that came back keeps them (none held writes nothing). */
async function writeHeldRows({ db, log }: LanesOptions, site: Site, unwritten: UnwrittenPasses): Promise<void> {
  await insertPasses(db, unwritten.rows).then(
    () => unwritten.clear(),
    (error: unknown) =>
      log.error({ site: site.key, err: error, lost: unwritten.rows.length }, 'lane: held pass rows could not be written at stop'),
  )
}

/**
 * Hourly, and first a minute after the start: retention (docs/adr/0053-retention-and-statistics.md) and the
 * planner's statistics. Each step stands alone, so one failing leaves the others to run.
 */
async function retention(options: LanesOptions, signal: AbortSignal): Promise<void> {
  const { clock, db, log } = options
  await clock.sleep(FIRST_PRUNE_AFTER_MS, signal)
  while (!signal.aborted) {
    for (const [what, step] of retentionSteps(db, clock.now(), options.retentionMs ?? PASS_RETENTION_MS, options.covers)) {
      if (signal.aborted) break
      await retentionStep(what, step, signal, log)
    }
    await clock.sleep(PRUNE_EVERY_MS, signal)
  }
}

/** The retention task's steps, each named for the log. */
function retentionSteps(db: Db, now: number, passRetentionMs: number, covers?: CoverStore): Array<[string, () => Promise<number | void>]> {
  return [
    ['old pass rows', () => prunePasses(db, now - passRetentionMs)],
    ['Series no Reader has held for a long time', () => pruneOrphanSeries(db, now - ORPHAN_RETENTION_MS)],
    ['Sightings judged long ago', () => pruneJudgedSightings(db, now - RETENTION.judgedSightingsMs)],
    ['Sightings no check judged', () => pruneOutstandingSightings(db, now - RETENTION.outstandingSightingsMs)],
    ['bookmark removals every Reader has long synced', () => pruneRemovals(db, now - RETENTION.removalsMs)],
    ['covers of Series no longer kept', () => pruneCovers(db, covers)],
    ['statistics', () => optimizeStore(db)],
  ]
}

/** The cover files whose Series was deleted (docs/adr/0150-covers-are-a-cache-beside-the-database.md). */
export async function pruneCovers(db: Db, covers: CoverStore | undefined): Promise<number> {
  if (!covers) return 0
  const kept = await seriesKept(db, covers.keys())
  return covers.prune((key) => kept.has(`${key.site}\n${key.seriesId}`))
}

/** Which of these Series the library still keeps, asked a Site and 500 ids at a time (not every Series read). */
async function seriesKept(db: Db, keys: readonly CoverKey[]): Promise<Set<string>> {
  const bySite = new Map<string, string[]>()
  for (const { site, seriesId } of keys) {
    const ids = bySite.get(site)
    if (ids) ids.push(seriesId)
    else bySite.set(site, [seriesId])
  }
  const kept = new Set<string>()
  for (const [site, ids] of bySite) {
    for (let i = 0; i < ids.length; i += 500) {
      const rows = await db
        .selectFrom('series')
        .select('series_id')
        .where('site', '=', site)
        .where('series_id', 'in', ids.slice(i, i + 500))
        .execute()
      for (const row of rows) kept.add(`${site}\n${row.series_id}`)
    }
  }
  return kept
}

/** One retention step; a failure is logged (not once the Lanes stop) and the next step runs. */
async function retentionStep(what: string, step: () => Promise<number | void>, signal: AbortSignal, log: Log): Promise<void> {
  try {
    const pruned = await step()
    if (pruned) log.info({ pruned }, `lanes: pruned ${what}`)
  } catch (error) {
    if (!signal.aborted) log.error({ err: error }, `lanes: pruning ${what} failed`)
  }
}

/**
 * Each Site's Lane row, made where it is missing. A store that takes no writes (damaged, read-only, full) does not
 * hold the start: the rows are made by the first pass written once it takes writes again (`insertPasses`), and
 * every read takes a missing row as a Lane never paused nor refused.
 */
async function ensureLanes(sites: readonly Site[], db: Db, log: Log): Promise<void> {
  const present = await lanesPresent(db)
  const refused: Array<{ site: string; why: string }> = []
  for (const site of sites) {
    if (present.has(site.key)) continue
    try {
      await ensureLane(db, site.key)
    } catch (error) {
      if (!isStorageUnavailable(error)) throw error
      refused.push({ site: site.key, why: error.message })
    }
  }
  if (refused.length) {
    log.warn(
      { sites: refused.map((r) => r.site) },
      `lanes: started without their rows, made once the store takes writes (${refused[0]!.why})`,
    )
  }
}

/** The Sites with a Lane row. Read first: a store that takes no writes (read-only, damaged) still starts the Lanes it has rows for. */
async function lanesPresent(db: Db): Promise<Set<string>> {
  try {
    return new Set((await allLanes(db)).map((lane) => lane.site))
  } catch (error) {
    if (isStorageUnavailable(error)) return new Set()
    throw error
  }
}
