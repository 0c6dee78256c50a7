/**
 * The Electron shell's browser: a hidden BrowserWindow (never shown, no preload, sandboxed, images off) in a
 * persistent session partition of its own, so a solved challenge's cookies last across passes and restarts.
 * Thin glue: challenge detection, waiting, serialising and classification live in the shared, tested core
 * (`fetch/browser/browser-fetcher.ts`). The host pin is kept as in the headless shell's Chromium
 * (docs/adr/0030): every connection through the pin gate, every request of the partition checked, no other
 * window, and the tab blanked before it moves to another Site.
 */
import { BrowserWindow, session as electronSession } from 'electron'
import { USER_AGENT } from '../fetch/user-agent'
import {
  BodyTooLarge,
  BrowserGone,
  NavigationBlocked,
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

function hiddenWindowSession(window: BrowserWindow, gate: PinGate): BrowserSession {
  const contents = window.webContents
  let gone = false
  let allowed: (url: URL) => boolean = () => false
  let blocked: string | null = null
  let documentStatus = 0
  gate.pin = (url) => allowed(url)
  const isAllowed = (raw: string) => {
    try {
      // A WebSocket is pinned like the page it talks for: ws→http, wss→https.
      return allowed(new URL(raw.replace(/^ws(s?):/i, 'http$1:')))
    } catch {
      return false
    }
  }

  contents.on('render-process-gone', () => {
    gone = true
  })
  window.on('closed', () => {
    gone = true
  })
  contents.setWindowOpenHandler(() => ({ action: 'deny' }))
  contents.on('will-navigate', (event) => {
    if (!isAllowed(event.url)) {
      blocked = event.url
      event.preventDefault()
    }
  })
  // A server redirect is checked before it is followed.
  contents.on('will-redirect', (event) => {
    if (event.isMainFrame && !isAllowed(event.url)) {
      blocked = event.url
      event.preventDefault()
    }
  })
  contents.on('did-navigate', (_event, _url, httpResponseCode) => {
    documentStatus = httpResponseCode
  })
  // Nothing off the pin is requested — no document, frame, script, XHR, WebSocket or beacon, from the window or
  // any of its workers (the handler sees the whole partition) — and no image, media or font.
  contents.session.webRequest.onBeforeRequest((details, callback) => {
    const heavy = details.resourceType === 'image' || details.resourceType === 'media' || details.resourceType === 'font'
    const offPin = !/^(data|blob):/.test(details.url) && !isAllowed(details.url)
    if (offPin && details.resourceType === 'mainFrame') blocked = details.url
    callback({ cancel: heavy || offPin })
  })

  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    if (gone || window.isDestroyed()) throw new BrowserGone('the browser window is gone')
    try {
      return await work()
    } catch (error) {
      if (gone || window.isDestroyed()) throw new BrowserGone((error as Error).message)
      throw error
    }
  }
  const blockedError = () => new NavigationBlocked(`navigation off the host pin blocked: ${hostOf(blocked!)}`)

  return {
    get gone() {
      return gone || window.isDestroyed()
    },
    goto(url, isPinned, timeoutMs) {
      allowed = isPinned
      blocked = null
      documentStatus = 0
      return guard(async () => {
        await withTimeout(
          contents.loadURL(url).catch((error: unknown) => {
            if (!blocked) throw error
          }),
          timeoutMs,
        )
        if (blocked) throw blockedError()
      })
    },
    snapshot: (maxBytes) =>
      guard(async (): Promise<Snapshot> => {
        if (blocked) throw blockedError()
        const size = (await contents.executeJavaScript('document.documentElement.outerHTML.length', true)) as number
        if (size > maxBytes) throw new BodyTooLarge(maxBytes)
        const html = (await contents.executeJavaScript('document.documentElement.outerHTML', true)) as string
        return { url: contents.getURL(), title: contents.getTitle(), html, status: documentStatus }
      }),
    fetchInPage: (request: PageRequest, pinned, timeoutMs, maxBytes) =>
      guard(async () => {
        allowed = pinned
        if (!isAllowed(request.url)) throw new NavigationBlocked(`request off the host pin blocked: ${hostOf(request.url)}`)
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
      }),
    blank: (timeoutMs) =>
      guard(async () => {
        allowed = () => false
        blocked = null
        await withTimeout(contents.loadURL('about:blank'), timeoutMs)
        gate.dropConnections()
        await contents.session.closeAllConnections()
      }),
    async close() {
      gone = true
      allowed = () => false
      if (!window.isDestroyed()) window.destroy()
      await gate.close()
    },
  }
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

function hostOf(raw: string): string {
  try {
    return new URL(raw).host
  } catch {
    return raw
  }
}
