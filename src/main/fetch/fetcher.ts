/** The fetcher interface the Lanes and Acquisition talk to: HTTP, or a browser (docs/design.md#sites-and-fetching). */
import type { Page, PageRequest, Site } from '../sites/site'

export type FetchResult =
  | { kind: 'page'; page: Page }
  /**
   * An anti-bot challenge held (in a browser: it did not clear in time), or the Site said "too many requests"
   * (429, or 503 with Retry-After); `retryAfterMs` is how long it asked to be left alone, when it said.
   */
  | { kind: 'refused'; reason: string; retryAfterMs?: number }
  /** The browser was interrupted or could not be reached. */
  | { kind: 'unreachable'; reason: string }
  /**
   * Transport error, timeout, oversized body, a redirect off the host pin, an abort. A permanent redirect (301,
   * 308) off the pin names the origin it leads to in `movedTo`: never followed, proposed to the owner.
   */
  | { kind: 'error'; reason: string; movedTo?: string }

export interface Fetcher {
  readonly kind: 'http' | 'browser'
  /** Fetches one request for a Site; every URL it touches is on the Site's host pin. Never throws. */
  fetch(request: PageRequest, site: Site, signal?: AbortSignal): Promise<FetchResult>
  /**
   * Runs a whole check's requests without another check's in between (the browser's one shared tab: a
   * Madara XHR list is fetched from the page loaded just before it). Fetchers without shared state omit it.
   */
  lease?<T>(work: (fetcher: Fetcher) => Promise<T>): Promise<T>
}

export interface BrowserFetcher extends Fetcher {
  readonly kind: 'browser'
  /** Whether the browser is running now (a sleeping browser is closed). */
  isAwake(): boolean
  /** Stops the browser for good: a check or a launch in flight ends at once; later fetches are `unreachable`. */
  close(): Promise<void>
}

export interface Fetchers {
  http: Fetcher
  /** The app's browser, when one is configured. */
  browser?: BrowserFetcher
}

/**
 * The fetcher a Site uses now: its own kind, or for a browser Site with no browser configured, HTTP when
 * its fallback says so. Undefined means no fetcher (skip `no-fetcher`, or `unfetchable` for one check).
 */
export function fetcherFor(site: Pick<Site, 'fetcher' | 'fallback'>, fetchers: Fetchers): Fetcher | undefined {
  if (site.fetcher === 'http') return fetchers.http
  return fetchers.browser ?? (site.fallback === 'http' ? fetchers.http : undefined)
}
