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
import { startDemo, type Demo } from './demo/demo'
import { createBrowserFetcher, type BrowserFetcherOptions } from './fetch/browser/browser-fetcher'
import type { BrowserLauncher } from './fetch/browser/session'
import { newAdminToken, registerAdminHttp } from './admin/admin-http'
import { applyLogLevel, type Log } from './log'
import { createHttpServer, listen } from './server/http'
import { defaultRendererDir, registerPages } from './server/pages'
import type { Site } from './sites/site'
import { readSettings } from './store/settings'
import { registerSyncApi, type SyncOptions } from './sync/api'

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
   * or a random one, on this port or a free one.
   */
  adminHttp?: { token?: string; port?: number }
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
  /** The admin listener's port (headless only). */
  readonly adminPort?: number
  stop(): Promise<void>
}

export async function startApp(options: AppOptions): Promise<RunningApp> {
  const clock = options.clock ?? systemClock
  const { log } = options
  const started: Array<() => Promise<void>> = []
  const stopAll = async () => {
    for (const stop of started.reverse()) await stop().catch((error: unknown) => log.error({ err: error }, 'app: stop failed'))
  }
  try {
    let demo: Demo | undefined
    if (options.demo) {
      demo = await startDemo({ clock, log })
      started.push(() => demo!.stop())
    }
    // The demo keeps its catalogue in a database of its own, beside the owner's.
    const dataDir = demo ? join(options.dataDir, 'demo') : options.dataDir
    // The browser waits for challenges and idles in real time, whatever clock the Lanes keep.
    const browser = options.browser
      ? createBrowserFetcher({
          launcher: options.browser(join(dataDir, 'browser-profile')),
          clock: systemClock,
          log,
          ...options.browserOptions,
        })
      : undefined
    const core = await startCore({
      dataDir,
      clock,
      log,
      ...(browser ? { browser } : {}),
      ...(demo ? { sites: demo.sites } : options.sites ? { sites: options.sites } : {}),
      ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
      ...(options.onNewChapters ? { onNewChapters: options.onNewChapters } : {}),
      awaitIntegrity: false,
    })
    started.push(() => core.stop())
    // Nothing writes and nothing listens before the integrity check's verdict (or its wait): no write lands in a
    // file found damaged. The servers are built meanwhile, while the check runs in its own thread.
    if (demo) await core.integrityChecked
    const demoReaders = demo ? await demo.seed(core.store.db, clock.now()) : []

    const settings = await readSettings(core.store.db)
    applyLogLevel(log, settings.logLevel)
    const host = options.host ?? (settings.syncBind === 'lan' ? '0.0.0.0' : '127.0.0.1')
    let boundPort = 0
    const api = createAdmin({ core, shell: options.shell, listening: () => `http://${host}:${boundPort}` })
    const admin = validatedAdmin(api, log)

    const app = createHttpServer({ log })
    started.push(() => app.close())
    await registerSyncApi(
      app,
      {
        db: core.store.db,
        clock,
        acquire: core.acquireDeps,
        notify: { notifier: core.notifier, vapidPublicKey: () => core.vapidKeys().publicKey },
      },
      options.sync,
    )
    const rendererDir = options.rendererDir ?? defaultRendererDir()
    await registerPages(app, { rendererDir })
    // The owner's window has a listener of its own, on loopback whatever the sync bind: no script the Readers'
    // page could run shares its origin (docs/adr/0042-the-admin-on-its-own-listener.md).
    let adminListening: { port: number; token: string } | undefined
    if (options.adminHttp) {
      const adminToken = options.adminHttp.token ?? newAdminToken()
      const adminApp = createHttpServer({ log })
      started.push(() => adminApp.close())
      let adminPort = 0
      await registerPages(adminApp, {
        rendererDir,
        admin: (server, html) => registerAdminHttp(server, { caller: admin, adminToken, port: () => adminPort, html, clock }),
      })
      await core.integrityChecked
      adminPort = (
        await listen(adminApp, options.adminHttp.port ?? 0, '127.0.0.1', {
          name: "the owner's window",
          choose: 'start with --admin-port N for another one, or leave it out for a free one',
        })
      ).port
      adminListening = { port: adminPort, token: adminToken }
    }
    await core.integrityChecked
    const bound = await listen(app, options.port ?? settings.syncPort, host)
    boundPort = bound.port
    // Digests what a crash left before any pass can add to it, then delivers each pass's digests (docs/adr/0074-…).
    core.notifier.start()
    if (options.lanes ?? true) await core.startLanes()

    let stopping: Promise<void> | undefined
    return {
      core,
      admin,
      api,
      dataDir,
      dataFile: core.store.file,
      origin: bound.origin,
      port: bound.port,
      demoReaders,
      ...(demo ? { demoOrigin: demo.fixture.origin } : {}),
      ...(adminListening
        ? {
            adminUrl: `http://127.0.0.1:${adminListening.port}/admin/?token=${adminListening.token}`,
            adminPort: adminListening.port,
          }
        : {}),
      // Whatever sends requests stops first — the Lanes and Acquisitions, then the browser (ending a check or a
      // launch in flight) — so nothing reaches a Site once a stop is asked; then the server drains and the
      // store closes.
      stop: () =>
        (stopping ??= (async () => {
          await core.stopSending().catch((error: unknown) => log.error({ err: error }, 'app: stopping the Lanes failed'))
          await browser?.close().catch((error: unknown) => log.error({ err: error }, 'app: closing the browser failed'))
          await stopAll()
        })()),
    }
  } catch (error) {
    await stopAll()
    throw error
  }
}
