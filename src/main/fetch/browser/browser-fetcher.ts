/**
 * The browser fetcher's core, shared by both shells (docs/design.md#sites-and-fetching, docs/adr/0007): one shared tab serialised
 * across every browser Lane — leased for a whole check, so a Madara XHR list is fetched from the page just
 * loaded; a challenge is waited out up to a timeout, then `refused`; every fetch has an overall deadline and
 * a body cap; a browser that dies or cannot start is `unreachable`; the browser sleeps (closes, returning
 * its memory) after an idle period and is started again by the next fetch. The tab is blanked before it
 * moves to another Site's pin (docs/adr/0030), and `close()` stops everything at once, a launch included
 * (docs/adr/0031).
 */
import type { Clock } from '../../clock'
import type { Log } from '../../log'
import { isPinned, type PageRequest, type Site } from '../../sites/site'
import { challengeReason, isChallengePage } from '../challenge'
import type { BrowserFetcher, Fetcher, FetchResult } from '../fetcher'
import { HTTP_DEFAULTS } from '../http-fetcher'
import { BodyTooLarge, BrowserGone, NavigationBlocked, type BrowserLauncher, type BrowserSession, type Snapshot } from './session'

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
  /** The largest document or in-page answer read. */
  maxBodyBytes?: number
  /** Beyond navigation and challenge time, how long a fetch may take before the tab is given up as wedged. */
  deadlineMarginMs?: number
}

export const BROWSER_DEFAULTS = { challengeTimeoutMs: 30_000, navigationTimeoutMs: 30_000, idleMs: 120_000, pollMs: 500 } as const

export function createBrowserFetcher(options: BrowserFetcherOptions): BrowserFetcher & { readonly launches: number } {
  const { clock, log } = options
  const challengeTimeoutMs = options.challengeTimeoutMs ?? BROWSER_DEFAULTS.challengeTimeoutMs
  const navigationTimeoutMs = options.navigationTimeoutMs ?? BROWSER_DEFAULTS.navigationTimeoutMs
  const idleMs = options.idleMs ?? BROWSER_DEFAULTS.idleMs
  const pollMs = options.pollMs ?? BROWSER_DEFAULTS.pollMs
  const maxBodyBytes = options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes
  const deadlineMs = navigationTimeoutMs + challengeTimeoutMs + (options.deadlineMarginMs ?? 15_000)

  let session: BrowserSession | null = null
  let launching: Promise<BrowserSession> | null = null
  let launches = 0
  // The pin of the page the tab holds now (its Site's hosts); null when the tab is blank.
  let tabPin: string | null = null
  // The one shared tab: checks run one after another, whichever Lane asked.
  let queue: Promise<unknown> = Promise.resolve()
  // What the tab is doing now, even after its caller stopped waiting (an aborted check): the next read waits.
  let tabWork: Promise<unknown> = Promise.resolve()
  let idleTimer: AbortController | null = null
  let closing: Promise<void> | null = null
  // Aborted by close(): ends a launch in progress and every wait at once.
  const stopping = new AbortController()

  const awake = () => session !== null && !session.gone

  async function ensureSession(): Promise<BrowserSession> {
    if (stopping.signal.aborted) throw new BrowserGone('the browser fetcher is stopped')
    if (session && !session.gone) return session
    if (session?.gone) await session.close().catch(() => undefined)
    session = null
    tabPin = null
    launching = options.launcher.launch(stopping.signal)
    try {
      const started = await launching
      if (stopping.signal.aborted) {
        await started.close().catch(() => undefined)
        throw new BrowserGone('the browser fetcher is stopped')
      }
      session = started
      launches++
      log.info({ launches }, 'browser: started')
      return started
    } catch (error) {
      if (error instanceof BrowserGone) throw error
      throw new BrowserGone(`the browser could not start: ${(error as Error).message}`)
    } finally {
      launching = null
    }
  }

  function scheduleSleep(): void {
    idleTimer?.abort()
    const timer = new AbortController()
    idleTimer = timer
    void clock.sleep(idleMs, timer.signal).then(() => {
      if (timer.signal.aborted) return
      queue = queue.then(async () => {
        await tabWork
        if (timer.signal.aborted || !session) return
        log.info('browser: idle; closing it (asleep)')
        await closeSession()
      })
    })
  }

  async function closeSession(): Promise<void> {
    const current = session
    session = null
    tabPin = null
    await current?.close().catch((error: unknown) => log.warn({ err: error }, 'browser: close failed'))
  }

  /**
   * The tab, holding nothing but this Site's pages: when it last held another Site's page it is blanked
   * first, so that page (its timers, its workers) never runs under this Site's pin. A tab that cannot be
   * blanked is not trusted: the browser is restarted.
   */
  async function tabFor(site: Site): Promise<BrowserSession> {
    const pin = [...site.hosts].sort().join(' ')
    let tab = await ensureSession()
    if (tabPin !== null && tabPin !== pin) {
      try {
        await tab.blank(navigationTimeoutMs)
      } catch (error) {
        if (error instanceof BrowserGone) throw error
        log.warn({ err: error }, 'browser: the tab could not be blanked between Sites; restarting the browser')
        await closeSession()
        tab = await ensureSession()
      }
    }
    tabPin = pin
    return tab
  }

  async function read(request: PageRequest, site: Site, signal: AbortSignal): Promise<FetchResult> {
    const allowed = (url: URL) => isPinned(site, url)
    const tab = await tabFor(site)
    if (request.method === 'POST') {
      const answer = await tab.fetchInPage(request, allowed, navigationTimeoutMs, maxBodyBytes)
      const refused = challengeReason({
        status: answer.status,
        header: (n) => (n === 'content-type' ? answer.contentType : null),
        body: answer.body,
      })
      if (refused) return { kind: 'refused', reason: refused }
      const { status, contentType, body, date } = answer
      return { kind: 'page', page: { url: request.url, status, contentType, body, ...(date === undefined ? {} : { date }) } }
    }
    await tab.goto(request.url, allowed, navigationTimeoutMs)
    const deadline = clock.now() + challengeTimeoutMs
    for (;;) {
      const shot = await snapshotSettled(tab, maxBodyBytes)
      if (!isChallengePage(shot.title, shot.html)) {
        const dated = shot.date === undefined ? {} : { date: shot.date }
        return { kind: 'page', page: { url: shot.url, status: shot.status || 200, contentType: 'text/html', body: shot.html, ...dated } }
      }
      if (clock.now() >= deadline) return { kind: 'refused', reason: `challenge "${shot.title}" did not clear in ${challengeTimeoutMs} ms` }
      if (signal.aborted) return { kind: 'error', reason: 'aborted' }
      await clock.sleep(pollMs, signal)
    }
  }

  /** One read with an overall deadline: a wedged tab (a page stuck in a script) is closed, not waited on. */
  async function readWithDeadline(request: PageRequest, site: Site, signal: AbortSignal): Promise<FetchResult> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), deadlineMs)))
    try {
      const result = await Promise.race([read(request, site, signal), timedOut])
      if (result !== 'timeout') return result
      log.warn({ url: request.url }, 'browser: the page did not answer in time; closing the tab')
      await closeSession()
      return { kind: 'error', reason: `timed out after ${deadlineMs} ms` }
    } catch (error) {
      if (stopping.signal.aborted) return { kind: 'error', reason: 'aborted' }
      if (error instanceof BrowserGone || session?.gone) {
        await closeSession()
        return { kind: 'unreachable', reason: error instanceof Error ? error.message : String(error) }
      }
      if (error instanceof NavigationBlocked) return { kind: 'error', reason: error.message }
      if (error instanceof BodyTooLarge) return { kind: 'error', reason: error.message }
      const message = (error as Error).message ?? String(error)
      // A page that did not load in time may have wedged the tab (a script that never yields): start afresh.
      if ((error as Error).name === 'TimeoutError' || /timed? ?out/i.test(message)) await closeSession()
      return { kind: 'error', reason: `browser: ${message.split('\n')[0]}` }
    } finally {
      clearTimeout(timer)
    }
  }

  /**
   * One fetch. The caller's answer comes at once when its signal aborts or the fetcher stops; the tab's own
   * work is still waited for by the next read, so two reads never share the tab.
   */
  async function fetchOnce(request: PageRequest, site: Site, signal?: AbortSignal): Promise<FetchResult> {
    if (closing) return { kind: 'unreachable', reason: 'the browser fetcher is stopped' }
    if (signal?.aborted) return { kind: 'error', reason: 'aborted' }
    const combined = signal ? AbortSignal.any([signal, stopping.signal]) : stopping.signal
    const work = tabWork.then(() =>
      combined.aborted
        ? ABORTED
        : readWithDeadline(request, site, combined).catch((error: unknown): FetchResult => ({
            kind: 'error',
            reason: `browser: ${String(error)}`,
          })),
    )
    tabWork = work.finally(() => {
      if (!closing) scheduleSleep()
    })
    return untilAborted(work, combined)
  }

  function serialised<T>(work: () => Promise<T>): Promise<T> {
    const run = queue.then(work)
    queue = run.catch(() => undefined)
    return run
  }

  const fetcher: BrowserFetcher & { readonly launches: number } = {
    kind: 'browser',
    get launches() {
      return launches
    },
    isAwake: awake,
    fetch: (request, site, signal) => serialised(() => fetchOnce(request, site, signal)),
    lease: <T>(work: (leased: Fetcher) => Promise<T>) =>
      serialised(() => work({ kind: 'browser', fetch: (request, site, signal) => fetchOnce(request, site, signal) })),
    close() {
      // Stopping does not wait for a check in flight nor for a launch to finish: both are ended.
      closing ??= (async () => {
        stopping.abort()
        idleTimer?.abort()
        const starting = launching
        await closeSession()
        const late = await starting?.catch(() => null)
        await late?.close().catch(() => undefined)
      })()
      return closing
    },
  }
  return fetcher
}

const ABORTED: FetchResult = { kind: 'error', reason: 'aborted' }

/** The work's result, or `aborted` as soon as `signal` aborts. */
function untilAborted(work: Promise<FetchResult>, signal: AbortSignal): Promise<FetchResult> {
  if (signal.aborted) return Promise.resolve(ABORTED)
  return new Promise<FetchResult>((resolve) => {
    const abort = () => resolve(ABORTED)
    signal.addEventListener('abort', abort, { once: true })
    void work.then((result) => {
      signal.removeEventListener('abort', abort)
      resolve(result)
    })
  })
}

/** A snapshot, retried while the page is between documents (a challenge reloading itself). */
async function snapshotSettled(tab: BrowserSession, maxBodyBytes: number): Promise<Snapshot> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await tab.snapshot(maxBodyBytes)
    } catch (error) {
      if (error instanceof BrowserGone || error instanceof BodyTooLarge || tab.gone || attempt >= 20) throw error
      await new Promise((r) => setTimeout(r, 100))
    }
  }
}
