/**
 * The app both shells run (docs/adr/0003): the demo when asked, the core, the browser fetcher the shell
 * gives, and the HTTP server — the sync endpoint and the Readers' page, plus the owner's window over
 * loopback in the headless shell. Everything it starts is stopped by `stop()`, in reverse order.
 */
import { join } from 'node:path'
import type { AdminApi } from '../shared/admin-api'
import { createAdmin } from './admin/admin'
import { validatedAdmin, type AdminCaller } from './admin/validated'
import { systemClock, type Clock } from './clock'
import { startCore, type Core, type CoreOptions } from './core'
import { createBrowserFetcher, type BrowserFetcherOptions } from './fetch/browser/browser-fetcher'
import type { BrowserLauncher } from './fetch/browser/session'
import { ADMIN_CODE_VALUE, registerAdminHttp } from './admin/admin-http'
import { loadAdminSecret } from './admin/admin-secret'
import { SignInCodes } from './access/sign-in-codes'
import { watchAdminLinkRequests } from './admin/admin-link-watch'
import { applyLogLevel, type Log } from './log'
import type { FastifyInstance } from 'fastify'
import { createHttpServer, listen, onFirstAnswer, relisten, type Listening } from './server/http'
import { defaultRendererDir, registerPages } from './server/pages'
import type { Site } from './sites/site'
import { readSettings } from './store/settings'
import type { Settings } from '../shared/settings'
import { registerSyncApi, type SyncOptions, type SyncStoreState } from './sync/api'
import { holdsLibrary } from './store/backups'
import { startBigReads } from './reads/big-reads'

export interface AppOptions {
  shell: 'electron' | 'headless'
  dataDir: string
  log: Log
  clock?: Clock
  /** The sync endpoint's port; default: the owner's setting (4711). */
  port?: number
  /** Default: 127.0.0.1, or all interfaces when the owner opted into a LAN bind. */
  host?: string
  demo?: boolean
  /** Only these Sites instead of the built-in ones (tests). */
  sites?: readonly Site[]
  /** Start the Lanes (default true). */
  lanes?: boolean
  /** The shell's browser, given the profile directory; none → browser Sites skip `no-fetcher`. */
  browser?: (profileDir: string) => BrowserLauncher
  /** Browser fetcher settings (tests shorten them). */
  browserOptions?: Pick<BrowserFetcherOptions, 'challengeTimeoutMs' | 'idleMs'>
  sync?: SyncOptions
  /** The renderer build (default: out/renderer). */
  rendererDir?: string
  /**
   * Serve the owner's window over loopback HTTP (the headless shell) on a listener of its own, with this token
   * or the one kept in the data directory, on this port or a free one. With `orFree`, a port in use is not an
   * error: a free one is taken instead and `adminPortTaken` says so (the default port, not one the owner chose).
   */
  /** `linkLookMs`: how often the app looks for `npm run admin-link` requests (real time; tests shorten it). */
  adminHttp?: { token?: string; port?: number; orFree?: boolean; linkLookMs?: number }
  nativeBinding?: string
  onNewChapters?: CoreOptions['onNewChapters']
}

export interface RunningApp {
  readonly core: Core
  /** The admin contract behind validation: what IPC and RPC call. */
  readonly admin: AdminCaller
  /** The same contract, typed, for the shell's own trusted reads (the tray, notifications, login item). */
  readonly api: AdminApi
  readonly dataDir: string
  readonly dataFile: string
  readonly origin: string
  readonly port: number
  /** With --demo: the Readers created on first run, with their tokens (shown once). */
  readonly demoReaders: Array<{ name: string; token: string }>
  readonly demoOrigin?: string
  /** `http://127.0.0.1:ADMIN_PORT/admin/?token=…` (headless only): the admin listener, not the sync port. */
  readonly adminUrl?: string
  /**
   * `http://127.0.0.1:ADMIN_PORT/admin/?code=…` (headless only): the one-time sign-in link the shell prints for a
   * person — it works once, within 10 minutes (docs/adr/0087-sign-in-links-that-end.md).
   */
  readonly adminSignInUrl?: string
  /** The admin listener's port (headless only). */
  readonly adminPort?: number
  /**
   * A new one-time sign-in link for the owner's window, made now (headless only; docs/adr/0127-a-sign-in-link-while-
   * the-app-runs.md): what the terminal prints on Enter and the tray's "New sign-in link" gives.
   */
  newAdminSignInLink?(): string
  /** The admin port asked for, when it was in use and a free one was taken instead (`adminHttp.orFree`). */
  readonly adminPortTaken?: number
  stop(): Promise<void>
}

/**
 * The Lanes' first passes wait for the sync endpoint's first answer, or this long (real time) after it listens: a
 * start answers its first request without a pass competing (docs/adr/0229-a-start-that-loads-what-it-answers-with.md).
 */
export const FIRST_PASS_WAIT_MS = 500

export async function startApp(options: AppOptions): Promise<RunningApp> {
  const clock = options.clock ?? systemClock
  const { log } = options
  const started = new Started(log)
  let answered = () => {}
  const firstPassAfter = new Promise<void>((resolve) => (answered = resolve))
  try {
    // The demo keeps its catalogue in a database of its own, beside the owner's, and its Sites' state with it.
    const dataDir = options.demo ? join(options.dataDir, 'demo') : options.dataDir
    // Loaded only for the demo: its Sites and pages are no part of a usual start (docs/adr/0229-…).
    const demo = options.demo ? await (await import('./demo/demo')).startDemo({ clock, log, dataDir }) : undefined
    if (demo) started.add(() => demo.stop())
    const browser = browserFetcher(options, dataDir)
    const core = await startCore({
      dataDir,
      clock,
      log,
      browser,
      sites: demo ? demo.sites : options.sites,
      nativeBinding: options.nativeBinding,
      onNewChapters: options.onNewChapters,
      awaitIntegrity: false,
      firstPassAfter,
    })
    started.add(() => core.stop())
    const demoReaders = demo ? await demo.seed(core.store.db, clock.now()) : []

    const settings = await readSettings(core.store.db)
    applyLogLevel(log, settings.logLevel)
    const served = await serve({ options, core, clock, dataDir, started, host: options.host ?? bindHost(settings.syncBind), answered })
    const bound = await served.endpoint.listen(options.port ?? settings.syncPort)
    // On the app's clock, as every wait of the core: a test's fake clock moves it (a real timer would hold the Lanes).
    void clock.sleep(FIRST_PASS_WAIT_MS).then(answered)
    // Digests what a crash left before any pass can add to it, then delivers each pass's digests (docs/adr/0074-…).
    core.notifier.start()
    if (options.lanes ?? true) await core.startLanes()
    // The integrity check reads the whole file: it runs once the app answers and the Lanes run, and damage it finds
    // stops writes and the Lanes then (docs/adr/0210-the-start-before-the-verdict.md).
    void core.checkIntegrity()

    let stopping: Promise<void> | undefined
    return {
      core,
      admin: served.admin,
      api: served.api,
      dataDir,
      dataFile: core.store.file,
      origin: bound.origin,
      port: bound.port,
      demoReaders,
      demoOrigin: demo?.fixture.origin,
      ...(served.adminListening ? adminLinks(served.adminListening) : {}),
      // Whatever sends requests stops first — the Lanes and Acquisitions, then the browser (ending a check or a
      // launch in flight) — so nothing reaches a Site once a stop is asked; then the server drains and the
      // store closes.
      stop: () =>
        (stopping ??= (async () => {
          await core.stopSending().catch((error: unknown) => log.error({ err: error }, 'app: stopping the Lanes failed'))
          await browser?.close().catch((error: unknown) => log.error({ err: error }, 'app: closing the browser failed'))
          await started.stopAll()
        })()),
    }
  } catch (error) {
    await started.stopAll()
    throw error
  }
}

/** What the app started, stopped in reverse order; a stop that fails is logged and the others still run. */
class Started {
  readonly #stops: Array<() => Promise<void>> = []
  readonly #log: Log

  constructor(log: Log) {
    this.#log = log
  }

  add(stop: () => Promise<void>): void {
    this.#stops.push(stop)
  }

  async stopAll(): Promise<void> {
    for (const stop of this.#stops.reverse()) await stop().catch((error: unknown) => this.#log.error({ err: error }, 'app: stop failed'))
  }
}

/** The shell's browser as a fetcher: it waits for challenges and idles in real time, whatever clock the Lanes keep. */
function browserFetcher(options: AppOptions, dataDir: string) {
  if (!options.browser) return undefined
  return createBrowserFetcher({
    launcher: options.browser(join(dataDir, 'browser-profile')),
    clock: systemClock,
    log: options.log,
    ...options.browserOptions,
  })
}

/**
 * The sync endpoint's address: where it listens, and moved there by the owner's Settings at once
 * (docs/adr/0077-settings-that-apply-at-once.md).
 */
class SyncEndpoint {
  readonly #server: FastifyInstance
  readonly #log: Log
  #host: string
  #port = 0

  constructor(server: FastifyInstance, host: string, log: Log) {
    this.#server = server
    this.#host = host
    this.#log = log
  }

  get origin(): string {
    return `http://${this.#host}:${this.#port}`
  }

  async listen(port: number): Promise<Listening> {
    const bound = await listen(this.#server, port, this.#host)
    this.#port = bound.port
    return bound
  }

  async move(bind: Settings['syncBind'], port: number | undefined): Promise<void> {
    const moved = await relisten(this.#server, port ?? this.#port, bindHost(bind))
    this.#host = bindHost(bind)
    this.#port = moved.port
    this.#log.info({ host: this.#host, port: this.#port }, 'app: the sync endpoint moved')
  }
}

/**
 * Builds what the app serves, listening on nothing yet: the big reads' worker, the admin contract, the sync
 * endpoint's server with the Readers' page, and (headless) the owner's window on its own listener.
 */
async function serve(context: {
  options: AppOptions
  core: Core
  clock: Clock
  dataDir: string
  started: Started
  host: string
  /** Told once the sync endpoint has sent its first answer. */
  answered: () => void
}): Promise<{ endpoint: SyncEndpoint; api: AdminApi; admin: AdminCaller; adminListening?: AdminListening }> {
  const { options, core, clock, started } = context
  const { log } = options
  // The QR code's one-time codes: made by the owner's window, exchanged on the sync endpoint (docs/adr/0087).
  const readerCodes = new SignInCodes(clock)
  // Full syncs and the library's export, read in a worker thread of their own (docs/adr/0093-…).
  const bigReads = startBigReads({
    file: core.store.file,
    db: core.store.db,
    registry: core.registry,
    log,
    nativeBinding: options.nativeBinding,
  })
  started.add(() => bigReads.close())
  const app = createHttpServer({ log })
  started.add(() => app.close())
  onFirstAnswer(app, context.answered)
  const endpoint = new SyncEndpoint(app, context.host, log)
  const api = createAdmin({
    core,
    bigReads,
    shell: options.shell,
    readerCodes,
    listening: () => endpoint.origin,
    moveSyncEndpoint: (bind, port) => endpoint.move(bind, port),
  })
  const admin = validatedAdmin(api, log)
  const notify = { notifier: core.notifier, vapidPublicKey: () => core.vapidKeys().publicKey }
  await registerSyncApi(
    app,
    { db: core.store.db, clock, acquire: core.acquireDeps, notify, readerCodes, bigReads, feeds: core.feeds },
    { ...options.sync, store: syncStoreState(core) },
  )
  const rendererDir = options.rendererDir ?? defaultRendererDir()
  await registerPages(app, { rendererDir })
  if (!options.adminHttp) return { endpoint, api, admin }
  const adminListening = await adminListener({
    wanted: options.adminHttp,
    dataDir: context.dataDir,
    log,
    admin,
    clock,
    rendererDir,
    started,
    core,
  })
  return { endpoint, api, admin, adminListening }
}

/** The store as the sync endpoint tells it: its health, a file never opened, a library missing (docs/adr/0114-…). */
function syncStoreState(core: Core): SyncStoreState {
  return {
    health() {
      const fault = core.store.health.fault()
      if (!fault) return { store: 'ok' }
      return { store: fault.kind === 'damaged' ? 'damaged' : 'read-only', problem: fault.message }
    },
    unopened: () => core.unopened(),
    libraryMissing() {
      if (!core.madeEmpty()) return null
      try {
        if (holdsLibrary(core.store.sqlite)) return null
      } catch {
        return null
      }
      return "the app's library is empty: its database was deleted or moved, and the owner has backups to restore it from; keep your token, it works again once a backup is restored"
    },
  }
}

/** The owner's window's links (headless): the admin URL with its token, and a one-time sign-in link. */
function adminLinks(listening: AdminListening) {
  const newAdminSignInLink = () => `http://127.0.0.1:${listening.port}/admin/?code=${listening.codes.issue(ADMIN_CODE_VALUE).code}`
  return {
    adminUrl: `http://127.0.0.1:${listening.port}/admin/?token=${listening.token}`,
    adminSignInUrl: newAdminSignInLink(),
    newAdminSignInLink,
    adminPort: listening.port,
    adminPortTaken: listening.taken,
  }
}

const bindHost = (bind: Settings['syncBind']) => (bind === 'lan' ? '0.0.0.0' : '127.0.0.1')

interface AdminListening {
  port: number
  token: string
  /** The admin listener's one-time sign-in codes. */
  codes: SignInCodes
  /** The port asked for, when it was in use and a free one was taken instead. */
  taken?: number
}

/**
 * The owner's window on a listener of its own, on loopback whatever the sync bind: no script the Readers' page
 * could run shares its origin (docs/adr/0042-the-admin-on-its-own-listener.md). Its token and session key are
 * kept in the data directory, so the admin URL and a session outlive a restart (docs/adr/0076).
 */
async function adminListener(context: {
  wanted: NonNullable<AppOptions['adminHttp']>
  dataDir: string
  log: Log
  admin: AdminCaller
  clock: Clock
  rendererDir: string
  started: Started
  core: Core
}): Promise<AdminListening> {
  const { wanted, log, admin, clock } = context
  const secret = loadAdminSecret(context.dataDir)
  if (secret.replaced) log.warn(`app: ${secret.replaced}`)
  const adminToken = wanted.token ?? secret.token
  const codes = new SignInCodes(clock)
  const adminApp = createHttpServer({ log })
  context.started.add(() => adminApp.close())
  let adminPort = 0
  await registerPages(adminApp, {
    rendererDir: context.rendererDir,
    admin: (server, html) =>
      registerAdminHttp(server, { caller: admin, adminToken, sessionKey: secret.sessionKey, port: () => adminPort, html, clock, codes }),
  })
  const purpose = { name: "the owner's window", choose: 'start with --admin-port N for another one, or --admin-port 0 for a free one' }
  const asked = wanted.port ?? 0
  let taken: number | undefined
  try {
    adminPort = (await listen(adminApp, asked, '127.0.0.1', purpose)).port
  } catch (error) {
    if (!wanted.orFree || asked === 0) throw error
    adminPort = (await listen(adminApp, 0, '127.0.0.1', purpose)).port
    taken = asked
  }
  // `npm run admin-link` asks the running app for a sign-in link through the database (docs/adr/0127).
  const watching = new AbortController()
  const watched = watchAdminLinkRequests({
    db: context.core.store.db,
    codes,
    port: () => adminPort,
    clock,
    sleep: systemClock.sleep,
    everyMs: wanted.linkLookMs,
    log,
    signal: watching.signal,
  })
  context.started.add(async () => {
    watching.abort()
    await watched
  })
  return { port: adminPort, token: adminToken, codes, ...(taken !== undefined ? { taken } : {}) }
}
