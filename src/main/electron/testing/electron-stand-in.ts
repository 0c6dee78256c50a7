/**
 * A stand-in for the `electron` module, so tests run the real main entry and preload where Electron's binary
 * cannot be installed (docs/adr/0082-the-electron-stand-in.md). Written from Electron's documented API: each
 * class implements the members the app uses, picked from `electron`'s own type definitions, so a signature that
 * drifts fails `npm run typecheck`. It records what the app asked for (`calls`) and lets a test fire what
 * Electron would: ready, a second instance, a window closed, suspend and resume, a notification clicked, a call
 * from a renderer. Wired in only by tests (`vi.doMock('electron', …)`, see ./boot.ts); it imports nothing of
 * Electron at run time.
 */
import { EventEmitter } from 'node:events'
import { pathToFileURL } from 'node:url'
import type * as Electron from 'electron'
import type {
  App,
  BrowserWindow,
  BrowserWindowConstructorOptions,
  ContextBridge,
  Dialog,
  HandlerDetails,
  IpcMain,
  IpcMainInvokeEvent,
  IpcRenderer,
  IpcRendererEvent,
  MenuItemConstructorOptions,
  Notification,
  NotificationConstructorOptions,
  Settings,
  Shell,
  Tray,
  WebContents,
  WebFrameMain,
  WindowOpenHandlerResponse,
} from 'electron'
import { standInEvent, type Recorder } from './stand-in-events'
import { loadDocument, StandInSession, type LoadedPage } from './stand-in-session'

/** The single-instance lock, shared by the stand-in "processes" of one test (Electron's is per user and app). */
export class InstanceLocks {
  holder: StandInApp | undefined
}

type InvokeHandler = Parameters<IpcMain['handle']>[1]

let nextId = 1

export class StandInFrame implements Pick<WebFrameMain, 'url' | 'origin' | 'processId' | 'routingId'> {
  readonly processId = nextId++
  readonly routingId = nextId++
  constructor(public url = 'about:blank') {}
  get origin(): string {
    return this.url.startsWith('file:') ? 'file://' : new URL(this.url).origin
  }
}

/** The app: lifecycle, the single-instance lock, paths, the login item. */
export class StandInApp
  extends EventEmitter
  implements
    Pick<App, 'requestSingleInstanceLock' | 'quit' | 'exit' | 'whenReady' | 'isReady' | 'getAppPath' | 'getPath' | 'setLoginItemSettings'>
{
  isPackaged = false
  exitCode: number | undefined
  loginItem: Settings | undefined
  readonly #ready: { promise: Promise<void>; resolve(): void }
  #isReady = false
  /** A quit or an exit is closing the windows. */
  #closing = false
  #exited: { promise: Promise<number>; resolve(code: number): void }

  constructor(
    private readonly standIn: { appPath: string; userData: string; locks: InstanceLocks; windows: Set<StandInBrowserWindow> },
    private readonly record: Recorder,
  ) {
    super()
    this.#ready = deferred<void>()
    this.#exited = deferred<number>()
  }

  /** Resolves with the exit code once the app exits (`app.exit`, or a quit nobody prevented). */
  get exited(): Promise<number> {
    return this.#exited.promise
  }

  /** Electron has finished initialising: `ready`, and `whenReady()` resolves. */
  fireReady(): void {
    this.#isReady = true
    this.emit('ready', standInEvent({}), {})
    this.#ready.resolve()
  }

  whenReady(): Promise<void> {
    return this.#ready.promise
  }
  isReady(): boolean {
    return this.#isReady
  }

  requestSingleInstanceLock(additionalData?: Record<string, unknown>): boolean {
    this.record('app.requestSingleInstanceLock')
    const { locks } = this.standIn
    if (!locks.holder || locks.holder.exitCode !== undefined) {
      locks.holder = this
      return true
    }
    // The primary instance hears of this one (argv, working directory, additional data), after this call returns.
    const primary = locks.holder
    setImmediate(() => primary.emit('second-instance', standInEvent({}), process.argv, process.cwd(), additionalData ?? {}))
    return false
  }

  /** `before-quit`, then the windows are closed (each may refuse), then `will-quit`; then the app ends. */
  quit(): void {
    this.record('app.quit')
    setImmediate(() => {
      const before = standInEvent({})
      this.emit('before-quit', before)
      if (before.defaultPrevented) return
      this.#closing = true
      for (const window of [...this.standIn.windows]) window.close()
      this.#closing = false
      if (this.standIn.windows.size > 0) return
      const will = standInEvent({})
      this.emit('will-quit', will)
      if (will.defaultPrevented) return
      this.emit('quit', standInEvent({}), 0)
      this.#end(0)
    })
  }

  /** Exits at once: no `before-quit` or `will-quit`, the windows destroyed without `close`. */
  exit(exitCode = 0): void {
    this.record(`app.exit ${exitCode}`)
    this.#closing = true
    for (const window of [...this.standIn.windows]) window.destroy()
    this.#end(exitCode)
  }

  /**
   * The last window went, not by a quit: `window-all-closed` to whoever listens; with no listener the app quits,
   * as Electron's default is.
   */
  lastWindowClosed(): void {
    if (this.#closing || this.exitCode !== undefined) return
    if (this.listenerCount('window-all-closed') > 0) this.emit('window-all-closed', standInEvent({}))
    else this.quit()
  }

  #end(code: number): void {
    if (this.exitCode !== undefined) return
    this.exitCode = code
    if (this.standIn.locks.holder === this) this.standIn.locks.holder = undefined
    this.#exited.resolve(code)
  }

  getAppPath(): string {
    return this.standIn.appPath
  }
  getPath(name: Parameters<App['getPath']>[0]): string {
    if (name !== 'userData') throw new Error(`the stand-in knows only userData, not ${name}`)
    return this.standIn.userData
  }
  setLoginItemSettings(settings: Settings): void {
    this.record(`app.setLoginItemSettings ${JSON.stringify(settings)}`)
    this.loginItem = settings
  }
}

/** A renderer: the frame a call comes from, what it listens for, and what its preload exposed. */
export interface Renderer {
  readonly contents: StandInWebContents
  readonly frame: StandInFrame
  readonly world: Record<string, unknown>
  readonly listeners: Map<string, Array<(event: IpcRendererEvent, ...args: unknown[]) => void>>
}

export class StandInWebContents
  extends EventEmitter
  implements
    Pick<
      WebContents,
      | 'id'
      | 'send'
      | 'loadFile'
      | 'loadURL'
      | 'setWindowOpenHandler'
      | 'executeJavaScript'
      | 'getURL'
      | 'getTitle'
      | 'setAudioMuted'
      | 'setWebRTCIPHandlingPolicy'
      | 'isDestroyed'
    >
{
  readonly id = nextId++
  readonly mainFrame = new StandInFrame()
  readonly renderer: Renderer = { contents: this, frame: this.mainFrame, world: {}, listeners: new Map() }
  windowOpenHandler: ((details: HandlerDetails) => WindowOpenHandlerResponse) | undefined
  audioMuted = false
  webRTCIPHandlingPolicy = 'default'
  /** Every document loaded, and how its connection went. */
  readonly loads: LoadedPage[] = []
  /** Every server redirect offered to `will-redirect`, and whether the app cancelled it. */
  readonly redirects: Array<{ to: string; cancelled: boolean }> = []
  #page: LoadedPage | undefined
  #destroyed = false

  constructor(
    readonly session: StandInSession,
    private readonly record: Recorder,
    private readonly onLoaded: () => void,
  ) {
    super()
  }

  /** Main to renderer: the renderer's `ipcRenderer.on(channel)` listeners hear it (structured-cloned). */
  send(channel: string, ...args: unknown[]): void {
    this.record(`webContents.send ${channel} ${JSON.stringify(args)}`)
    for (const listener of this.renderer.listeners.get(channel) ?? [])
      listener(standInEvent({}) as unknown as IpcRendererEvent, ...structuredClone(args))
  }

  async loadFile(filePath: string): Promise<void> {
    this.record(`webContents.loadFile ${filePath}`)
    this.mainFrame.url = pathToFileURL(filePath).href
    await new Promise((resolve) => setImmediate(resolve))
    this.emit('did-finish-load', standInEvent({}))
    this.onLoaded()
  }

  async loadURL(url: string): Promise<void> {
    this.record(`webContents.loadURL ${url}`)
    const page = await loadDocument(this.session, url, (to) => {
      const event = standInEvent({ url: to, isSameDocument: false, isMainFrame: true, frame: null })
      this.emit('will-redirect', event, to, false, true, this.mainFrame.processId, this.mainFrame.routingId)
      this.redirects.push({ to, cancelled: event.defaultPrevented })
      return event.defaultPrevented
    })
    this.#page = page
    this.loads.push(page)
    this.mainFrame.url = page.url
    this.emit('did-navigate', standInEvent({}), page.url, page.status, '')
    this.emit('did-finish-load', standInEvent({}))
  }

  /** The user (or a page) starts a navigation: `will-navigate`; true when the app let it happen. */
  navigate(url: string, frame: StandInFrame = this.mainFrame): boolean {
    const event = standInEvent({ url, isSameDocument: false, isMainFrame: frame === this.mainFrame, frame: null })
    this.emit('will-navigate', event, url, false, event.isMainFrame, frame.processId, frame.routingId)
    if (event.defaultPrevented) return false
    frame.url = url
    return true
  }

  setWindowOpenHandler(handler: (details: HandlerDetails) => WindowOpenHandlerResponse): void {
    this.windowOpenHandler = handler
  }

  /** The stand-in runs no page script: it answers the two reads of the loaded document the fetcher makes. */
  async executeJavaScript(code: string): Promise<unknown> {
    const html = this.#page?.html ?? ''
    if (code === 'document.documentElement.outerHTML') return html
    if (code === 'document.documentElement.outerHTML.length') return html.length
    throw new Error(`the Electron stand-in runs no page script: ${code.slice(0, 60)}`)
  }

  getURL(): string {
    return this.mainFrame.url
  }
  getTitle(): string {
    return /<title[^>]*>([^<]*)<\/title>/i.exec(this.#page?.html ?? '')?.[1]?.trim() ?? ''
  }
  setAudioMuted(muted: boolean): void {
    this.audioMuted = muted
  }
  setWebRTCIPHandlingPolicy(policy: Parameters<WebContents['setWebRTCIPHandlingPolicy']>[0]): void {
    this.webRTCIPHandlingPolicy = policy
  }
  isDestroyed(): boolean {
    return this.#destroyed
  }
  destroyContents(): void {
    this.#destroyed = true
  }
}

export class StandInBrowserWindow
  extends EventEmitter
  implements
    Pick<
      BrowserWindow,
      | 'id'
      | 'show'
      | 'hide'
      | 'focus'
      | 'isVisible'
      | 'isFocused'
      | 'isMinimized'
      | 'minimize'
      | 'restore'
      | 'close'
      | 'destroy'
      | 'isDestroyed'
      | 'loadFile'
    >
{
  readonly id = nextId++
  readonly webContents: StandInWebContents
  #visible = false
  #focused = false
  #minimized = false
  #destroyed = false
  #shownOnce = false

  constructor(
    readonly options: BrowserWindowConstructorOptions,
    private readonly owner: { windows: Set<StandInBrowserWindow>; app: StandInApp; session(partition?: string): StandInSession },
    private readonly record: Recorder,
  ) {
    super()
    owner.windows.add(this)
    this.webContents = new StandInWebContents(owner.session(options.webPreferences?.partition), record, () => {
      // The page is rendered: a window created hidden may now be shown without a flash.
      if (!this.#shownOnce && options.show === false) this.emit('ready-to-show', standInEvent({}))
      this.#shownOnce = true
    })
    if (options.show !== false) this.#visible = true
  }

  show(): void {
    this.record(`window(${this.id}).show`)
    this.#visible = true
    this.#minimized = false
    this.emit('show', standInEvent({}))
  }
  hide(): void {
    this.record(`window(${this.id}).hide`)
    this.#visible = false
    this.#focused = false
    this.emit('hide', standInEvent({}))
  }
  focus(): void {
    this.record(`window(${this.id}).focus`)
    this.#focused = true
    this.emit('focus', standInEvent({}))
  }
  minimize(): void {
    this.#minimized = true
    this.#focused = false
  }
  restore(): void {
    this.record(`window(${this.id}).restore`)
    this.#minimized = false
    this.#visible = true
  }
  isVisible(): boolean {
    return this.#visible
  }
  isFocused(): boolean {
    return this.#focused
  }
  isMinimized(): boolean {
    return this.#minimized
  }
  isDestroyed(): boolean {
    return this.#destroyed
  }

  /** As the user's close button: `close` (which may be prevented), else the window goes (`closed`). */
  close(): void {
    if (this.#destroyed) return
    const event = standInEvent({})
    this.emit('close', event)
    if (event.defaultPrevented) return
    this.destroy()
  }

  /** Gone at once: no `close`, but `closed` is emitted. */
  destroy(): void {
    if (this.#destroyed) return
    this.#destroyed = true
    this.#visible = false
    this.webContents.destroyContents()
    this.owner.windows.delete(this)
    this.emit('closed', standInEvent({}))
    if (this.owner.windows.size === 0) this.owner.app.lastWindowClosed()
  }

  loadFile(filePath: string): Promise<void> {
    return this.webContents.loadFile(filePath)
  }
}

export interface StandInMenu {
  readonly items: MenuItemConstructorOptions[]
}

export class StandInImage {
  constructor(readonly path: string) {}
  isEmpty(): boolean {
    return false
  }
}

export class StandInTray extends EventEmitter implements Pick<Tray, 'setToolTip' | 'destroy' | 'isDestroyed'> {
  toolTip = ''
  menu: StandInMenu | null = null
  #destroyed = false

  constructor(
    readonly image: StandInImage | string,
    private readonly record: Recorder,
  ) {
    super()
  }

  setToolTip(toolTip: string): void {
    this.toolTip = toolTip
  }
  setContextMenu(menu: StandInMenu | null): void {
    this.menu = menu
  }
  destroy(): void {
    this.record('tray.destroy')
    this.#destroyed = true
  }
  isDestroyed(): boolean {
    return this.#destroyed
  }

  /** Clicks the context menu's item with this label. */
  clickMenu(label: string): void {
    const item = this.menu?.items.find((i) => i.label === label)
    if (!item?.click) throw new Error(`the tray menu has no "${label}" to click`)
    ;(item.click as () => void)()
  }
}

export class StandInNotification extends EventEmitter implements Pick<Notification, 'show' | 'close' | 'title' | 'body' | 'silent'> {
  title: string
  body: string
  silent: boolean

  constructor(
    readonly options: NotificationConstructorOptions,
    private readonly shown: StandInNotification[],
  ) {
    super()
    this.title = options.title ?? ''
    this.body = options.body ?? ''
    this.silent = options.silent ?? false
  }

  show(): void {
    this.shown.push(this)
    this.emit('show', standInEvent({}))
  }
  close(): void {
    this.emit('close', standInEvent({}))
  }
  /** The user clicks it. */
  click(): void {
    this.emit('click', standInEvent({}))
  }
}

/** The IPC hub: `ipcMain.handle` in main, `ipcRenderer.invoke` from a renderer, arguments and answers cloned. */
export class StandInIpcMain extends EventEmitter implements Pick<IpcMain, 'handle' | 'removeHandler'> {
  readonly handlers = new Map<string, InvokeHandler>()

  constructor(private readonly record: Recorder) {
    super()
  }

  handle(channel: string, listener: InvokeHandler): void {
    if (this.handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`)
    this.record(`ipcMain.handle ${channel}`)
    this.handlers.set(channel, listener)
  }
  removeHandler(channel: string): void {
    this.record(`ipcMain.removeHandler ${channel}`)
    this.handlers.delete(channel)
  }

  /** A renderer's `invoke`: from this frame of these contents. Rejects as Electron does when nobody handles it. */
  async invokeFrom(from: { contents: StandInWebContents; frame: StandInFrame }, channel: string, ...args: unknown[]): Promise<unknown> {
    const handler = this.handlers.get(channel)
    if (!handler) throw new Error(`Error invoking remote method '${channel}': Error: No handler registered for '${channel}'`)
    const event = standInEvent({
      type: 'frame' as const,
      sender: from.contents,
      senderFrame: from.frame,
      frameId: from.frame.routingId,
      processId: from.frame.processId,
    })
    return structuredClone(await handler(event as unknown as IpcMainInvokeEvent, ...structuredClone(args)))
  }
}

export interface ElectronStandInOptions {
  appPath: string
  userData: string
  locks: InstanceLocks
  /** Whether the notification server exists (`Notification.isSupported()`). */
  notifications?: boolean
}

/** One Electron "process": its module (for `vi.doMock('electron', …)`), what it recorded, and its event triggers. */
export type ElectronStandIn = ReturnType<typeof createElectronStandIn>

export function createElectronStandIn(options: ElectronStandInOptions) {
  const calls: string[] = []
  const record: Recorder = (line) => void calls.push(line)
  const windows = new Set<StandInBrowserWindow>()
  const everyWindow: StandInBrowserWindow[] = []
  const sessions = new Map<string, StandInSession>()
  const session = (partition = '') => {
    let s = sessions.get(partition)
    if (!s) sessions.set(partition, (s = new StandInSession(partition || 'default', record)))
    return s
  }
  const app = new StandInApp({ ...options, windows }, record)
  const owner = { windows, app, session }
  const ipcMain = new StandInIpcMain(record)
  const powerMonitor = new EventEmitter()
  const trays: StandInTray[] = []
  const notifications: StandInNotification[] = []
  const errorBoxes: Array<{ title: string; content: string }> = []
  const opened: string[] = []
  /** The renderer whose preload runs next (its `contextBridge` and `ipcRenderer`). */
  let renderer: Renderer | undefined
  const currentRenderer = () => {
    if (!renderer) throw new Error('no renderer: call preloadInto(window) before importing the preload')
    return renderer
  }

  class BrowserWindowStandIn extends StandInBrowserWindow {
    constructor(windowOptions: BrowserWindowConstructorOptions = {}) {
      super(windowOptions, owner, record)
      everyWindow.push(this)
    }
  }
  class TrayStandIn extends StandInTray {
    constructor(image: StandInImage | string) {
      super(image, record)
      trays.push(this)
    }
  }
  class NotificationStandIn extends StandInNotification {
    constructor(notificationOptions: NotificationConstructorOptions = {}) {
      super(notificationOptions, notifications)
    }
    static isSupported(): boolean {
      return options.notifications ?? true
    }
  }

  const renderers = rendererModules(ipcMain, currentRenderer)
  const desktop = desktopModules(errorBoxes, opened)

  const module = {
    app,
    BrowserWindow: BrowserWindowStandIn,
    Tray: TrayStandIn,
    Menu: { buildFromTemplate: (template: MenuItemConstructorOptions[]): StandInMenu => ({ items: template }) },
    nativeImage: { createFromPath: (path: string) => new StandInImage(path) },
    Notification: NotificationStandIn satisfies Pick<typeof Notification, 'isSupported'>,
    ipcMain,
    powerMonitor,
    session: {
      fromPartition: (partition: string) => session(partition),
      get defaultSession() {
        return session()
      },
    },
    ...desktop,
    ...renderers,
  } satisfies Partial<Record<keyof typeof Electron, unknown>>

  return {
    module,
    calls,
    app,
    ipcMain,
    powerMonitor,
    trays,
    notifications,
    errorBoxes,
    opened,
    sessions,
    /** Every window the app made, in order (destroyed ones too). */
    windows: everyWindow,
    /** Runs the next preload import in this window's renderer (main frame). */
    preloadInto(window: StandInBrowserWindow): Renderer {
      renderer = window.webContents.renderer
      return renderer
    },
  }
}

/** The preload's side: `contextBridge` into the current renderer's world, `ipcRenderer` from its frame. */
function rendererModules(ipcMain: StandInIpcMain, currentRenderer: () => Renderer) {
  const contextBridge: Pick<ContextBridge, 'exposeInMainWorld'> = {
    exposeInMainWorld: (apiKey, api) => void (currentRenderer().world[apiKey] = api),
  }
  const ipcRenderer: Pick<IpcRenderer, 'invoke' | 'on'> = {
    invoke: (channel, ...args) => ipcMain.invokeFrom(currentRenderer(), channel, ...args),
    on(channel: string, listener: (event: IpcRendererEvent, ...args: unknown[]) => void) {
      const { listeners } = currentRenderer()
      listeners.set(channel, [...(listeners.get(channel) ?? []), listener])
      return this as IpcRenderer
    },
  }
  return { contextBridge, ipcRenderer }
}

/** The desktop: error boxes shown, paths and links opened (recorded). */
function desktopModules(errorBoxes: Array<{ title: string; content: string }>, opened: string[]) {
  const dialog: Pick<Dialog, 'showErrorBox'> = {
    showErrorBox: (title, content) => void errorBoxes.push({ title, content }),
  }
  const shell: Pick<Shell, 'openPath' | 'openExternal'> = {
    openPath: async (path) => (opened.push(path), ''),
    openExternal: async (url) => void opened.push(url),
  }
  return { dialog, shell }
}

function deferred<T>(): { promise: Promise<T>; resolve(value: T): void } {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

export type { IpcMainInvokeEvent, InvokeHandler, ContextBridge, Dialog, IpcRenderer, Shell }
