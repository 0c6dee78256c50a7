/**
 * The simulated Sites, served in process: a `Fetcher` for HTTP and a `BrowserFetcher` that answer each
 * request from the catalogue, inject faults (seeded, per request, plus per-Site episodes such as an outage
 * or a challenge that holds for hours), take time on the fake clock, and record every request: when
 * (monotonic and wall), which Site and Series, who asked (a Lane or an Acquisition — each gets its own view
 * of the same Sites) and which fault was injected.
 */
import type { FakeClock } from '../testing/clock'
import { challengeReason, htmlTitle, isChallengePage } from '../fetch/challenge'
import type { BrowserFetcher, Fetcher, FetchResult } from '../fetch/fetcher'
import { HTTP_DEFAULTS } from '../fetch/http-fetcher'
import { retryAfterMs } from '../fetch/retry-after'
import { BROWSER_DEFAULTS } from '../fetch/browser/browser-fetcher'
import { parseUrl, type PageRequest, type Site } from '../sites/site'
import { shownBy, type SimSeries, type SimSite, type World } from './catalogue'
import type { Caller, EventLog, FaultKind, RefusalEvent, RequestEvent } from './events'
import { challengePage, listedNumbers, madaraList, pageWithoutChapters, seriesPage, servedEdits } from './pages'
import { feedAnswer, isFeedRequest } from './sim-feeds'
import { COVER_PNG, coverUrl, searchAnswer, searchMatches, searchQuery, type Moves } from './sim-search'
import type { ImageFetcher, ImageResult } from '../fetch/image-fetcher'
import type { Random } from './random'

/** The chance of each fault per request (`browser-dies` only on browser requests; `database` per store query). */
export type FaultRates = Record<Exclude<FaultKind, 'gone'>, number>

/** A stretch of time when every request to one Site meets the same fault. */
export interface FaultEpisode {
  site: string
  /** Monotonic ms. */
  from: number
  to: number
  fault: '5xx' | 'timeout' | 'challenge'
}

export interface SimSitesOptions {
  world: World
  clock: FakeClock
  log: EventLog
  /** The faults' own random stream. */
  rng: Random
  rates: FaultRates
  episodes: readonly FaultEpisode[]
  /** Called with every request as it is recorded (the simulation groups them into checks). */
  onRequest(event: RequestEvent): void
  /** The Series the Sites move to a new slug (sim-search.ts; none: no move). */
  moves?: Moves
}

const HTTP_LATENCY_MS = [150, 900] as const
const BROWSER_LATENCY_MS = [1_000, 3_000] as const
const BROWSER_LAUNCH_MS = 1_500
/**
 * An Acquisition meets faults this many times as often as a Lane's check: there are few of them (a handful a
 * day), and at the Lane's rates a month would pass with none meeting a fault.
 */
export const ACQUISITION_FAULT_FACTOR = 8
/** The delays a refusing Site asks for in its `Retry-After` (seconds): shorter and longer than the usual backoff. */
const RETRY_AFTER_SECONDS = [120, 1_200, 2_700, 5_400] as const
/** The longest one simulated request can take: a browser's challenge wait or navigation timeout, plus a launch. */
export const LONGEST_REQUEST_MS =
  Math.max(HTTP_DEFAULTS.timeoutMs, BROWSER_DEFAULTS.challengeTimeoutMs, BROWSER_DEFAULTS.navigationTimeoutMs) + BROWSER_LAUNCH_MS

/** How long an updates page takes to answer. */
const FEED_LATENCY_MS = 400

/** `gone`: the Series moved away from this URL (what it answers). */
type Route = { series: SimSeries | undefined; kind: 'page' | 'list' | 'unknown'; gone?: 404 | 410 }

/** How long a search answer and a cover take. */
const SEARCH_LATENCY_MS = 600
const COVER_LATENCY_MS = 300
/** The Retry-After a Site in a challenge episode sends with a cover's 429 (seconds). */
const COVER_RETRY_AFTER_S = 1_200

export class SimSites {
  readonly faultsInjected: Record<FaultKind, number> = {
    '5xx': 0,
    timeout: 0,
    challenge: 0,
    empty: 0,
    'no-chapter': 0,
    'browser-dies': 0,
    database: 0,
    gone: 0,
  }
  /** Title searches and cover images the Sites answered (sim-search.ts). */
  readonly searchRequests = { count: 0 }
  readonly coverRequests = { count: 0 }
  readonly browserLaunches = { count: 0 }
  /** Requests for the Sites' updates pages (sim-feeds.ts). */
  readonly feedRequests = { count: 0 }
  readonly #feedSeries: Record<string, readonly SimSeries[]> = {}
  #awake = false
  #idle: AbortController | null = null
  #tab: Promise<unknown> = Promise.resolve()

  constructor(private readonly o: SimSitesOptions) {}

  /** The HTTP fetcher as one caller sees it. */
  http(caller: Caller, reader?: number): Fetcher {
    return { kind: 'http', fetch: (request, site, signal) => this.#serve(request, site, signal, caller, 'http', reader) }
  }

  /** The one browser (its tab shared by every browser Lane and Acquisition) as one caller sees it. */
  browser(caller: Caller, reader?: number): BrowserFetcher {
    const view: BrowserFetcher = {
      kind: 'browser',
      fetch: (request, site, signal) => this.#serve(request, site, signal, caller, 'browser', reader),
      isAwake: () => this.#awake,
      close: async () => {
        this.#awake = false
      },
      lease: <T>(work: (fetcher: Fetcher) => Promise<T>): Promise<T> => {
        // One shared tab: a whole check runs before the next one starts.
        const run = this.#tab.then(() => work(view))
        this.#tab = run.then(
          () => undefined,
          () => undefined,
        )
        return run
      },
    }
    return view
  }

  async #serve(
    request: PageRequest,
    site: Site,
    signal: AbortSignal | undefined,
    caller: Caller,
    via: 'http' | 'browser',
    reader?: number,
  ): Promise<FetchResult> {
    const { clock, rng } = this.o
    const url = parseUrl(request.url)
    const sim = url ? this.o.world.siteByHost(url.host) : undefined
    if (url && sim && isFeedRequest(sim, url)) return this.#serveFeed(sim, url, request, site, caller, signal)
    const query = url && sim ? searchQuery(sim, url) : null
    if (query !== null) return this.#serveSearch(sim!, url!, query, { caller, via, reader, signal })
    const route: Route = url && sim ? this.#route(sim, url, request) : { series: undefined, kind: 'unknown' }
    // Always the same number of draws per request, so one fault decision never shifts the next.
    const draw = rng.next()
    const latencyDraw = rng.next()
    const fault = route.gone
      ? 'gone'
      : route.series
        ? this.#fault(sim!, via, caller === 'acquisition' ? draw / ACQUISITION_FAULT_FACTOR : draw)
        : null
    if (fault) this.faultsInjected[fault]++
    const released = route.series ? shownBy(route.series, clock.monotonic()) : []
    const shows = route.kind === 'list' || (route.kind === 'page' && sim!.family !== 'madara-xhr')
    const event = this.o.log.add({
      type: 'request',
      site: sim?.site.key ?? site.key,
      series: route.series?.key ?? '',
      caller,
      first: route.kind === 'page',
      url: request.url,
      fault,
      served: !fault && shows && released.length ? released[released.length - 1]!.number : null,
      listed: !fault && shows && released.length ? listedNumbers(route.kind === 'list' ? 'madara' : sim!.family, released) : null,
      ...(!fault && shows ? servedEdits(route.kind === 'list' ? 'madara' : sim!.family, released) : {}),
    })
    this.o.onRequest(event)

    if (via === 'browser' && !this.#awake) {
      this.browserLaunches.count++
      await clock.sleep(BROWSER_LAUNCH_MS, signal)
      this.#awake = true
    }
    const latency = latencyOf(via, fault, latencyDraw)
    await clock.sleep(latency, signal)
    if (via === 'browser') this.#keepAwake()
    if (signal?.aborted) return { kind: 'error', reason: 'aborted' }
    if (!url || !sim || !route.series)
      return page(request.url, 404, 'text/html', '<!DOCTYPE html><title>Not Found</title><h1>404</h1>', clock.monotonic())
    const faulted = fault && this.#faultAnswer(fault, { url, sim, series: route.series, via, draw, latency, caller })
    if (faulted) return faulted
    if (route.kind === 'list') return page(url.href, 200, 'text/html', madaraList(route.series, released), clock.monotonic())
    const body = seriesPage(sim.family, route.series, released, coverUrl(sim, route.series, this.o.world, clock.monotonic()))
    return page(url.href, 200, sim.family === 'mangadex' ? 'application/json' : 'text/html', body, clock.monotonic())
  }

  /** The answer a request meets when a fault was drawn for it (null for one that does not change the answer). */
  #faultAnswer(fault: FaultKind, r: FaultedRequest): FetchResult | null {
    const { url, sim, via, draw, latency } = r
    const clock = this.o.clock
    switch (fault) {
      case 'timeout':
        return { kind: 'error', reason: via === 'browser' ? `navigation timed out after ${latency} ms` : `timed out after ${latency} ms` }
      case 'browser-dies':
        this.#awake = false
        return { kind: 'unreachable', reason: 'browser: Target page, context or browser has been closed' }
      case '5xx': {
        const status = [500, 502, 503, 504][Math.floor(draw * 1e6) % 4]!
        return page(
          url.href,
          status,
          'text/html',
          `<!DOCTYPE html><title>${status}</title><h1>Server error ${status}</h1>`,
          clock.monotonic(),
        )
      }
      case 'challenge':
        return this.#refuse(url, via, draw, latency, { site: sim.site.key, series: r.series.key, caller: r.caller })
      case 'empty':
        return page(url.href, 200, sim.family === 'mangadex' ? 'application/json' : 'text/html', '', clock.monotonic())
      case 'no-chapter':
        return page(
          url.href,
          200,
          sim.family === 'mangadex' ? 'application/json' : 'text/html',
          pageWithoutChapters(sim.family, r.series),
          clock.monotonic(),
        )
      case 'database':
        return null
      case 'gone': {
        const status = this.o.moves?.movedBy(r.series, clock.monotonic())?.status ?? 404
        return page(url.href, status, 'text/html', `<!DOCTYPE html><title>${status}</title><h1>Not here any more</h1>`, clock.monotonic())
      }
    }
  }

  /**
   * A refusal, entered in the Sites' ledger as it goes out: in a browser, a challenge that does not clear; over
   * HTTP, a Cloudflare challenge, a 429 with `Retry-After` in seconds or a 503 with it as an HTTP-date (the
   * Site's own `Date` beside it) — read by the app's own Retry-After parser, as the HTTP fetcher reads them.
   */
  #refuse(
    url: URL,
    via: 'http' | 'browser',
    draw: number,
    latency: number,
    who: Pick<RefusalEvent, 'site' | 'series' | 'caller'>,
  ): FetchResult {
    const now = this.o.clock.monotonic()
    const body = challengePage(false)
    const form = via === 'browser' ? 'challenge' : (['challenge', '429', '503'] as const)[Math.floor(draw * 1e7) % 3]!
    const askedMs = form === 'challenge' ? null : RETRY_AFTER_SECONDS[Math.floor(draw * 1e8) % RETRY_AFTER_SECONDS.length]! * 1000
    const date = new Date(now).toUTCString()
    const retryAfter = askedMs === null ? null : form === '429' ? String(askedMs / 1000) : new Date(now + askedMs).toUTCString()
    const result = ((): FetchResult => {
      if (form !== 'challenge') {
        const asked = retryAfterMs(retryAfter, this.o.clock.now(), date)
        return {
          kind: 'refused',
          reason: `HTTP ${form} with Retry-After: ${retryAfter}`,
          retryAfterMs: asked,
        }
      }
      if (via === 'browser') {
        const title = htmlTitle(body)
        return isChallengePage(title, body)
          ? { kind: 'refused', reason: `challenge "${title}" did not clear in ${latency} ms` }
          : page(url.href, 200, 'text/html', body, now)
      }
      const headers: Record<string, string> = { server: 'cloudflare', 'content-type': 'text/html' }
      const reason = challengeReason({ status: 403, header: (n) => headers[n.toLowerCase()] ?? null, body })
      return reason ? { kind: 'refused', reason } : page(url.href, 403, 'text/html', body, now)
    })()
    if (result.kind === 'refused') this.o.log.add({ type: 'refusal', ...who, form, retryAfter, askedMs })
    return result
  }

  /**
   * The Site's updates page (sim-feeds.ts): in the ledger as a request of no Series (counted in `feedRequests`),
   * never grouped with a check; no draw from the run's generator.
   */
  async #serveFeed(
    sim: SimSite,
    url: URL,
    request: PageRequest,
    site: Site,
    caller: Caller,
    signal: AbortSignal | undefined,
  ): Promise<FetchResult> {
    const { clock, log, world } = this.o
    this.feedRequests.count++
    log.add({
      type: 'request',
      site: sim.site.key || site.key,
      series: '',
      caller,
      first: false,
      url: request.url,
      fault: null,
      served: null,
      listed: null,
    })
    await clock.sleep(FEED_LATENCY_MS, signal)
    if (signal?.aborted) return { kind: 'error', reason: 'aborted' }
    const all = (this.#feedSeries[sim.site.key] ??= world.series.filter((s) => s.site === sim.site.key))
    return feedAnswer(sim, all, request, url, clock.monotonic())
  }

  /** Which Series a URL (and, for Madara's admin-ajax, a form body) asks for, and whether it is a page or a list. */
  #route(sim: SimSite, url: URL, request: PageRequest): Route {
    const { world } = this.o
    const key = sim.site.key
    const path = url.pathname
    let m: RegExpExecArray | null
    switch (sim.family) {
      case 'madara':
      case 'madara-xhr':
      case 'mangathemesia':
        if ((m = /^\/manga\/([^/]+)\/?$/.exec(path))) return this.#bySlug(key, m[1]!, 'page')
        if (sim.family === 'madara-xhr' && request.method === 'POST') {
          if ((m = /^\/manga\/([^/]+)\/ajax\/chapters\/?$/.exec(path))) return this.#bySlug(key, m[1]!, 'list')
          if (path === '/wp-admin/admin-ajax.php') {
            const postId = new URLSearchParams(request.body ?? '').get('manga') ?? ''
            return { series: world.findSeries(key, 'postId', postId), kind: 'list' }
          }
        }
        break
      case 'webtoons':
        if (/^\/en\/[^/]+\/[^/]+\/list$/.test(path))
          return { series: world.findSeries(key, 'postId', url.searchParams.get('title_no') ?? ''), kind: 'page' }
        break
      case 'mangadex':
        if (url.host === sim.apiHost && (m = /^\/manga\/([0-9a-f-]{36})\/feed$/.exec(path)))
          return { series: world.findSeries(key, 'uuid', m[1]!), kind: 'page' }
        break
      case 'selectors':
        if ((m = /^\/series\/([^/]+)\/?$/.exec(path))) return this.#bySlug(key, m[1]!, 'page')
        break
    }
    return { series: undefined, kind: 'unknown' }
  }

  /**
   * A Series by the slug in its URL: a moved Series at its new slug (from its move on), and at its old one from
   * then on the move's 404 or 410 (sim-search.ts).
   */
  #bySlug(site: string, slug: string, kind: 'page' | 'list'): Route {
    const now = this.o.clock.monotonic()
    const moved = this.o.moves?.bySlug(site, slug, now)
    if (moved) return { series: moved, kind }
    const series = this.o.world.findSeries(site, 'slug', slug)
    const move = series && this.o.moves?.movedBy(series, now)
    return move ? { series, kind, gone: move.status } : { series, kind }
  }

  #episodeAt(sim: SimSite): FaultEpisode | undefined {
    const now = this.o.clock.monotonic()
    return this.o.episodes.find((e) => e.site === sim.site.key && e.from <= now && now < e.to)
  }

  /**
   * A title search (sim-search.ts): in the ledger as a `search` request of no Series (with the Reader who asked,
   * when one did), never grouped with a check; no draw from the run's generator; a fault episode of the Site meets
   * it as it meets checks.
   */
  async #serveSearch(
    sim: SimSite,
    url: URL,
    query: string,
    r: { caller: Caller; via: 'http' | 'browser'; reader: number | undefined; signal: AbortSignal | undefined },
  ): Promise<FetchResult> {
    const { clock, log, world } = this.o
    const episode = this.#episodeAt(sim)
    this.searchRequests.count++
    log.add({
      type: 'request',
      site: sim.site.key,
      series: '',
      caller: r.caller,
      first: false,
      url: url.href,
      fault: episode?.fault ?? null,
      served: null,
      listed: null,
      kind: 'search',
      ...(r.reader !== undefined ? { reader: r.reader } : {}),
    })
    await clock.sleep(SEARCH_LATENCY_MS, r.signal)
    if (r.signal?.aborted) return { kind: 'error', reason: 'aborted' }
    const now = clock.monotonic()
    if (episode?.fault === 'timeout') return { kind: 'error', reason: `timed out after ${SEARCH_LATENCY_MS} ms` }
    if (episode?.fault === '5xx') return page(url.href, 503, 'text/html', '<!DOCTYPE html><title>503</title><h1>Server error 503</h1>', now)
    if (episode) return this.#refuse(url, r.via, 0, SEARCH_LATENCY_MS, { site: sim.site.key, series: '', caller: r.caller })
    const found = searchMatches(
      world.series.filter((s) => s.site === sim.site.key),
      query,
    ).map((series) => ({
      series,
      url: this.o.moves?.urlOf(series, now) ?? series.url,
      cover: coverUrl(sim, series, world, now),
      latest: shownBy(series, now).at(-1)?.label,
    }))
    return page(url.href, 200, sim.family === 'mangadex' ? 'application/json' : 'text/html', searchAnswer(sim, found), now)
  }

  /**
   * The cover images, as the app's image fetcher would get them (core's `fetchImage`): each in the ledger as a Lane's
   * `cover` request of its Series; the image its page names now, else 404; a fault episode of the Site meets it (a
   * challenge as a 429 with Retry-After, entered as a refusal).
   */
  image(): ImageFetcher {
    return (url, site, options) => this.#serveCover(url, site, options.signal)
  }

  async #serveCover(url: string, site: Site, signal: AbortSignal | undefined): Promise<ImageResult> {
    const { clock, log, world } = this.o
    const sim = world.sites.find((s) => s.site.key === site.key)
    const m = /^\/covers\/(.+)-v\d+\.png$/.exec(parseUrl(url)?.pathname ?? '')
    const series = sim && m ? world.findSeries(sim.site.key, 'slug', m[1]!) : undefined
    const episode = sim && this.#episodeAt(sim)
    this.coverRequests.count++
    const fault = episode?.fault ?? null
    const event = log.add({
      type: 'request',
      site: site.key,
      series: series?.key ?? '',
      caller: 'lane',
      first: false,
      url,
      fault,
      served: null,
      listed: null,
      kind: 'cover',
      image: false as boolean,
    })
    await clock.sleep(COVER_LATENCY_MS, signal)
    if (signal?.aborted) return { kind: 'error', reason: 'aborted' }
    if (fault === 'timeout') return { kind: 'error', reason: 'timed out' }
    if (fault === '5xx') return { kind: 'error', reason: 'HTTP 503' }
    if (fault === 'challenge') {
      const askedMs = COVER_RETRY_AFTER_S * 1000
      log.add({
        type: 'refusal',
        site: site.key,
        series: series?.key ?? '',
        caller: 'lane',
        form: '429',
        retryAfter: String(COVER_RETRY_AFTER_S),
        askedMs,
      })
      return { kind: 'refused', reason: 'HTTP 429 for a cover', retryAfterMs: askedMs }
    }
    if (!sim || !series || coverUrl(sim, series, world, clock.monotonic()) !== url) return { kind: 'error', reason: 'HTTP 404' }
    event.image = true
    return { kind: 'image', bytes: COVER_PNG, type: 'image/png' }
  }

  #fault(sim: SimSite, via: 'http' | 'browser', draw: number): FaultKind | null {
    const episode = this.#episodeAt(sim)
    if (episode) return episode.fault
    let x = draw
    for (const [kind, rate] of Object.entries(this.o.rates) as Array<[FaultKind, number]>) {
      if ((kind === 'browser-dies' && via !== 'browser') || kind === 'database') continue
      if (x < rate) return kind
      x -= rate
    }
    return null
  }

  /** A real browser closes after an idle period (it "sleeps") and is launched again by the next fetch. */
  #keepAwake(): void {
    this.#idle?.abort()
    const idle = new AbortController()
    this.#idle = idle
    void this.o.clock.sleep(BROWSER_DEFAULTS.idleMs, idle.signal).then(() => {
      if (!idle.signal.aborted) this.#awake = false
    })
  }
}

/** How long a request takes: a timeout's or an unclearing challenge's full wait, else a draw within the fetcher's range. */
function latencyOf(via: 'http' | 'browser', fault: FaultKind | null, draw: number): number {
  if (fault === 'timeout') return via === 'browser' ? BROWSER_DEFAULTS.navigationTimeoutMs : HTTP_DEFAULTS.timeoutMs
  if (fault === 'challenge' && via === 'browser') return BROWSER_DEFAULTS.challengeTimeoutMs
  const [min, max] = via === 'browser' ? BROWSER_LATENCY_MS : HTTP_LATENCY_MS
  return Math.round(min + draw * (max - min))
}

/** A request a fault was drawn for, as #faultAnswer needs it. */
interface FaultedRequest {
  url: URL
  sim: SimSite
  series: SimSeries
  via: 'http' | 'browser'
  draw: number
  latency: number
  caller: Caller
}

/** A page as a simulated Site serves it, dated by the Site's clock: the true (monotonic) time, which no wall-clock step moves. */
function page(url: string, status: number, contentType: string, body: string, date: number): FetchResult {
  return { kind: 'page', page: { url, status, contentType, body, date } }
}
