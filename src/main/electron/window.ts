/**
 * The owner's window: sandboxed, isolated, no Node; the renderer's CSP is in its HTML. It never navigates
 * away from the app and never opens windows; http(s) links open in the system browser; its session grants no
 * permission but a clipboard write. Closing it hides it to the tray.
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { BrowserWindow, shell } from 'electron'
import { isAppNavigation, linkDecision, ownerWindowAllows } from './policy/window-policy'

export interface OwnerWindow {
  show(): void
  /** Shows a Series page (a notification was clicked). */
  openSeries(key: { site: string; seriesId: string }): void
  readonly window: BrowserWindow
}

export function createOwnerWindow(options: {
  rendererDir: string
  preloadPath: string
  icon: string
  isQuitting: () => boolean
}): OwnerWindow {
  const window = new BrowserWindow({
    width: 1200,
    height: 800,
    minWidth: 760,
    show: false,
    title: 'Manga Bookmark',
    icon: options.icon,
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
    },
  })
  const page = join(options.rendererDir, 'index.html')
  const appUrl = pathToFileURL(page).href

  // Permissions on the window's session: denied when asked and when checked, all but a clipboard write.
  const session = window.webContents.session
  session.setPermissionRequestHandler((_contents, permission, callback) => callback(ownerWindowAllows(permission)))
  session.setPermissionCheckHandler((_contents, permission) => ownerWindowAllows(permission))
  session.setDevicePermissionHandler(() => false)

  window.webContents.setWindowOpenHandler(({ url }) => {
    if (linkDecision(url) === 'open-external') void shell.openExternal(url)
    return { action: 'deny' }
  })
  window.webContents.on('will-navigate', (event) => {
    if (isAppNavigation(event.url, appUrl)) return
    event.preventDefault()
    if (linkDecision(event.url) === 'open-external') void shell.openExternal(event.url)
  })
  window.webContents.on('will-attach-webview', (event) => event.preventDefault())
  window.on('close', (event) => {
    if (options.isQuitting()) return
    event.preventDefault()
    window.hide()
  })
  window.once('ready-to-show', () => window.show())
  void window.loadFile(page)

  return {
    window,
    show() {
      if (window.isMinimized()) window.restore()
      window.show()
      window.focus()
    },
    openSeries(key) {
      this.show()
      window.webContents.send('open-series', key)
    },
  }
}
