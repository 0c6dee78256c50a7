/**
 * The Electron shell's browser: a hidden BrowserWindow (never shown, no preload, sandboxed, images off) in a
 * persistent session partition of its own, so a solved challenge's cookies last across passes and restarts.
 * Thin glue: challenge detection, waiting, serialising and classification live in the shared, tested core
 * (`fetch/browser/browser-fetcher.ts`).
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
import type { PageRequest } from '../sites/site'

export const FETCHER_PARTITION = 'persist:manga-bookmark-fetcher'

export function electronLauncher(): BrowserLauncher {
  return {
    async launch() {
      const partition = electronSession.fromPartition(FETCHER_PARTITION)
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
      return hiddenWindowSession(window)
    },
  }
}

function hiddenWindowSession(window: BrowserWindow): BrowserSession {
  const contents = window.webContents
  let gone = false
  let allowed: (url: URL) => boolean = () => false
  let blocked: string | null = null
  let documentStatus = 0
  const isAllowed = (raw: string) => {
    try {
      return allowed(new URL(raw))
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
  // Nothing off the pin is requested — no document, frame, script or XHR — and no image, media or font.
  contents.session.webRequest.onBeforeRequest((details, callback) => {
    const heavy = details.resourceType === 'image' || details.resourceType === 'media' || details.resourceType === 'font'
    const offPin = !details.url.startsWith('data:') && !isAllowed(details.url)
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
    async close() {
      gone = true
      if (!window.isDestroyed()) window.destroy()
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
