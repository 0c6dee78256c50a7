/**
 * The Electron shell's browser: a hidden BrowserWindow (never shown, no preload, sandboxed, images off) in a
 * persistent session partition of its own, so a solved challenge's cookies last across passes and restarts.
 * Thin glue: challenge detection, waiting, serialising and classification live in the shared, tested core
 * (`fetch/browser/browser-fetcher.ts`). The host pin is kept as in the headless shell's Chromium
 * (docs/adr/0030): every connection through the pin gate, every request of the partition checked, no other
 * window, and the tab blanked before it moves to another Site.
 */
import { BrowserWindow, session as electronSession, type WebContents } from 'electron'
import { USER_AGENT } from '../fetch/user-agent'
import {
  BodyTooLarge,
  BrowserGone,
  NavigationBlocked,
  onPin,
  type BrowserLauncher,
  type BrowserSession,
  type Snapshot,
} from '../fetch/browser/session'
import { startPinGate, type PinGate } from '../fetch/browser/pin-gate'
import type { PageRequest } from '../sites/site'

export const FETCHER_PARTITION = 'persist:manga-bookmark-fetcher'

export function electronLauncher(): BrowserLauncher {
  return {
    async launch(signal) {
      const partition = electronSession.fromPartition(FETCHER_PARTITION)
      const gate = await startPinGate()
      // Loopback too (`<-loopback>`): a page must not reach this app's own endpoints.
      await partition.setProxy({ mode: 'fixed_servers', proxyRules: gate.proxyServer, proxyBypassRules: '<-loopback>' })
      if (signal?.aborted) {
        await gate.close()
        throw new Error('the browser was stopped while it was starting')
      }
      // The Sites' pages run in a window nobody sees: they get no permission (camera, notifications,
      // clipboard…) and no download.
      partition.setPermissionRequestHandler((_contents, _permission, callback) => callback(false))
      partition.setPermissionCheckHandler(() => false)
      partition.on('will-download', (event) => event.preventDefault())
      // One User-Agent per session, naming the app: changing it mid-session causes challenge loops.
      partition.setUserAgent(`${partition.getUserAgent().replace(/ Electron\/\S+/, '')} ${USER_AGENT.split(' ')[0]}`)
      const window = new BrowserWindow({
        show: false,
        width: 1280,
        height: 900,
        webPreferences: {
          partition: FETCHER_PARTITION,
          sandbox: true,
          contextIsolation: true,
          nodeIntegration: false,
          images: false,
          webgl: false,
          spellcheck: false,
          backgroundThrottling: false,
        },
      })
      window.webContents.setAudioMuted(true)
      // WebRTC only through the proxy, which it cannot use: no UDP to anyone.
      window.webContents.setWebRTCIPHandlingPolicy('disable_non_proxied_udp')
      return hiddenWindowSession(window, gate)
    },
  }
}

/** What the window's listeners and its session share: what it may load, what it blocked, what its document said. */
interface WindowState {
  /** The window was closed or its renderer went away. */
  gone: boolean
  /** The host pin of the page being read; nothing before the first `goto`. */
  allowed: (url: URL) => boolean
  /** The off-pin URL the window's own document was sent to, when one was blocked. */
  blocked: string | null
  /** Status of the last main-document response (0 when unknown). */
  documentStatus: number
}

function hiddenWindowSession(window: BrowserWindow, gate: PinGate): BrowserSession {
  const contents = window.webContents
  const state: WindowState = { gone: false, allowed: () => false, blocked: null, documentStatus: 0 }
  gate.pin = (url) => state.allowed(url)
  watchWindow(window, state)
  pinWindow(contents, state)
  const guard = guardOf(window, state)

  return {
    get gone() {
      return state.gone || window.isDestroyed()
    },
    goto(url, isPinned, timeoutMs) {
      state.allowed = isPinned
      state.blocked = null
      state.documentStatus = 0
      return guard(async () => {
        await withTimeout(
          contents.loadURL(url).catch((error: unknown) => {
            if (!state.blocked) throw error
          }),
          timeoutMs,
        )
        if (state.blocked) throw NavigationBlocked.navigation(state.blocked)
      })
    },
    snapshot: (maxBytes) => guard(() => snapshotOf(contents, maxBytes, state)),
    fetchInPage: (request: PageRequest, pinned, timeoutMs, maxBytes) =>
      guard(async () => {
        state.allowed = pinned
        if (!onPin(state.allowed, request.url)) throw NavigationBlocked.request(request.url)
        return fetchFromPage(contents, request, timeoutMs, maxBytes)
      }),
    blank: (timeoutMs) =>
      guard(async () => {
        state.allowed = () => false
        state.blocked = null
        await withTimeout(contents.loadURL('about:blank'), timeoutMs)
        gate.dropConnections()
        await contents.session.closeAllConnections()
      }),
    async close() {
      state.gone = true
      state.allowed = () => false
      if (!window.isDestroyed()) window.destroy()
      await gate.close()
    },
  }
}

/** Notes the window gone when it closes or its renderer dies, and refuses every other window it would open. */
function watchWindow(window: BrowserWindow, state: WindowState): void {
  const contents = window.webContents
  contents.on('render-process-gone', () => {
    state.gone = true
  })
  window.on('closed', () => {
    state.gone = true
  })
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
}

/** Holds the window's navigations, redirects and every request of its partition to the pin. */
function pinWindow(contents: WebContents, state: WindowState): void {
  contents.on('will-navigate', (event) => {
    if (!onPin(state.allowed, event.url)) {
      state.blocked = event.url
      event.preventDefault()
    }
  })
  // A server redirect is checked before it is followed.
  contents.on('will-redirect', (event) => {
    if (event.isMainFrame && !onPin(state.allowed, event.url)) {
      state.blocked = event.url
      event.preventDefault()
    }
  })
  contents.on('did-navigate', (_event, _url, httpResponseCode) => {
    state.documentStatus = httpResponseCode
  })
  // Nothing off the pin is requested — no document, frame, script, XHR, WebSocket or beacon, from the window or
  // any of its workers (the handler sees the whole partition) — and no image, media or font.
  contents.session.webRequest.onBeforeRequest((details, callback) => {
    const heavy = details.resourceType === 'image' || details.resourceType === 'media' || details.resourceType === 'font'
    const offPin = !/^(data|blob):/.test(details.url) && !onPin(state.allowed, details.url)
    if (offPin && details.resourceType === 'mainFrame') state.blocked = details.url
    callback({ cancel: heavy || offPin })
  })
}

/** Runs work on the window; a window found gone throws `BrowserGone`. */
function guardOf(window: BrowserWindow, state: WindowState) {
  return async <T>(work: () => Promise<T>): Promise<T> => {
    if (state.gone || window.isDestroyed()) throw new BrowserGone('the browser window is gone')
    try {
      return await work()
    } catch (error) {
      if (state.gone || window.isDestroyed()) throw new BrowserGone((error as Error).message)
      throw error
    }
  }
}

async function snapshotOf(contents: WebContents, maxBytes: number, state: WindowState): Promise<Snapshot> {
  if (state.blocked) throw NavigationBlocked.navigation(state.blocked)
  const size = (await contents.executeJavaScript('document.documentElement.outerHTML.length', true)) as number
  if (size > maxBytes) throw new BodyTooLarge(maxBytes)
  const html = (await contents.executeJavaScript('document.documentElement.outerHTML', true)) as string
  return { url: contents.getURL(), title: contents.getTitle(), html, status: state.documentStatus }
}

/** A request made by the page itself (its origin, its cookies), redirects refused, an answer over the cap thrown. */
async function fetchFromPage(
  contents: WebContents,
  request: PageRequest,
  timeoutMs: number,
  maxBytes: number,
): Promise<{ status: number; contentType: string; body: string }> {
  const args = JSON.stringify({
    url: request.url,
    method: request.method,
    headers: request.headers ?? {},
    body: request.body ?? null,
    timeoutMs,
    maxBytes,
  })
  const answer = (await contents.executeJavaScript(
    `(async (a) => { const r = await fetch(a.url, { method: a.method, headers: a.headers, body: a.body, credentials: 'include', redirect: 'error', signal: AbortSignal.timeout(a.timeoutMs) });
             const body = await r.text(); if (body.length > a.maxBytes) return null;
             return { status: r.status, contentType: r.headers.get('content-type') || '', body } })(${args})`,
    true,
  )) as { status: number; contentType: string; body: string } | null
  if (!answer) throw new BodyTooLarge(maxBytes)
  return answer
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`navigation timed out after ${ms} ms`)), ms)
    work.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      },
    )
  })
}
