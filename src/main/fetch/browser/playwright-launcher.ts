/**
 * The headless shell's browser: system Chromium driven by playwright-core, with a persistent profile under
 * the data directory (a solved challenge's cookies last across passes and restarts) and one shared tab.
 */
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { BrowserContext, Page } from 'playwright-core'
import type { PageRequest } from '../../sites/site'
import { siteDate } from '../site-clock'
import { USER_AGENT } from '../user-agent'
import { chromiumArgs } from './chromium-flags'
import { startPinGate, type PinGate } from './pin-gate'
import { BodyTooLarge, BrowserGone, NavigationBlocked, onPin, type BrowserLauncher, type BrowserSession, type Snapshot } from './session'

/** `--chromium PATH`, else `$CHROMIUM_PATH`, else /usr/bin/chromium where it exists, else none. */
export function resolveChromium(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (flag) return flag
  if (env.CHROMIUM_PATH) return env.CHROMIUM_PATH
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined
}

export { chromiumArgs }

export interface PlaywrightLauncherOptions {
  executablePath: string
  /** The persistent profile, e.g. `<data>/browser-profile`. */
  userDataDir: string
}

export function playwrightLauncher(options: PlaywrightLauncherOptions): BrowserLauncher {
  return {
    async launch(signal) {
      const gate = await startPinGate()
      try {
        const starting = launchChromium(options, gate, signal)
        const context = await untilAborted(starting, signal)
        if (!context) {
          // Abandoned mid-start: the browser is closed as soon as it is up. Should the app exit first,
          // playwright-core's own exit hook kills the starting browser's process group.
          void starting.then((late) => late.close()).catch(() => undefined)
          throw new Error('the browser was stopped while it was starting')
        }
        return await playwrightSession(context, gate)
      } catch (error) {
        await gate.close()
        throw error
      }
    },
  }
}

async function launchChromium(options: PlaywrightLauncherOptions, gate: PinGate, signal?: AbortSignal): Promise<BrowserContext> {
  const userAgent = await chromeUserAgent(options.executablePath, signal)
  lockDownPreferences(options.userDataDir)
  // Loaded on the first launch, not at start: playwright-core alone takes about a second to import, and a
  // household with no browser Site (or a sleeping one) never needs it.
  const { chromium } = await import('playwright-core')
  return chromium.launchPersistentContext(options.userDataDir, {
    executablePath: options.executablePath,
    headless: true,
    args: chromiumArgs(process.getuid?.() === 0),
    // Every connection of every page and worker goes through the pin gate (docs/adr/0030); playwright-core
    // also proxies loopback (`<-loopback>`), so a page cannot reach this app's own endpoints either.
    proxy: { server: gate.proxyServer },
    // One User-Agent per session, naming the app: changing it mid-session causes challenge loops.
    userAgent,
    viewport: { width: 1280, height: 900 },
    javaScriptEnabled: true,
    acceptDownloads: false,
    serviceWorkers: 'block',
    // The shells own the signals (docs/adr/0031): playwright-core's handlers would close the browser under
    // a launch in progress and leave the app waiting on it.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
    timeout: 60_000,
    // Chromium's own config and crash database stay inside the profile, not in the user's home.
    env: {
      ...childEnvironment(process.env),
      XDG_CONFIG_HOME: join(options.userDataDir, 'xdg-config'),
      XDG_CACHE_HOME: join(options.userDataDir, 'xdg-cache'),
    },
  })
}

/**
 * The environment a child process of the app gets: the app's own variables (`MB_…`, the admin token among
 * them) left out. The Chromium the browser fetcher starts renders hostile Sites; a renderer exploit must not
 * find the owner's admin token in its process's environment.
 */
export function childEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/^MB_/i.test(name)))
}

/**
 * WebRTC's own sockets bypass any proxy; Chromium no longer takes a flag for it, only the profile preference:
 * UDP only through the proxy (which carries none), so a page's peer connection reaches nobody.
 */
function lockDownPreferences(userDataDir: string): void {
  const file = join(userDataDir, 'Default', 'Preferences')
  let preferences: Record<string, unknown> = {}
  try {
    preferences = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  } catch {
    // No profile yet (or one Chromium would reset anyway): start from nothing.
  }
  preferences.webrtc = {
    ...(typeof preferences.webrtc === 'object' ? preferences.webrtc : {}),
    ip_handling_policy: 'disable_non_proxied_udp',
    multiple_routes_enabled: false,
    nonproxied_udp_enabled: false,
  }
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, JSON.stringify(preferences))
}

/** The work's value, or undefined as soon as `signal` aborts (the work itself goes on). */
function untilAborted<T>(work: Promise<T>, signal?: AbortSignal): Promise<T | undefined> {
  if (!signal) return work
  if (signal.aborted) return Promise.resolve(undefined)
  return new Promise<T | undefined>((resolve, reject) => {
    const abort = () => resolve(undefined)
    signal.addEventListener('abort', abort, { once: true })
    work.then(
      (value) => {
        signal.removeEventListener('abort', abort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener('abort', abort)
        reject(error instanceof Error ? error : new Error(String(error)))
      },
    )
  })
}

async function chromeUserAgent(executablePath: string, signal?: AbortSignal): Promise<string> {
  const version = await new Promise<string>((resolve) =>
    execFile(
      executablePath,
      ['--version'],
      { timeout: 5_000, env: childEnvironment(process.env), ...(signal ? { signal } : {}) },
      (_error, stdout) => resolve(/(\d+\.\d+\.\d+\.\d+)/.exec(stdout)?.[1] ?? '120.0.0.0'),
    ),
  )
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${version} Safari/537.36 ${USER_AGENT.split(' ')[0]}`
}

interface PausedRequest {
  requestId: string
  frameId?: string
  request: { url: string }
  resourceType: string
  responseStatusCode?: number
  responseHeaders?: Array<{ name: string; value: string }>
}

/** How long a closing browser may take before its processes are killed. */
const CLOSE_GRACE_MS = 3_000

/** What the tab's listeners and its session share: what the tab may load, what it blocked, what its document said. */
interface TabState {
  /** The browser closed, crashed or disconnected. */
  gone: boolean
  /** The host pin of the page being read; nothing before the first `goto`. */
  allowed: (url: URL) => boolean
  /** The off-pin URL the tab's own document was sent to, when one was blocked. */
  blocked: string | null
  /** Status of the last main-document response (0 when unknown). */
  documentStatus: number
  /** That response's `Date` (plus `Age`) as Unix ms. */
  documentDate: number | undefined
  /** The tab's main frame in the DevTools Protocol, to tell its document from a frame's. */
  mainFrameId: string
}

/**
 * One tab, its every request and redirect hop checked against the host pin through the Chrome DevTools
 * Protocol's Fetch domain (Playwright's `page.route` sees only the first request of a redirect chain, so a
 * redirect off the pin would already have been requested), and behind that every connection of every page
 * and worker through the pin gate. Nothing off the pin is requested — no document, frame, script, XHR,
 * WebSocket or beacon — images, media and fonts are never loaded at all, and any other page is closed.
 */
async function playwrightSession(context: BrowserContext, gate: PinGate): Promise<BrowserSession> {
  const state: TabState = { gone: false, allowed: () => false, blocked: null, documentStatus: 0, documentDate: undefined, mainFrameId: '' }
  gate.pin = (url) => state.allowed(url)
  context.on('close', () => {
    state.gone = true
  })
  const tab = context.pages()[0] ?? (await context.newPage())
  watchTab(context, tab, state)
  await pinEveryRequest(context, tab, state)
  const pid = await browserPid(context)
  const guard = guardOf(tab, state)

  return {
    get gone() {
      return state.gone
    },
    goto(url, isPinned, timeoutMs) {
      state.allowed = isPinned
      state.blocked = null
      state.documentStatus = 0
      state.documentDate = undefined
      return guard((p) => gotoPinned(p, url, timeoutMs, state))
    },
    snapshot: (maxBytes) => guard((p) => snapshotOf(p, maxBytes, state)),
    fetchInPage: (request: PageRequest, pinned, timeoutMs, maxBytes) =>
      guard(async (p) => {
        state.allowed = pinned
        if (!onPin(state.allowed, request.url)) throw NavigationBlocked.request(request.url)
        return fetchFromPage(p, request, timeoutMs, maxBytes)
      }),
    blank: (timeoutMs) =>
      guard(async (p) => {
        state.allowed = () => false
        state.blocked = null
        await Promise.all(context.pages().map(async (page) => (page === p ? undefined : page.close())))
        await p.goto('about:blank', { timeout: timeoutMs })
        // A leftover worker or socket of the previous Site loses its connections with the old pin.
        gate.dropConnections()
      }),
    async close() {
      state.gone = true
      state.allowed = () => false
      gate.dropConnections()
      await closeBrowser(context, pid)
      await gate.close()
    },
  }
}

/** Keeps the tab the only page, notes when it crashes, and records its main document's status and date. */
function watchTab(context: BrowserContext, tab: Page, state: TabState): void {
  // The fetcher reads one tab: a popup, a `target=_blank` link or a page opened any other way is closed at
  // once (the gate has already refused whatever it asked for off the pin).
  const closeStray = (page: Page) => {
    if (page !== tab) void page.close().catch(() => undefined)
  }
  context.on('page', closeStray)
  context.pages().forEach(closeStray)
  tab.on('crash', () => {
    state.gone = true
  })
  tab.on('response', (response) => {
    if (response.request().isNavigationRequest() && response.frame() === tab.mainFrame()) {
      state.documentStatus = response.status()
      const headers = response.headers()
      state.documentDate = siteDate(headers['date'], headers['age'])
    }
  })
}

/** Pauses every request of the tab (and every document response, for its redirect) to let only the pin's through. */
async function pinEveryRequest(context: BrowserContext, tab: Page, state: TabState): Promise<void> {
  const cdp = await context.newCDPSession(tab)
  cdp.on('Fetch.requestPaused', (event: PausedRequest) => {
    void decide(event, state)
      .then(
        (verdict) =>
          verdict === 'continue'
            ? cdp.send('Fetch.continueRequest', { requestId: event.requestId })
            : cdp.send('Fetch.failRequest', { requestId: event.requestId, errorReason: 'BlockedByClient' }),
        () => undefined,
      )
      .catch(() => undefined)
  })
  await cdp.send('Fetch.enable', {
    patterns: [
      { urlPattern: '*', requestStage: 'Request' },
      { urlPattern: '*', resourceType: 'Document', requestStage: 'Response' },
    ],
  })
  state.mainFrameId = ((await cdp.send('Page.getFrameTree')) as { frameTree: { frame: { id: string } } }).frameTree.frame.id
}

/**
 * Whether a paused request (or the redirect its response asks for) may go on; a blocked document is noted.
 * Async so that a throw is a rejection the listener swallows, never an exception out of it.
 */
async function decide(event: PausedRequest, state: TabState): Promise<'continue' | 'block'> {
  if (event.resourceType === 'Image' || event.resourceType === 'Media' || event.resourceType === 'Font') return 'block'
  const location = event.responseHeaders?.find((h) => h.name.toLowerCase() === 'location')?.value
  const target = event.responseStatusCode && location ? resolveLocation(location, event.request.url) : event.request.url
  if (onPin(state.allowed, target)) return 'continue'
  // Only the tab's own document makes the fetch fail; an off-pin script or frame is just not loaded.
  if (event.resourceType === 'Document' && (!event.frameId || event.frameId === state.mainFrameId)) state.blocked = target
  return 'block'
}

function resolveLocation(location: string, base: string): string {
  try {
    return new URL(location, base).href
  } catch {
    return 'invalid:'
  }
}

/** Runs work on the tab; a browser found closed, disconnected or crashed throws `BrowserGone` and stays gone. */
function guardOf(tab: Page, state: TabState) {
  return async <T>(work: (p: Page) => Promise<T>): Promise<T> => {
    if (state.gone) throw new BrowserGone('the browser is gone')
    try {
      return await work(tab)
    } catch (error) {
      if (
        state.gone ||
        /Target (page, context or browser )?(has been )?closed|Browser has been closed|browser has disconnected|Page crashed/i.test(
          (error as Error).message,
        )
      ) {
        state.gone = true
        throw new BrowserGone((error as Error).message.split('\n')[0])
      }
      throw error
    }
  }
}

/** Loads a URL in the tab; a navigation the pin blocked throws `NavigationBlocked` once its error page settled. */
async function gotoPinned(p: Page, url: string, timeoutMs: number, state: TabState): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await p.goto(url, { waitUntil: 'domcontentloaded', timeout: timeoutMs })
      break
    } catch (error) {
      if (state.blocked) break
      // The error page of an earlier blocked navigation can still be arriving: go again once.
      if (attempt === 0 && /interrupted by another navigation/.test((error as Error).message)) continue
      throw error
    }
  }
  if (state.blocked) {
    // Let the error page settle so it does not interrupt the next navigation.
    await p.waitForURL(/^chrome-error:/, { timeout: 2_000 }).catch(() => undefined)
    throw NavigationBlocked.navigation(state.blocked)
  }
}

async function snapshotOf(p: Page, maxBytes: number, state: TabState): Promise<Snapshot> {
  if (state.blocked) throw NavigationBlocked.navigation(state.blocked)
  const size = (await p.evaluate('document.documentElement.outerHTML.length')) as number
  if (size > maxBytes) throw new BodyTooLarge(maxBytes)
  const [title, html] = [await p.title(), await p.content()]
  const dated = state.documentDate === undefined ? {} : { date: state.documentDate }
  return { url: p.url(), title, html, status: state.documentStatus, ...dated }
}

/** A request made by the page itself (its origin, its cookies), redirects refused, an answer over the cap thrown. */
async function fetchFromPage(
  p: Page,
  request: PageRequest,
  timeoutMs: number,
  maxBytes: number,
): Promise<{ status: number; contentType: string; body: string; date?: number }> {
  const answer = await p.evaluate(
    async ({ url, method, headers, body, timeoutMs, maxBytes }) => {
      const response = await fetch(url, {
        method,
        headers,
        body,
        credentials: 'include',
        redirect: 'error',
        signal: AbortSignal.timeout(timeoutMs),
      })
      const text = await response.text()
      if (text.length > maxBytes) return null
      return {
        status: response.status,
        contentType: response.headers.get('content-type') ?? '',
        body: text,
        date: response.headers.get('date'),
        age: response.headers.get('age'),
      }
    },
    { url: request.url, method: request.method, headers: request.headers ?? {}, body: request.body ?? null, timeoutMs, maxBytes },
  )
  if (!answer) throw new BodyTooLarge(maxBytes)
  const { date, age, ...rest } = answer
  const at = siteDate(date, age)
  return at === undefined ? rest : { ...rest, date: at }
}

/** Closes the browser; one that does not answer within the grace period (wedged, or stopped) is killed. */
async function closeBrowser(context: BrowserContext, pid: number | undefined): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const closed = context.close().then(
    () => true,
    () => true,
  )
  const late = new Promise<false>((r) => (timer = setTimeout(() => r(false), CLOSE_GRACE_MS)))
  if (!(await Promise.race([closed, late])) && pid) {
    // A browser that does not answer (wedged, or stopped) is killed with all its processes.
    killGroup(pid)
    await Promise.race([closed, new Promise((r) => setTimeout(r, 1_000))])
  }
  clearTimeout(timer)
}

/** The browser's main process id, from the browser itself (undefined when it cannot say). */
async function browserPid(context: BrowserContext): Promise<number | undefined> {
  try {
    const session = await context.browser()?.newBrowserCDPSession()
    if (!session) return undefined
    const info = (await session.send('SystemInfo.getProcessInfo')) as { processInfo: Array<{ type: string; id: number }> }
    await session.detach().catch(() => undefined)
    return info.processInfo.find((p) => p.type === 'browser')?.id
  } catch {
    return undefined
  }
}

/** SIGKILL to the browser's process group (playwright-core starts it as a group leader), else to it alone. */
function killGroup(pid: number): void {
  try {
    process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL')
  } catch {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
}
