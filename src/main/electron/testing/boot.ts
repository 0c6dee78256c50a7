/**
 * Boots the real main entry (src/main/electron/index.ts) and, on demand, the real preload against the Electron
 * stand-in, as one Electron "process" would run them (docs/adr/0082-the-electron-stand-in.md). Only two things
 * are given to it from outside: the `electron` module (the stand-in, through `vi.doMock`) and, through a
 * pass-through of `startApp`, the test's Clock and Sites — the app's own choices (data directory, native
 * binding, browser, New Chapter hook) are the entry's, untouched.
 */
import { copyFileSync, mkdirSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { vi } from 'vitest'
import type { AdminBridge } from '../../../preload/index.d'
import type * as AppModule from '../../app'
import type { AppOptions, RunningApp } from '../../app'
import type { Clock } from '../../clock'
import type { Site } from '../../sites/site'
import { NATIVE_FILE } from '../native'
import {
  createElectronStandIn,
  type ElectronStandIn,
  type InstanceLocks,
  type Renderer,
  type StandInBrowserWindow,
} from './electron-stand-in'

const APP_MODULE = fileURLToPath(new URL('../../app.ts', import.meta.url))

/** What the preload exposes on `window.mangaBookmark`. */
export interface PreloadBridge {
  readonly shell: 'electron'
  readonly admin: AdminBridge
  onOpenSeries(listener: (key: { site: string; seriesId: string }) => void): void
}

export interface BootOptions {
  dataDir: string
  /** `app.getAppPath()`: where `native/electron/better_sqlite3.node` is looked for. */
  appDir: string
  /** `process.resourcesPath`. */
  resourcesDir: string
  locks: InstanceLocks
  clock: Clock
  sites: readonly Site[]
  /** Run as a packaged app (`app.isPackaged`: the arguments start at argv[1]). */
  packaged?: boolean
  /** Whether the platform's notification server exists (default yes). */
  notifications?: boolean
}

export interface BootedShell {
  readonly standIn: ElectronStandIn
  /** The app the entry started (undefined when it refused to start, or never did). */
  readonly running: RunningApp | undefined
  /** The owner's window: the one with the preload. */
  ownerWindow(): StandInBrowserWindow
  /** Runs the real preload in the owner's window; returns what it exposed and its renderer. */
  preload(): Promise<{ bridge: PreloadBridge; renderer: Renderer }>
  /** Quits as the tray's Quit does, and waits for the exit code. */
  quit(): Promise<number>
}

/** An app folder holding a better-sqlite3 build where the Electron one goes (this machine's Node build, copied). */
export function appDirWithNative(root: string): string {
  const dir = join(root, 'app')
  mkdirSync(join(dir, 'native', 'electron'), { recursive: true })
  const nodeBuild = join(dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json')), 'build', 'Release', NATIVE_FILE)
  copyFileSync(nodeBuild, join(dir, 'native', 'electron', NATIVE_FILE))
  return dir
}

/** Runs the main entry as a fresh process would: a fresh module graph, `ready` fired, its start awaited. */
export async function bootElectronShell(options: BootOptions): Promise<BootedShell> {
  const standIn = createElectronStandIn({
    appPath: options.appDir,
    userData: join(options.dataDir, 'user-data'),
    locks: options.locks,
    ...(options.notifications === undefined ? {} : { notifications: options.notifications }),
  })
  let running: RunningApp | undefined
  vi.resetModules()
  vi.doMock('electron', () => standIn.module)
  vi.doMock(APP_MODULE, async (importOriginal) => {
    const real = await importOriginal<typeof AppModule>()
    const startApp = async (o: AppOptions) => (running = await real.startApp({ ...o, clock: options.clock, sites: options.sites }))
    return { ...real, startApp }
  })
  standIn.app.isPackaged = options.packaged ?? false
  const entry = options.packaged ? [] : ['out/main/index.js']
  process.argv = [process.argv[0]!, ...entry, '--data', options.dataDir, '--port', '0']
  // Electron sets it (read-only in its types); Node has none.
  Object.assign(process, { resourcesPath: options.resourcesDir })
  process.env.MB_LOG_LEVEL ??= 'warn'
  await import('../index')
  standIn.app.fireReady()
  // Started: the last thing the start does is listen for sleep and wake (or it refused, and exited).
  await until(() => standIn.app.exitCode !== undefined || standIn.trays.length > 0)
  await until(() => standIn.app.exitCode !== undefined || standIn.powerMonitor.listenerCount('resume') > 0, 2_000).catch(() => undefined)

  const ownerWindow = () => {
    const window = standIn.windows.find((w) => w.options.webPreferences?.preload)
    if (!window) throw new Error('the app made no owner window')
    return window
  }
  return {
    standIn,
    get running() {
      return running
    },
    ownerWindow,
    async preload() {
      const renderer = standIn.preloadInto(ownerWindow())
      await import('../../../preload/index')
      return { bridge: renderer.world.mangaBookmark as PreloadBridge, renderer }
    },
    async quit() {
      if (standIn.app.exitCode === undefined) standIn.app.quit()
      return standIn.app.exited
    },
  }
}

/** Waits (in real time: the start does real I/O) until `done()` holds. */
export async function until(done: () => boolean, timeoutMs = 20_000): Promise<void> {
  const started = Date.now()
  while (!done()) {
    if (Date.now() - started > timeoutMs) throw new Error(`still waiting after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
}
