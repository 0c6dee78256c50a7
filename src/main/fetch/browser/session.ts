/**
 * What a browser must offer the browser fetcher: one launched browser with its one shared tab. Two
 * implementations — playwright-core driving system Chromium (headless shell) and a hidden Electron
 * BrowserWindow (Electron shell) — behind the same tested core (`browser-fetcher.ts`).
 */
import type { PageRequest } from '../../sites/site'

/** The browser or its tab went away (crashed, killed, could not start): the check is `unreachable`. */
export class BrowserGone extends Error {
  override readonly name = 'BrowserGone'
}

/** A navigation the host pin blocked (a redirect or script sending the tab off the pinned hosts). */
export class NavigationBlocked extends Error {
  override readonly name = 'NavigationBlocked'
  /** The tab's document was sent to `url`: the error names only its host (or the text, if it is no URL). */
  static navigation(url: string): NavigationBlocked {
    return new NavigationBlocked(`navigation off the host pin blocked: ${hostOf(url)}`)
  }
  /** A request from the page to `url` was refused before it was sent. */
  static request(url: string): NavigationBlocked {
    return new NavigationBlocked(`request off the host pin blocked: ${hostOf(url)}`)
  }
}

/**
 * Whether a request's URL is on the pin. A WebSocket is pinned like the page it talks for (ws→http, wss→https);
 * a text that is no URL never is.
 */
export function onPin(allowed: (url: URL) => boolean, raw: string): boolean {
  try {
    return allowed(new URL(raw.replace(/^ws(s?):/i, 'http$1:')))
  } catch {
    return false
  }
}

function hostOf(raw: string): string {
  try {
    return new URL(raw).host
  } catch {
    return raw
  }
}

/** A document or answer larger than the cap: an `error`, read no further. */
export class BodyTooLarge extends Error {
  override readonly name = 'BodyTooLarge'
  constructor(limit: number) {
    super(`body larger than ${limit} bytes`)
  }
}

export interface Snapshot {
  url: string
  title: string
  html: string
  /** Status of the last main-document response (0 when unknown). */
  status: number
  /** That response's `Date` (plus `Age`) as Unix ms, when it had one: the Site's clock. */
  date?: number
}

export interface BrowserSession {
  /**
   * Loads a URL in the shared tab. Navigations whose URL fails `allowed` are blocked; images, media and
   * fonts are not loaded. Throws `BrowserGone`, `NavigationBlocked`, or another error (timeout).
   */
  goto(url: string, allowed: (url: URL) => boolean, timeoutMs: number): Promise<void>
  /**
   * The tab's document now. Throws `BrowserGone`, `BodyTooLarge` over `maxBytes`; may throw while the page
   * is navigating (retry).
   */
  snapshot(maxBytes: number): Promise<Snapshot>
  /**
   * A request made from the page itself (its origin, the session's cookies), e.g. Madara's XHR list. The URL
   * must pass `allowed`; an answer over `maxBytes` throws `BodyTooLarge`.
   */
  fetchInPage(
    request: PageRequest,
    allowed: (url: URL) => boolean,
    timeoutMs: number,
    maxBytes: number,
  ): Promise<{ status: number; contentType: string; body: string; date?: number }>
  /**
   * Empties the browser before the tab moves to another Site's pin: every other page closed, the tab on
   * `about:blank` (the previous Site's page, its timers and its workers gone), nothing allowed until the next
   * `goto`, and every open connection dropped. Throws when the tab cannot be emptied (the caller then
   * restarts the browser rather than let the previous page see the next pin).
   */
  blank(timeoutMs: number): Promise<void>
  /** Whether the browser is gone (crashed or killed) without `close()`. */
  readonly gone: boolean
  /** Closes the browser; a browser that does not close in a few seconds is killed. */
  close(): Promise<void>
}

export interface BrowserLauncher {
  /**
   * Starts the browser with its persistent profile. Throws when it cannot start, and when `signal` aborts
   * mid-start — the starting browser is then ended, not left to finish.
   */
  launch(signal?: AbortSignal): Promise<BrowserSession>
}
