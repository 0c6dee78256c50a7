/**
 * The Electron shell: a tray app over the same app the headless shell runs (docs/adr/0003). The files in
 * this folder are the only ones that import `electron`; the logic they need is in src/main/electron/policy/, tested
 * without Electron. Usage: `npm start [-- --data DIR] [--port N] [--demo]`.
 */
import { join } from 'node:path'
import { app, dialog, Notification, powerMonitor, shell } from 'electron'
import { laneViews, storageViewOf } from '../admin/admin-views'
import { startApp, type RunningApp } from '../app'
import { drain } from './policy/drain'
import { noticeFor, rendersMarkup } from './policy/notifications'
import { powerSequencer } from './policy/power'
import { createLog, logToDirectory } from '../log'
import { parseShellArgs, scrubSecrets, USAGE, type ShellArgs } from '../shell-args'
import { electronLauncher } from './browser-session'
import { registerAdminIpc } from './ipc'
import { findNativeBinding, MISSING_NATIVE_MESSAGE } from './native'
import { createAppTray, type AppTray } from './tray'
import { createOwnerWindow, type OwnerWindow } from './window'

// The Electron shell uses no secret from its environment; its renderers and the browser fetcher's hidden windows
// (hostile Sites) inherit none (docs/adr/0088-no-secrets-in-child-processes.md).
scrubSecrets(process.env)
const log = createLog()
const QUIT_WITHIN_MS = 5_000
const TRAY_EVERY_MS = 15_000

let args: ShellArgs
try {
  args = parseShellArgs(process.argv.slice(app.isPackaged ? 1 : 2), 'electron')
} catch (error) {
  console.error(`manga-bookmark: ${(error as Error).message}\n${USAGE.electron}`)
  process.exit(2)
}
if (args.help) {
  console.log(USAGE.electron)
  process.exit(0)
}

let running: RunningApp | undefined
let ownerWindow: OwnerWindow | undefined
let tray: AppTray | undefined
let quitting = false
let trayTimer: ReturnType<typeof setInterval> | undefined
let unregisterIpc: (() => void) | undefined

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => ownerWindow?.show())
  app.whenReady().then(start, (error: unknown) => fail(error))
}

async function start(): Promise<void> {
  const nativeBinding = findNativeBinding(app.getAppPath(), process.resourcesPath)
  if (!nativeBinding) {
    dialog.showErrorBox('Manga Bookmark cannot start', MISSING_NATIVE_MESSAGE)
    app.exit(1)
    return
  }
  const resources = app.isPackaged ? process.resourcesPath : join(app.getAppPath(), 'resources')
  const dataDir = args.dataDir ?? app.getPath('userData')
  logToDirectory(log, join(dataDir, 'logs'))
  running = await startApp({
    shell: 'electron',
    dataDir,
    log,
    demo: args.demo,
    port: args.port,
    nativeBinding,
    rendererDir: join(__dirname, '../renderer'),
    browser: () => electronLauncher(),
    onNewChapters: (_site, chapters) => void notify(chapters),
  })
  log.info({ data: running.dataFile, sync: running.origin }, 'electron: started')

  ownerWindow = createOwnerWindow({
    rendererDir: join(__dirname, '../renderer'),
    preloadPath: join(__dirname, '../preload/index.cjs'),
    icon: join(resources, 'icon.png'),
    isQuitting: () => quitting,
  })
  unregisterIpc = registerAdminIpc(
    running.admin,
    () => ownerWindow?.window.webContents,
    (method, ok) => {
      if (method === 'updateSettings' && ok) void applySettings()
    },
  )
  tray = createAppTray({
    icon: join(resources, 'tray.png'),
    open: () => ownerWindow?.show(),
    openDataFolder: () => void shell.openPath(running!.dataDir),
    quit: () => app.quit(),
    // Present when the app serves the owner's window over loopback HTTP too (docs/adr/0127).
    ...(running.newAdminSignInLink ? { newSignInLink: () => running!.newAdminSignInLink!() } : {}),
  })
  await refreshTray()
  trayTimer = setInterval(() => void refreshTray(), TRAY_EVERY_MS)
  await applySettings()

  const power = powerSequencer({ stop: () => running!.core.stopLanes(), start: () => running!.core.startLanes() }, (m) => log.info(m))
  powerMonitor.on('suspend', () => void power.suspend())
  powerMonitor.on('resume', () => void power.resume())

  if (process.env.MB_E2E === '1')
    Object.assign(globalThis, { mangaBookmarkE2E: { tray: tray.tray, window: ownerWindow.window, app: running } })
}

async function refreshTray(): Promise<void> {
  if (!running || !tray) return
  try {
    // The tray shows the Lanes and the store's state only: it never reads the Overview's counts.
    tray.update(await laneViews(running.core), Date.now(), storageViewOf(running.core))
  } catch (error) {
    log.warn({ err: error }, 'electron: the tray could not read the Lanes')
    // A database that cannot be read still says why in the tray.
    const problem = running.core.storage.problem()
    if (problem)
      tray.update([], Date.now(), {
        file: running.dataFile,
        problem,
        lastBackup: null,
        backupProblem: null,
        madeEmpty: null,
        logProblem: null,
      })
  }
}

async function applySettings(): Promise<void> {
  if (!running) return
  const { settings } = await running.api.settings()
  if (app.isPackaged) app.setLoginItemSettings({ openAtLogin: settings.startAtLogin })
}

async function notify(chapters: Parameters<typeof noticeFor>[0]): Promise<void> {
  const notice = noticeFor(chapters, { markup: rendersMarkup(process.platform) })
  if (!notice || !running || !Notification.isSupported()) return
  if (!(await running.api.settings()).settings.notifications) return
  const notification = new Notification({ title: notice.title, body: notice.body, silent: false })
  notification.on('click', () => ownerWindow?.openSeries(notice.open))
  notification.show()
}

// The window hides to the tray; the app keeps polling until Quit.
app.on('window-all-closed', () => undefined)

app.on('before-quit', (event) => {
  if (quitting) return
  quitting = true
  event.preventDefault()
  clearInterval(trayTimer)
  unregisterIpc?.()
  void drain([{ name: 'app', run: () => running?.stop() ?? Promise.resolve() }], QUIT_WITHIN_MS).then((report) => {
    if (report.late.length) log.warn({ late: report.late }, 'electron: quit before everything drained')
    tray?.destroy()
    app.exit(0)
  })
})

function fail(error: unknown): void {
  log.error({ err: error }, 'electron: start failed')
  dialog.showErrorBox('Manga Bookmark cannot start', error instanceof Error ? error.message : String(error))
  app.exit(1)
}
