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
import { ensureLane } from '../store/lanes'
import { insertPasses, prunePasses } from '../store/passes'
import { pruneOrphanSeries } from '../store/series'
import type { CheckReport } from './check'
import { SitePacer } from './pacer'
import { runPass, UnwrittenPasses, type NewChapter, type PassResult } from './pass'

export const PASS_RETENTION_MS = 14 * 86_400_000
/** An orphan Series (no Reader holds it) not checked for this long is deleted with its history. */
export const ORPHAN_RETENTION_MS = 30 * 86_400_000
const PRUNE_EVERY_MS = 3_600_000

export interface LanesOptions {
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
  const { clock, log, db } = options
  const health = options.health ?? new BrowserHealth(clock)
  const pacer = options.pacer ?? new SitePacer(clock)
  for (const site of options.sites) await ensureLane(db, site.key)
  const running = new Set(options.sites.map((site) => site.key))
  const loops = options.sites.map((site) => runLane(site))
  loops.push(retention())

  async function runLane(site: Site): Promise<void> {
    try {
      // The gap holds across a restart: the newest stamp is this app's last request to the Site.
      pacer.seed(site.key, await lastCheckedAt(db, site.key))
    } catch (error) {
      log.error({ site: site.key, err: error }, 'lane: cannot read the last check stamp')
    }
    const unwritten = new UnwrittenPasses()
    const deps = {
      db,
      site,
      unwritten,
      fetchers: options.fetchers,
      health,
      pacer,
      clock,
      log,
      ...(options.reader ? { reader: options.reader } : {}),
      ...(options.onCheck ? { onCheck: (series: DueSeries, report: CheckReport) => options.onCheck!(site, series, report) } : {}),
    }
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
    // Stopping with rows held: one more try, so a store that came back keeps them.
    if (unwritten.rows.length) {
      await insertPasses(db, unwritten.rows).then(
        () => unwritten.clear(),
        (error: unknown) =>
          log.error({ site: site.key, err: error, lost: unwritten.rows.length }, 'lane: held pass rows could not be written at stop'),
      )
    }
  }

  async function retention(): Promise<void> {
    while (!signal.aborted) {
      try {
        const pruned = await prunePasses(db, clock.now() - (options.retentionMs ?? PASS_RETENTION_MS))
        if (pruned) log.info({ pruned }, 'lanes: pruned old pass rows')
        const orphans = await pruneOrphanSeries(db, clock.now() - ORPHAN_RETENTION_MS)
        if (orphans) log.info({ orphans }, 'lanes: deleted Series no Reader has held for a long time')
      } catch (error) {
        if (signal.aborted) break
        log.error({ err: error }, 'lanes: pruning failed')
      }
      await clock.sleep(PRUNE_EVERY_MS, signal)
    }
  }

  let stopping: Promise<void> | undefined
  return {
    health,
    async add(site) {
      if (signal.aborted || running.has(site.key)) return
      running.add(site.key)
      await ensureLane(db, site.key)
      loops.push(runLane(site))
    },
    stop: () =>
      (stopping ??= (async () => {
        controller.abort()
        await Promise.allSettled(loops)
      })()),
  }
}
