/**
 * The core both shells run (docs/adr/0003): the store, the Sites, the fetchers, the Lanes and the
 * use-cases behind every surface. No Electron here.
 */
import { join } from 'node:path'
import type { Clock } from './clock'
import { BrowserHealth } from './fetch/browser-health'
import type { BrowserFetcher, Fetcher, Fetchers } from './fetch/fetcher'
import { createHttpFetcher } from './fetch/http-fetcher'
import { startLanes, type Lanes } from './lanes/lane'
import type { NewChapter, PassResult } from './lanes/pass'
import type { Log } from './log'
import { BUILT_IN_SITES } from './sites/builtin'
import { createRegistry, type SiteRegistry } from './sites/registry'
import type { Site } from './sites/site'
import { loadSites } from './sites/sites-file'
import { openStore, STORE_FILE, type Store } from './store/database'
import type { AcquireDeps } from './use-cases/acquire'

export interface CoreOptions {
  dataDir: string
  clock: Clock
  log: Log
  /** Sites added to the built-in and sites.json ones (the demo's). */
  extraSites?: readonly Site[]
  /** Only these Sites (tests, the demo); sites.json is still read over them. */
  sites?: readonly Site[]
  browser?: BrowserFetcher
  /** The HTTP fetcher (default: the real one). The simulation answers requests in process. */
  http?: Fetcher
  /** better-sqlite3 built for Electron's ABI. */
  nativeBinding?: string
  onNewChapters?(site: Site, chapters: NewChapter[]): void
  /**
   * Wraps the database handle every part of the core uses (the simulation injects database faults through a
   * Kysely plugin). Default: the handle as opened.
   */
  wrapDb?(db: Store['db']): Store['db']
  /** Every pass result of every Lane (the simulation's observer). */
  onPass?(site: Site, result: PassResult): void
}

export interface Core {
  readonly store: Store
  readonly registry: SiteRegistry
  readonly fetchers: Fetchers
  readonly health: BrowserHealth
  /** Problems found in sites.json (file, site, field); the valid Sites run. */
  readonly siteProblems: readonly string[]
  readonly clock: Clock
  readonly log: Log
  readonly acquireDeps: AcquireDeps
  /** Starts one Lane per Site (idempotent). */
  startLanes(): Promise<void>
  /** Stops every Lane; a pass in flight is abandoned whole. */
  stopLanes(): Promise<void>
  readonly lanesRunning: boolean
  stop(): Promise<void>
}

export async function startCore(options: CoreOptions): Promise<Core> {
  const { clock, log } = options
  const opened = openStore(join(options.dataDir, STORE_FILE), {
    now: clock.now(),
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  })
  const store: Store = options.wrapDb ? { ...opened, db: options.wrapDb(opened.db) } : opened
  if (store.migration.backup) log.info({ backup: store.migration.backup }, 'store: copied aside before migrating')
  const loaded = loadSites(options.dataDir, [...(options.sites ?? BUILT_IN_SITES), ...(options.extraSites ?? [])])
  for (const problem of loaded.problems) log.warn(problem)
  const registry = createRegistry(loaded.sites)
  const fetchers: Fetchers = { http: options.http ?? createHttpFetcher(), ...(options.browser ? { browser: options.browser } : {}) }
  const health = new BrowserHealth()
  let lanes: Lanes | null = null
  let stopped = false

  const core: Core = {
    store,
    registry,
    fetchers,
    health,
    siteProblems: loaded.problems,
    clock,
    log,
    acquireDeps: { db: store.db, registry, fetchers, health, clock, log },
    get lanesRunning() {
      return lanes !== null
    },
    async startLanes() {
      if (lanes || stopped) return
      lanes = await startLanes({
        db: store.db,
        sites: registry.sites,
        fetchers,
        clock,
        log,
        health,
        onNewChapters: (site, chapters) => {
          log.info(
            { site: site.key, chapters: chapters.map((c) => `${c.title} ${c.label}`) },
            `${chapters.length} New Chapter${chapters.length === 1 ? '' : 's'}`,
          )
          options.onNewChapters?.(site, chapters)
        },
        ...(options.onPass ? { onPass: options.onPass } : {}),
      })
    },
    async stopLanes() {
      const running = lanes
      lanes = null
      await running?.stop()
    },
    async stop() {
      if (stopped) return
      await core.stopLanes()
      stopped = true
      await options.browser?.close()
      await store.close()
    },
  }
  return core
}
