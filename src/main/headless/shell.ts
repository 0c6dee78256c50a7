/**
 * The headless shell (SPEC §2, §8): the same core as the Electron shell, run in plain Node, serving over
 * loopback HTTP. Everything it starts is stopped by `stop()`.
 */
import { join } from 'node:path'
import { systemClock, type Clock } from '../clock'
import { startCore, type Core } from '../core'
import { startDemo, type Demo } from '../demo/demo'
import { createBrowserFetcher } from '../fetch/browser/browser-fetcher'
import { playwrightLauncher } from '../fetch/browser/playwright-launcher'
import type { BrowserFetcher } from '../fetch/fetcher'
import type { Log } from '../log'
import { createHttpServer, listen } from '../server/http'
import { defaultRendererDir, registerPages } from '../server/pages'
import { registerSyncApi, type SyncOptions } from '../sync/api'
import { createAdmin } from '../admin/admin'
import { validatedAdmin } from '../admin/validated'
import { readSettings } from '../store/settings'
import { newAdminToken, registerAdminHttp } from './admin-http'
import type { Site } from '../sites/site'

export interface HeadlessOptions {
  dataDir: string
  port: number
  /** 127.0.0.1 unless the owner opted into a LAN bind. */
  host?: string
  log: Log
  clock?: Clock
  demo?: boolean
  /** Only these Sites instead of the built-in ones (tests). */
  sites?: readonly Site[]
  /** Start the Lanes (default true). */
  lanes?: boolean
  /** System Chromium for browser Sites; without it they skip `no-fetcher` (or fall back to HTTP). */
  chromium?: string
  sync?: SyncOptions
  /** The renderer build (default: out/renderer). */
  rendererDir?: string
  /** The admin token (random unless given). */
  adminToken?: string
  /** Browser fetcher settings (tests shorten them). */
  browser?: { challengeTimeoutMs?: number; idleMs?: number }
}

export interface HeadlessShell {
  readonly core: Core
  readonly dataFile: string
  readonly origin: string
  readonly port: number
  /** With --demo: the Readers created on first run, with their tokens (shown once). */
  readonly demoReaders: Array<{ name: string; token: string }>
  readonly demoOrigin?: string
  /** `http://127.0.0.1:PORT/admin/?token=…` */
  readonly adminUrl: string
  stop(): Promise<void>
}

export async function startHeadlessShell(options: HeadlessOptions): Promise<HeadlessShell> {
  const clock = options.clock ?? systemClock
  const { log } = options
  const started: Array<() => Promise<void>> = []
  const stopAll = async () => {
    for (const stop of started.reverse()) await stop().catch((error: unknown) => log.error({ err: error }, 'headless: stop failed'))
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
    const browser: BrowserFetcher | undefined = options.chromium
      ? createBrowserFetcher({
          launcher: playwrightLauncher({ executablePath: options.chromium, userDataDir: join(dataDir, 'browser-profile') }),
          clock: systemClock,
          log,
          ...options.browser,
        })
      : undefined
    const core = await startCore({
      dataDir,
      clock,
      log,
      ...(browser ? { browser } : {}),
      ...(demo ? { sites: demo.sites } : options.sites ? { sites: options.sites } : {}),
    })
    started.push(() => core.stop())
    const demoReaders = demo ? await demo.seed(core.store.db, clock.now()) : []

    const app = createHttpServer({ log })
    started.push(() => app.close())
    await registerSyncApi(app, { db: core.store.db, clock, acquire: core.acquireDeps }, options.sync)
    const adminToken = options.adminToken ?? newAdminToken()
    // The sync endpoint binds loopback unless the owner opted into the LAN (Settings).
    const settings = await readSettings(core.store.db)
    const host = options.host ?? (settings.syncBind === 'lan' ? '0.0.0.0' : '127.0.0.1')
    let boundPort = 0
    const admin = validatedAdmin(createAdmin({ core, shell: 'headless', listening: () => `http://${host}:${boundPort}` }), log)
    await registerPages(app, {
      rendererDir: options.rendererDir ?? defaultRendererDir(),
      admin: (server, html) => registerAdminHttp(server, { caller: admin, adminToken, port: () => boundPort, html }),
    })
    const bound = await listen(app, options.port, host)
    boundPort = bound.port
    if (options.lanes ?? true) await core.startLanes()

    let stopping: Promise<void> | undefined
    return {
      core,
      dataFile: core.store.file,
      origin: bound.origin,
      port: bound.port,
      demoReaders,
      adminUrl: `http://127.0.0.1:${bound.port}/admin/?token=${adminToken}`,
      ...(demo ? { demoOrigin: demo.fixture.origin } : {}),
      stop: () => (stopping ??= stopAll()),
    }
  } catch (error) {
    await stopAll()
    throw error
  }
}
