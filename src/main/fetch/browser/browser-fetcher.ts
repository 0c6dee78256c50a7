/**
 * The browser fetcher's core, shared by both shells (SPEC §4): one shared tab serialised across every
 * browser Lane; a challenge is waited out up to a timeout, then `refused`; a browser that dies is
 * `unreachable`; the browser sleeps (closes, returning its memory) after an idle period and is started
 * again by the next fetch.
 */
import type { Clock } from '../../clock'
import type { Log } from '../../log'
import { isPinned, type PageRequest, type Site } from '../../sites/site'
import { isChallengePage } from '../challenge'
import type { BrowserFetcher, FetchResult } from '../fetcher'
import { BrowserGone, NavigationBlocked, type BrowserLauncher, type BrowserSession } from './session'

export interface BrowserFetcherOptions {
  launcher: BrowserLauncher
  clock: Clock
  log: Log
  /** How long a challenge may take to clear before the check is refused. */
  challengeTimeoutMs?: number
  navigationTimeoutMs?: number
  /** The browser closes after this long without a fetch. */
  idleMs?: number
  /** How often a challenge page is looked at again. */
  pollMs?: number
}

export const BROWSER_DEFAULTS = { challengeTimeoutMs: 30_000, navigationTimeoutMs: 30_000, idleMs: 120_000, pollMs: 500 } as const

export function createBrowserFetcher(options: BrowserFetcherOptions): BrowserFetcher & { readonly launches: number } {
  const { clock, log } = options
  const challengeTimeoutMs = options.challengeTimeoutMs ?? BROWSER_DEFAULTS.challengeTimeoutMs
  const navigationTimeoutMs = options.navigationTimeoutMs ?? BROWSER_DEFAULTS.navigationTimeoutMs
  const idleMs = options.idleMs ?? BROWSER_DEFAULTS.idleMs
  const pollMs = options.pollMs ?? BROWSER_DEFAULTS.pollMs

  let session: BrowserSession | null = null
  let launches = 0
  // The one shared tab: fetches run one after another, whichever Lane asked.
  let queue: Promise<unknown> = Promise.resolve()
  let idleTimer: AbortController | null = null
  let closed = false

  const awake = () => session !== null && !session.gone

  async function ensureSession(): Promise<BrowserSession> {
    if (session && !session.gone) return session
    if (session?.gone) await session.close().catch(() => undefined)
    session = null
    try {
      session = await options.launcher.launch()
      launches++
      log.info({ launches }, 'browser: started')
      return session
    } catch (error) {
      throw new BrowserGone(`the browser could not start: ${(error as Error).message}`)
    }
  }

  function scheduleSleep(): void {
    idleTimer?.abort()
    const timer = new AbortController()
    idleTimer = timer
    void clock.sleep(idleMs, timer.signal).then(() => {
      if (timer.signal.aborted) return
      queue = queue.then(async () => {
        if (timer.signal.aborted || !session) return
        log.info('browser: idle; closing it (asleep)')
        await closeSession()
      })
    })
  }

  async function closeSession(): Promise<void> {
    const current = session
    session = null
    await current?.close().catch((error: unknown) => log.warn({ err: error }, 'browser: close failed'))
  }

  async function fetchOnce(request: PageRequest, site: Site, signal?: AbortSignal): Promise<FetchResult> {
    if (closed) return { kind: 'unreachable', reason: 'the browser fetcher is stopped' }
    if (signal?.aborted) return { kind: 'error', reason: 'aborted' }
    const allowed = (url: URL) => isPinned(site, url)
    try {
      const tab = await ensureSession()
      if (request.method === 'POST') {
        const answer = await tab.fetchInPage(request, navigationTimeoutMs)
        return { kind: 'page', page: { url: request.url, status: answer.status, contentType: answer.contentType, body: answer.body } }
      }
      await tab.goto(request.url, allowed, navigationTimeoutMs)
      const deadline = clock.now() + challengeTimeoutMs
      for (;;) {
        const shot = await snapshotSettled(tab)
        if (!isChallengePage(shot.title, shot.html)) {
          return { kind: 'page', page: { url: shot.url, status: shot.status || 200, contentType: 'text/html', body: shot.html } }
        }
        if (clock.now() >= deadline) return { kind: 'refused', reason: `challenge "${shot.title}" did not clear in ${challengeTimeoutMs} ms` }
        if (signal?.aborted) return { kind: 'error', reason: 'aborted' }
        await clock.sleep(pollMs, signal)
      }
    } catch (error) {
      if (error instanceof BrowserGone || session?.gone) {
        await closeSession()
        return { kind: 'unreachable', reason: error instanceof Error ? error.message : String(error) }
      }
      if (error instanceof NavigationBlocked) return { kind: 'error', reason: error.message }
      return { kind: 'error', reason: `browser: ${(error as Error).message}` }
    } finally {
      if (!closed) scheduleSleep()
    }
  }

  return {
    kind: 'browser',
    get launches() {
      return launches
    },
    isAwake: awake,
    fetch(request, site, signal) {
      const run = queue.then(() => fetchOnce(request, site, signal))
      queue = run.catch(() => undefined)
      return run
    },
    async close() {
      closed = true
      idleTimer?.abort()
      await queue.catch(() => undefined)
      await closeSession()
    },
  }
}

/** A snapshot, retried while the page is between documents (a challenge reloading itself). */
async function snapshotSettled(tab: BrowserSession): Promise<{ url: string; title: string; html: string; status: number }> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await tab.snapshot()
    } catch (error) {
      if (error instanceof BrowserGone || tab.gone || attempt >= 20) throw error
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}
