/**
 * The core both shells run (docs/adr/0003): the store, the Sites, the fetchers, the Lanes and the
 * use-cases behind every surface. No Electron here.
 */
import { join } from 'node:path'
import type { Clock } from './clock'
import { BrowserHealth } from './fetch/browser-health'
import type { BrowserFetcher, Fetcher, Fetchers } from './fetch/fetcher'
import { createHttpFetcher } from './fetch/http-fetcher'
import { startLanes, type Lanes, type LanesOptions } from './lanes/lane'
import type { CheckReport } from './lanes/check'
import type { FeedStatus } from './lanes/feed'
import { SitePacer } from './lanes/pacer'
import { findAgainAfterCheck } from './use-cases/found-again'
import type { SearchDeps } from './use-cases/search-site'
import type { NewChapter, PassResult } from './lanes/pass'
import type { Log } from './log'
import { BUILT_IN_SITES } from './sites/builtin'
import { createPageReader, type PageReader } from './sites/page-reader'
import { createRegistry, type SiteRegistry } from './sites/registry'
import { onSitePin, type Site } from './sites/site'
import { loadSites } from './sites/sites-file'
import { lockDataDir, type DataLock } from './store/data-lock'
import { openStore as openStoreFile, openStandIn, openStoreReadOnly, STORE_FILE, type Store } from './store/database'
import { watchStorage, type StorageWatch } from './storage-watch'
import { scheduleBackups, type Backups } from './backup-schedule'
import { BACKUP_DIR, listBackups, type BackupView } from './store/backups'
import { createRestorer, type Restorer } from './restore-in-app'
import { startIntegrityCheck, type IntegrityCheck, type IntegrityVerdict } from './store/integrity'
import { ensurePrivateDir } from './store/private-files'
import { COVERS_DIR, CoverStore, type CoverKey } from './store/covers'
import type { ImageFetcher, ImageResult } from './fetch/image-fetcher'
import { faultAtOpen, RESTORE_ADVICE, type StorageFault } from './store/storage'
import { AppError } from '../shared/errors'
import type { AcquireDeps } from './use-cases/acquire'
import { createNotifier, type Notifier, type NotifierDeps } from './notify/notifier'
import { vapidKeys, type VapidKeys } from './notify/vapid'
import type { Db } from './store/database'
import { readSettings } from './store/settings'
import { contactSubject } from '../shared/settings'

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
  /** Every pass result of every Lane (the simulation's observer). */
  onPass?(site: Site, result: PassResult): void
  /**
   * Fetches cover images (default: plain HTTP, fetch/image-fetcher.ts); the simulation serves them from its Sites
   * and counts them in its ledger. `onCover` hears every cover request a Lane makes, as it ends.
   */
  fetchImage?: ImageFetcher
  onCover?(site: Site, key: CoverKey, result: ImageResult): void
  /** Every check a Lane or an Acquisition makes, as it ends (the simulation's observer). */
  onCheck?(site: string, seriesId: string, report: CheckReport): void
  /** Every title search that sent its request, by Site (the simulation counts them; docs/adr/0145-…). */
  onSearch?(site: string): void
  /**
   * Wraps the database handle every part of the core uses (the simulation injects database faults through a
   * Kysely plugin). Default: the handle as opened.
   */
  wrapDb?(db: Store['db']): Store['db']
  /** Make the daily backup into `<data>/backups/` (default true). */
  dailyBackups?: boolean
  /** How often the database file is looked at when nothing writes (default STORAGE_CHECK_MS). */
  storageCheckMs?: number
  /** How long the start waits for the integrity check's verdict before it carries on (default INTEGRITY_WAIT_MS). */
  integrityWaitMs?: number
  /**
   * Whether `startCore` starts the integrity check and waits for its verdict (default true). The app passes false:
   * it listens and starts the Lanes first, then calls `checkIntegrity()` (docs/adr/0210-the-start-before-the-verdict.md).
   */
  awaitIntegrity?: boolean
  /** How long one page may take to read (default `READ_DEADLINE_MS`; tests shorten it). */
  readDeadlineMs?: number
  /**
   * Reads fetched pages (default: a worker thread under the deadline, docs/adr/0040). A simulation on a fake
   * clock, whose fetchers answer in process, gives `inlineReader` so no read runs in real time.
   */
  reader?: PageReader
  /** Each digest of New Chapters the notifier makes (the simulation's observer). */
  onDigest?: NotifierDeps['onDigest']
  /** The Lanes' first passes wait for this (the app: its first answer; docs/adr/0229-…). Default: none. */
  firstPassAfter?: Promise<unknown>
}

/**
 * The start waits this long (real time: the check is real work) for the integrity check; a larger file is
 * checked on while the app runs, and its verdict applied when it comes (docs/adr/0046-the-file-the-app-opened.md).
 */
export const INTEGRITY_WAIT_MS = 2_000

export interface Core {
  /** The data directory: the database, sites.json, the browser profile. */
  readonly dataDir: string
  readonly store: Store
  readonly registry: SiteRegistry
  readonly fetchers: Fetchers
  readonly health: BrowserHealth
  /** The spacing of requests per Site, shared by the Lanes and Acquisition. */
  readonly pacer: SitePacer
  /** The covers checks find, served to Readers and the owner (store/covers.ts). */
  readonly covers: CoverStore
  /** Problems found in sites.json (file, site, field); the valid Sites run. */
  readonly siteProblems: readonly string[]
  readonly clock: Clock
  readonly log: Log
  readonly acquireDeps: AcquireDeps
  /**
   * Runs a Site the owner just added: known to every surface at once, and its Lane started when the Lanes run
   * (or with them later). The Site must not be known already.
   */
  addSite(site: Site): Promise<void>
  /** Whether the store takes writes, looked at every few seconds (docs/adr/0045-storage-faults.md). */
  readonly storage: StorageWatch
  /**
   * Settles once the integrity check's verdict is applied (at once for a store in memory, and when the check is
   * cancelled). A damaged verdict stops writes and holds the Lanes until a restore (docs/adr/0210-…).
   */
  readonly integrityChecked: Promise<void>
  /**
   * Starts the integrity check if it has not started (idempotent): the app calls it once it listens and the Lanes
   * run. Resolves as `integrityChecked`.
   */
  checkIntegrity(): Promise<void>
  /** The daily backup and "Back up now" (docs/adr/0048-backups.md). */
  readonly backups: Backups
  /** Settings → Backups: the backups with their verdict, and a restore while the app runs (docs/adr/0089-…). */
  readonly restorer: Restorer
  /**
   * A new, empty database was made at this start while `<data>/backups/` holds backups (the file was deleted or
   * moved): how many, and the newest. Null otherwise, and once a backup is restored.
   */
  madeEmpty(): { backups: number; newest: BackupView } | null
  /**
   * The database could not be opened at all at this start (a stand-in in memory answers the owner's window): the
   * answer every Reader's route gets, with the cause. Null once a backup is restored, and otherwise.
   */
  unopened(): AppError | null
  /**
   * New Chapters to the Readers' channels (docs/adr/0074-a-durable-outbox-for-notifications.md): digested after
   * each pass; its delivery loop is started by the app (`notifier.start()`), stopped with the core.
   */
  readonly notifier: Notifier
  /** The install's VAPID keys for Web Push, made on first use (notify/vapid.ts). */
  vapidKeys(): VapidKeys
  /** Reads again what the core takes from the settings while it runs (the owner's contact for push). */
  settingsChanged(): Promise<void>
  /** Starts one Lane per Site (idempotent, and safe to call twice at once). */
  startLanes(): Promise<void>
  /** Stops every Lane; a pass in flight is abandoned whole. */
  stopLanes(): Promise<void>
  /**
   * Stops everything that sends requests — the Lanes and queued or running Acquisitions — so nothing reaches a
   * Site once a stop is asked. The store stays open for whatever still drains. Idempotent.
   */
  stopSending(): Promise<void>
  readonly lanesRunning: boolean
  /** Each adaptive Site's updates page as its Lane last read it (none for a Site without one; docs/adr/0165-site-feeds.md). */
  readonly feeds: ReadonlyMap<string, FeedStatus>
  /** Stops the Lanes and queued Acquisitions, closes the browser and the store, releases the data directory. */
  stop(): Promise<void>
}

/**
 * The install's VAPID keys, made on first use, and the subject each push is signed with: the owner's contact
 * (Settings), read at start and again when the settings change.
 */
function vapidOf(dataDir: string, db: Db): { keys(): VapidKeys; signing(): VapidKeys; readSubject(): Promise<void> } {
  let keys: VapidKeys | undefined
  let subject = ''
  const once = () => (keys ??= vapidKeys(dataDir))
  const readSubject = () =>
    readSettings(db).then(
      (s) => void (subject = contactSubject(s.ownerContact) ?? ''),
      () => undefined,
    )
  void readSubject()
  return { keys: once, signing: () => ({ ...once(), subject }), readSubject }
}

export async function startCore(options: CoreOptions): Promise<Core> {
  const { clock, log } = options
  const data = await openData(options)
  const { store, backups, integrity } = data
  const polling = pollingParts(options)
  const stopping = new AbortController()
  const vapid = vapidOf(options.dataDir, store.db)
  const notifier = createNotifier({
    db: store.db,
    clock,
    log,
    vapid: vapid.signing,
    policy: async () => (await readSettings(store.db)).notifyTargets,
    onDigest: options.onDigest,
  })
  const acquire = acquireDeps(options, store, polling, stopping.signal)
  const lanes = new LaneSwitch(() => startLanes(laneOptions(options, store, polling, notifier, acquire)))
  holdLanesOnDamage(store, lanes, log)
  const restorer = restorerOf(options, data, polling, lanes)
  let closed = false
  const core: Core = {
    dataDir: options.dataDir,
    store,
    registry: polling.registry,
    fetchers: polling.fetchers,
    health: polling.health,
    pacer: polling.pacer,
    covers: polling.covers,
    siteProblems: polling.siteProblems,
    clock,
    log,
    storage: data.storage,
    integrityChecked: integrity.checked,
    checkIntegrity: () => integrity.begin(),
    backups,
    restorer,
    madeEmpty: () => data.madeEmpty,
    unopened: () => unopenedAnswer(store),
    notifier,
    vapidKeys: vapid.keys,
    settingsChanged: vapid.readSubject,
    acquireDeps: acquire,
    async addSite(site) {
      polling.registry.add(site)
      await lanes.add(site)
    },
    get lanesRunning() {
      return lanes.running
    },
    feeds: polling.feeds,
    startLanes: () => lanes.start(),
    stopLanes: () => lanes.stop(),
    async stopSending() {
      lanes.refuseStarts()
      stopping.abort()
      await lanes.stop()
    },
    async stop() {
      if (closed) return
      closed = true
      await core.stopSending()
      await notifier.stop()
      await options.browser?.close()
      await closeData(data, polling.reader)
    },
  }
  // The page reader's worker is not started ahead: it starts with the first page that needs it (a large or deep
  // page, an owner's selectors), which waits ~0.1–0.2 s for it once. A library whose pages are all read inline never
  // holds its ~25 MB (docs/adr/0240-a-page-cache-the-size-sqlite-chose.md; it was warmed at start, ADR 0229).
  return core
}

/** Settings → Backups → Restore: the Lanes, a backup in progress and the integrity check quieted meanwhile. */
function restorerOf(options: CoreOptions, data: OpenedData, polling: PollingParts, lanes: LaneSwitch): Restorer {
  return createRestorer({
    store: data.store,
    backupDir: data.backupDir,
    clock: options.clock,
    log: options.log,
    nativeBinding: options.nativeBinding,
    onPin: (site, url) => onSitePin(polling.registry.sites)(site, url),
    async quiet() {
      const lanesWere = lanes.running
      await lanes.stop()
      await data.backups.idle()
      await data.integrity.cancel()
      return async () => {
        if (lanesWere) await lanes.start()
      }
    },
    restored: () => {
      data.madeEmpty = null
      lanes.release()
    },
  })
}

/**
 * Damage — found by the integrity check, at open, or by a statement — stops the Lanes and holds them until a restore
 * puts a sound file in place (docs/adr/0210-the-start-before-the-verdict.md): damage is kept until then, so every
 * check would only fail to write. Other faults (a full disk) leave them running; their writes resume by themselves.
 */
function holdLanesOnDamage(store: Store, lanes: LaneSwitch, log: Log): void {
  const hold = () => {
    log.warn('lanes: stopped until a backup is restored (the database is damaged)')
    void lanes.hold()
  }
  if (store.health.fault()?.kind === 'damaged') hold()
  store.health.onChange((fault) => {
    if (fault?.kind === 'damaged') hold()
  })
}

/** The data directory opened: its lock, the store and its watches, the backups, what the start found. */
interface OpenedData {
  lock: DataLock
  store: Store
  storage: StorageWatch
  backupDir: string
  integrity: IntegrityWatch
  backups: Backups
  /** See `Core.madeEmpty`; forgotten once a backup is restored. */
  madeEmpty: { backups: number; newest: BackupView } | null
}

/** Makes the data directory private, locks it, opens the store and starts its watches and the backups. */
async function openData(options: CoreOptions): Promise<OpenedData> {
  const { clock, log } = options
  const { lock, store } = openStore(options)
  const storage = watchStorage({
    health: store.health,
    clock,
    log,
    everyMs: options.storageCheckMs || undefined,
  })
  const backupDir = join(options.dataDir, BACKUP_DIR)
  const integrity = watchIntegrity(store, backupDir, options)
  if (options.awaitIntegrity ?? true) await waitAtStart(integrity, options)
  const madeEmpty = madeEmptyBesideBackups(store, backupDir, log)
  const backups = scheduleBackups({
    store,
    dir: backupDir,
    clock,
    log,
    nativeBinding: options.nativeBinding,
    daily: options.dailyBackups,
  })
  return { lock, store, storage, backupDir, integrity, backups, madeEmpty }
}

/** Closes what `openData` opened, after the page reader, and lets the data directory go. */
async function closeData(data: OpenedData, reader: PageReader): Promise<void> {
  await data.integrity.cancel()
  await data.backups.stop()
  await data.storage.stop()
  await reader.close()
  await data.store.close()
  data.lock.release()
}

/** Makes the data directory private (said when it was not), locks it and opens the store; the lock is let go if it fails. */
function openStore(options: CoreOptions): { lock: DataLock; store: Store } {
  const { log } = options
  const wasOpen = ensurePrivateDir(options.dataDir)
  if (wasOpen?.error)
    log.warn({ dir: options.dataDir, mode: wasOpen.from.toString(8), err: wasOpen.error }, 'data directory: other users can read it')
  else if (wasOpen)
    log.warn(
      { dir: options.dataDir, mode: wasOpen.from.toString(8) },
      'data directory: other users could read it; it is now private (0700)',
    )
  const lock = lockData(options)
  let store: Store
  try {
    const opened = openStoreOrFallBack(options)
    store = options.wrapDb ? { ...opened, db: options.wrapDb(opened.db) } : opened
  } catch (error) {
    lock.release()
    throw error
  }
  if (store.migration.backup) log.info({ backup: store.migration.backup }, 'store: copied aside before migrating')
  return { lock, store }
}

/** Storage errors at open: SQLite's, or the file system's refusal to create or write a file. */
const OPEN_FAULT = /^(SQLITE_(FULL|READONLY|IOERR|CANTOPEN|CORRUPT|NOTADB)|EROFS|EACCES|EPERM|ENOSPC|EDQUOT|EIO)/

/** The storage error an open failed with (a migration's carries it as its cause), or null for any other. */
function openFault(error: unknown): unknown {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause)
    if (OPEN_FAULT.test(String((e as { code?: unknown }).code))) return e
  return null
}

/**
 * Locks the data directory. One that takes no lock file at all (a read-only file system, a full disk) is opened
 * without it, said loudly: no other app can write there either (docs/adr/0115-a-start-that-cannot-write.md).
 */
function lockData(options: CoreOptions): DataLock {
  try {
    return lockDataDir(options.dataDir, { nativeBinding: options.nativeBinding })
  } catch (error) {
    if (!openFault(error)) throw error
    options.log.error(
      { dir: options.dataDir, err: error },
      `data directory: cannot lock ${options.dataDir} (${(error as Error).message}); opening it without the lock`,
    )
    return { release() {} }
  }
}

/**
 * Opens the store; a file that cannot be opened for writing is opened read-only, and one SQLite cannot open at all
 * is stood in for by an empty schema in memory that refuses every write and every Reader's read, so the owner's
 * window runs with the cause and the restore (docs/adr/0115-a-start-that-cannot-write.md). Said in the log and the
 * terminal either way.
 */
function openStoreOrFallBack(options: CoreOptions): Store {
  const file = join(options.dataDir, STORE_FILE)
  const opening = { now: options.clock.now(), nativeBinding: options.nativeBinding }
  try {
    return openStoreFile(file, opening)
  } catch (error) {
    const cause = openFault(error)
    if (!cause) throw error
    const newest = listBackups(join(options.dataDir, BACKUP_DIR))[0]
    const advice = newest
      ? `${RESTORE_ADVICE}; the newest is ${newest.file}`
      : `${RESTORE_ADVICE}; there is none in ${join(options.dataDir, BACKUP_DIR)}`
    const fault = faultAtOpen(file, cause)
    if (fault.kind === 'damaged') fault.message = `${fault.message.slice(0, fault.message.lastIndexOf(RESTORE_ADVICE))}${advice}`
    try {
      const store = openStoreReadOnly(file, opening, fault)
      options.log.error({ file, code: fault.code }, `store: opened read-only at start: ${fault.message}`)
      return store
    } catch (readOnlyError) {
      const words = (cause as Error).message
      const unopened: StorageFault = {
        kind: 'damaged',
        code: UNOPENED,
        message: `cannot open ${file}: ${words}${(readOnlyError as Error).message !== words ? ` (read-only: ${(readOnlyError as Error).message})` : ''}; ${advice}`,
      }
      options.log.error({ file, code: String((cause as { code?: unknown }).code) }, `store: ${unopened.message}`)
      return openStandIn(file, opening, unopened)
    }
  }
}

/** What a Reader's route answers while the store is a stand-in for a file that could not be opened (null: it is not). */
function unopenedAnswer(store: Store): AppError | null {
  const fault = store.health.fault()
  return fault?.code === UNOPENED ? new AppError('storage-unavailable', `the app cannot read its database: ${fault.message}`) : null
}

/** The fault code of a store whose file could not be opened at all (a stand-in in memory). */
const UNOPENED = 'cannot-open'

/** The integrity check of the file opened (none for a store in memory, or before it begins), and its verdict applied. */
interface IntegrityWatch {
  readonly check: IntegrityCheck | null
  /** Starts the check (once; not after a cancel); resolves as `checked`. */
  begin(): Promise<void>
  /** Settles once the verdict is applied (at once for a store in memory or a check cancelled before it began). */
  readonly checked: Promise<void>
  /** Stops a check running, and any that would begin. */
  cancel(): Promise<void>
}

/**
 * The integrity check of the store's file, begun when asked, on a read-only connection in a worker; its verdict,
 * when it comes, marks a damaged store with the newest backup to restore (docs/adr/0046-…, 0210-…).
 */
function watchIntegrity(store: Store, backupDir: string, options: CoreOptions): IntegrityWatch {
  const { log } = options
  const applyVerdict = (verdict: IntegrityVerdict) => {
    if (verdict.ok) {
      if (verdict.problems.length) log.warn({ problems: verdict.problems }, 'store: the integrity check did not run')
      else log.info({ ms: verdict.ms }, 'store: integrity check ok')
      return
    }
    const newest = listBackups(backupDir)[0]
    store.health.markDamaged(
      verdict.problems.slice(0, 2).join('; '),
      newest ? `${RESTORE_ADVICE}; the newest is ${newest.file}` : `${RESTORE_ADVICE}; there is none in ${backupDir}`,
    )
  }
  let check: IntegrityCheck | null = null
  let cancelled = store.file === ':memory:'
  let settle = () => {}
  const checked = new Promise<void>((resolve) => (settle = resolve))
  if (cancelled) settle()
  return {
    get check() {
      return check
    },
    begin() {
      if (!check && !cancelled) {
        check = startIntegrityCheck(store.file, options.nativeBinding ? { nativeBinding: options.nativeBinding } : {})
        // A check stopped by the app (its stop, a restore) has no verdict to say.
        void check.verdict
          .then((verdict) => (cancelled ? log.debug('store: the integrity check was stopped') : applyVerdict(verdict)))
          .finally(settle)
      }
      return checked
    },
    checked,
    async cancel() {
      cancelled = true
      if (check) await check.cancel()
      else settle()
    },
  }
}

/**
 * `startCore` on its own (tests, tools): begins the check and waits for its verdict up to `integrityWaitMs` of real
 * time (the check is real work); a larger file is checked on while the core runs.
 */
async function waitAtStart(integrity: IntegrityWatch, options: CoreOptions): Promise<void> {
  const waitMs = options.integrityWaitMs ?? INTEGRITY_WAIT_MS
  const inTime = await Promise.race([integrity.begin().then(() => true), realDelay(waitMs)])
  if (!inTime) options.log.info({ waitedMs: waitMs }, 'store: the integrity check goes on while the app runs')
}

/** A new, empty database made while the backup folder holds backups: the file was deleted or moved (said loudly). */
function madeEmptyBesideBackups(store: Store, backupDir: string, log: Log): OpenedData['madeEmpty'] {
  const earlier = listBackups(backupDir)
  if (store.migration.from !== 0 || earlier.length === 0 || store.health.fault()?.code === UNOPENED) return null
  const newest = earlier[0]!
  log.error(
    { file: store.file, backups: earlier.length, newest: newest.file },
    `store: a new, empty database was made at ${store.file}, but ${backupDir} holds ${earlier.length} backups, the newest from ${new Date(newest.at).toISOString()}: if the database was deleted or moved, restore it (Settings → Backups → Restore, or quit and run npm run restore -- --latest)`,
  )
  return { backups: earlier.length, newest }
}

/** What the Lanes and Acquisitions poll with: the Sites, the fetchers, the browser's health, the pacer, the reader. */
interface PollingParts {
  registry: SiteRegistry
  siteProblems: readonly string[]
  fetchers: Fetchers
  health: BrowserHealth
  pacer: SitePacer
  reader: PageReader
  /** Each adaptive Site's updates page as its Lane last read it (docs/adr/0165-site-feeds.md). */
  feeds: Map<string, FeedStatus>
  /** The covers checks find, kept in `<data>/covers/` (store/covers.ts). */
  covers: CoverStore
}

/** The Sites (built-in or given, and sites.json's, its problems logged), the fetchers, the pacer, the page reader. */
function pollingParts(options: CoreOptions): PollingParts {
  const { clock, log } = options
  const loaded = loadSites(options.dataDir, [...(options.sites ?? BUILT_IN_SITES), ...(options.extraSites ?? [])])
  for (const problem of loaded.problems) log.warn(problem)
  const registry = createRegistry(loaded.sites)
  const fetchers: Fetchers = {
    http: options.http ?? createHttpFetcher({ now: () => clock.now() }),
    browser: options.browser,
  }
  const health = new BrowserHealth(clock)
  const pacer = new SitePacer(clock)
  // Pages are read off the main thread, each under a deadline (docs/adr/0040-…).
  const reader = options.reader ?? createPageReader({ log, deadlineMs: options.readDeadlineMs || undefined })
  const covers = new CoverStore(join(options.dataDir, COVERS_DIR))
  return { registry, siteProblems: loaded.problems, fetchers, health, pacer, reader, feeds: new Map(), covers }
}

/** What an Acquisition checks with: the Lanes' parts, and the signal that stops it with the app. */
function acquireDeps(options: CoreOptions, store: Store, polling: PollingParts, signal: AbortSignal): SearchDeps {
  const { registry, fetchers, health, pacer, reader, covers } = polling
  const { onCheck } = options
  return {
    db: store.db,
    registry,
    fetchers,
    health,
    pacer,
    clock: options.clock,
    log: options.log,
    signal,
    reader,
    covers,
    onCheck: onCheck && ((key, report) => onCheck(key.site, key.seriesId, report)),
    onSearch: options.onSearch,
  }
}

/**
 * The Lanes' options: New Chapters logged, told to the shell and digested for the Readers' channels; a Series whose
 * page is gone searched for by its title (found again, docs/adr/0147-…), in the background on the Site's Lane.
 */
function laneOptions(options: CoreOptions, store: Store, polling: PollingParts, notifier: Notifier, search: SearchDeps): LanesOptions {
  const { clock, log, onCheck } = options
  return {
    db: store.db,
    sites: polling.registry.sites,
    fetchers: polling.fetchers,
    clock,
    log,
    health: polling.health,
    pacer: polling.pacer,
    reader: polling.reader,
    feeds: polling.feeds,
    covers: polling.covers,
    fetchImage: options.fetchImage,
    onCover: options.onCover,
    onNewChapters: (site, chapters) => {
      log.info(
        { site: site.key, chapters: chapters.map((c) => `${c.title} ${c.label}`) },
        `${chapters.length} New Chapter${chapters.length === 1 ? '' : 's'}`,
      )
      options.onNewChapters?.(site, chapters)
      void notifier.digest(site.key).then(() => notifier.wake())
    },
    onPass: options.onPass,
    firstPassAfter: options.firstPassAfter,
    onCheck: (site, series, report) => {
      onCheck?.(site.key, series.series_id, report)
      if (report.gone) void findAgainAfterCheck(search, { site: site.key, seriesId: series.series_id }, report)
    },
  }
}

/**
 * Starts and stops the Lanes. A start is kept before anything is awaited, so a second call at once joins the first;
 * and the Lanes of a stop still in progress finish their passes first, so two passes of one Site never overlap.
 */
class LaneSwitch {
  readonly #start: () => Promise<Lanes>
  #lanes: Promise<Lanes> | null = null
  /** Settles when every stop of the Lanes asked so far has ended. */
  #stopping: Promise<void> = Promise.resolve()
  /** Nothing may send any more. */
  #refused = false
  /** Stopped for a damaged file (`hold`): no start until `release`; and whether they ran when held. */
  #held: { wereRunning: boolean } | null = null

  constructor(start: () => Promise<Lanes>) {
    this.#start = start
  }

  get running(): boolean {
    return this.#lanes !== null
  }

  async start(): Promise<void> {
    if (this.#refused) return
    if (this.#held) {
      // Asked while held: they start once a sound file is restored.
      this.#held.wereRunning = true
      return
    }
    const previous = this.#stopping
    this.#lanes ??= previous.then(() => this.#start())
    await this.#lanes
  }

  async stop(): Promise<void> {
    const running = this.#lanes
    this.#lanes = null
    const stoppingNow = (async () => (await running)?.stop())()
    this.#stopping = this.#stopping.then(() => stoppingNow).catch(() => undefined)
    await stoppingNow
  }

  /** A Site added while the Lanes run gets its Lane at once. */
  async add(site: Site): Promise<void> {
    if (this.#lanes) await (await this.#lanes).add(site)
  }

  /** Stops the Lanes, and no start runs until `release` (the file is damaged). */
  async hold(): Promise<void> {
    if (this.#held) return
    this.#held = { wereRunning: this.running }
    await this.stop()
  }

  /** Starts runs again; the Lanes start if they ran when held (a sound file was restored). */
  release(): void {
    const held = this.#held
    this.#held = null
    if (held?.wereRunning) void this.start()
  }

  /** From now on no start runs (the app is stopping). */
  refuseStarts(): void {
    this.#refused = true
  }
}

/** Resolves undefined after `ms` of real time, without keeping the process alive. */
function realDelay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref())
}
