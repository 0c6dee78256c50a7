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

/** The fetcher's timings and caps, defaults filled in. */
interface BrowserSettings {
  challengeTimeoutMs: number
  navigationTimeoutMs: number
  idleMs: number
  pollMs: number
  maxBodyBytes: number
  /** The overall deadline of one fetch: navigation, challenge, and a margin. */
  deadlineMs: number
}

function browserSettings(options: BrowserFetcherOptions): BrowserSettings {
  const challengeTimeoutMs = options.challengeTimeoutMs ?? BROWSER_DEFAULTS.challengeTimeoutMs
  const navigationTimeoutMs = options.navigationTimeoutMs ?? BROWSER_DEFAULTS.navigationTimeoutMs
  return {
    challengeTimeoutMs,
    navigationTimeoutMs,
    idleMs: options.idleMs ?? BROWSER_DEFAULTS.idleMs,
    pollMs: options.pollMs ?? BROWSER_DEFAULTS.pollMs,
    maxBodyBytes: options.maxBodyBytes ?? HTTP_DEFAULTS.maxBodyBytes,
    deadlineMs: navigationTimeoutMs + challengeTimeoutMs + (options.deadlineMarginMs ?? 15_000),
  }
}

export function createBrowserFetcher(options: BrowserFetcherOptions): BrowserFetcher & { readonly launches: number } {
  const { clock, log } = options
  const settings = browserSettings(options)
  // Aborted by close(): ends a launch in progress and every wait at once.
  const stopping = new AbortController()
  const keeper = keepSession(options, settings, stopping.signal)
  const reading: Reading = { keeper, settings, clock, log, stopping: stopping.signal }

  // The one shared tab: checks run one after another, whichever Lane asked.
  let queue: Promise<unknown> = Promise.resolve()
  // What the tab is doing now, even after its caller stopped waiting (an aborted check): the next read waits.
  let tabWork: Promise<unknown> = Promise.resolve()
  let idleTimer: AbortController | null = null
  let closing: Promise<void> | null = null

  function scheduleSleep(): void {
    idleTimer?.abort()
    const timer = new AbortController()
    idleTimer = timer
    void clock.sleep(settings.idleMs, timer.signal).then(() => {
      if (timer.signal.aborted) return
      queue = queue.then(async () => {
        await tabWork
        if (timer.signal.aborted || !keeper.held()) return
        log.info('browser: idle; closing it (asleep)')
        await keeper.closeSession()
      })
    })
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
        : readWithDeadline(reading, request, site, combined).catch((error: unknown): FetchResult => ({
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
      return keeper.launches
    },
    isAwake: () => keeper.awake(),
    fetch: (request, site, signal) => serialised(() => fetchOnce(request, site, signal)),
    lease: <T>(work: (leased: Fetcher) => Promise<T>) =>
      serialised(() => work({ kind: 'browser', fetch: (request, site, signal) => fetchOnce(request, site, signal) })),
    close() {
      // Stopping does not wait for a check in flight nor for a launch to finish: both are ended.
      closing ??= (async () => {
        stopping.abort()
        idleTimer?.abort()
        await keeper.closeForGood()
      })()
      return closing
    },
  }
  return fetcher
}

/** The browser's one session and the pin its tab holds: started on demand, closed to sleep or to stop. */
interface SessionKeeper {
  /** How many times the browser was started. */
  readonly launches: number
  /** Whether the browser is running now (a sleeping browser is closed). */
  awake(): boolean
  /** Whether a session is held, running or died. */
  held(): boolean
  /** Whether the session held has died (crashed or killed). */
  died(): boolean
  /**
   * The tab, holding nothing but this Site's pages: when it last held another Site's page it is blanked
   * first, so that page (its timers, its workers) never runs under this Site's pin. A tab that cannot be
   * blanked is not trusted: the browser is restarted.
   */
  tabFor(site: Site): Promise<BrowserSession>
  /** Closes the browser; the next `tabFor` starts it again. */
  closeSession(): Promise<void>
  /** Closes the browser and one still starting (the fetcher stops; `signal` has aborted). */
  closeForGood(): Promise<void>
}

function keepSession(options: BrowserFetcherOptions, settings: BrowserSettings, signal: AbortSignal): SessionKeeper {
  const { log } = options
  let session: BrowserSession | null = null
  let launching: Promise<BrowserSession> | null = null
  let launches = 0
  // The pin of the page the tab holds now (its Site's hosts); null when the tab is blank.
  let tabPin: string | null = null

  async function ensureSession(): Promise<BrowserSession> {
    if (signal.aborted) throw new BrowserGone('the browser fetcher is stopped')
    if (session && !session.gone) return session
    if (session?.gone) await session.close().catch(() => undefined)
    session = null
    tabPin = null
    launching = options.launcher.launch(signal)
    try {
      const started = await launching
      if (signal.aborted) {
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

  async function closeSession(): Promise<void> {
    const current = session
    session = null
    tabPin = null
    await current?.close().catch((error: unknown) => log.warn({ err: error }, 'browser: close failed'))
  }

  async function tabFor(site: Site): Promise<BrowserSession> {
    const pin = [...site.hosts].sort().join(' ')
    let tab = await ensureSession()
    if (tabPin !== null && tabPin !== pin) {
      try {
        await tab.blank(settings.navigationTimeoutMs)
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

  async function closeForGood(): Promise<void> {
    const starting = launching
    await closeSession()
    const late = await starting?.catch(() => null)
    await late?.close().catch(() => undefined)
  }

  return {
    get launches() {
      return launches
    },
    awake: () => session !== null && !session.gone,
    held: () => session !== null,
    died: () => session?.gone === true,
    tabFor,
    closeSession,
    closeForGood,
  }
}

/** What a read needs from its fetcher. */
interface Reading {
  keeper: SessionKeeper
  settings: BrowserSettings
  clock: Clock
  log: Log
  /** Aborted when the fetcher stops. */
  stopping: AbortSignal
}

/** One read with an overall deadline: a wedged tab (a page stuck in a script) is closed, not waited on. */
async function readWithDeadline(reading: Reading, request: PageRequest, site: Site, signal: AbortSignal): Promise<FetchResult> {
  const { deadlineMs } = reading.settings
  let timer: ReturnType<typeof setTimeout> | undefined
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), deadlineMs)))
  try {
    const result = await Promise.race([read(reading, request, site, signal), timedOut])
    if (result !== 'timeout') return result
    reading.log.warn({ url: request.url }, 'browser: the page did not answer in time; closing the tab')
    await reading.keeper.closeSession()
    return { kind: 'error', reason: `timed out after ${deadlineMs} ms` }
  } catch (error) {
    return await failedRead(reading, error)
  } finally {
    clearTimeout(timer)
  }
}

/** What a read that threw answers; a browser that died or may be wedged is closed, to start afresh. */
async function failedRead(reading: Reading, error: unknown): Promise<FetchResult> {
  if (reading.stopping.aborted) return { kind: 'error', reason: 'aborted' }
  if (error instanceof BrowserGone || reading.keeper.died()) {
    await reading.keeper.closeSession()
    return { kind: 'unreachable', reason: error instanceof Error ? error.message : String(error) }
  }
  if (error instanceof NavigationBlocked) return { kind: 'error', reason: error.message }
  if (error instanceof BodyTooLarge) return { kind: 'error', reason: error.message }
  const message = (error as Error).message ?? String(error)
  // A page that did not load in time may have wedged the tab (a script that never yields): start afresh.
  if ((error as Error).name === 'TimeoutError' || /timed? ?out/i.test(message)) await reading.keeper.closeSession()
  return { kind: 'error', reason: `browser: ${message.split('\n')[0]}` }
}

async function read(reading: Reading, request: PageRequest, site: Site, signal: AbortSignal): Promise<FetchResult> {
  const allowed = (url: URL) => isPinned(site, url)
  const tab = await reading.keeper.tabFor(site)
  if (request.method === 'POST') return readInPage(tab, request, allowed, reading.settings)
  await tab.goto(request.url, allowed, reading.settings.navigationTimeoutMs)
  return waitOutChallenge(tab, reading, signal)
}

/** A request made from the page itself (Madara's XHR list); a challenge in its answer is a refusal. */
async function readInPage(
  tab: BrowserSession,
  request: PageRequest,
  allowed: (url: URL) => boolean,
  settings: BrowserSettings,
): Promise<FetchResult> {
  const answer = await tab.fetchInPage(request, allowed, settings.navigationTimeoutMs, settings.maxBodyBytes)
  const refused = challengeReason({
    status: answer.status,
    header: (n) => (n === 'content-type' ? answer.contentType : null),
    body: answer.body,
  })
  if (refused) return { kind: 'refused', reason: refused }
  const { status, contentType, body, date } = answer
  return { kind: 'page', page: { url: request.url, status, contentType, body, ...(date === undefined ? {} : { date }) } }
}

/** The tab's document once no challenge stands in front of it, or a refusal when it did not clear in time. */
async function waitOutChallenge(tab: BrowserSession, reading: Reading, signal: AbortSignal): Promise<FetchResult> {
  const { clock, settings } = reading
  const deadline = clock.now() + settings.challengeTimeoutMs
  for (;;) {
    const shot = await snapshotSettled(tab, settings.maxBodyBytes)
    if (!isChallengePage(shot.title, shot.html)) {
      const dated = shot.date === undefined ? {} : { date: shot.date }
      return { kind: 'page', page: { url: shot.url, status: shot.status || 200, contentType: 'text/html', body: shot.html, ...dated } }
    }
    if (clock.now() >= deadline) {
      return { kind: 'refused', reason: `challenge "${shot.title}" did not clear in ${settings.challengeTimeoutMs} ms` }
    }
    if (signal.aborted) return { kind: 'error', reason: 'aborted' }
    await clock.sleep(settings.pollMs, signal)
  }
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
