/**
 * A Site: key, name, host pin, fetcher kind, fallback, an adapter, a series_id rule and pace.
 */
import { unsafeIdReason } from '../../shared/ids'
import type { ReleasedAt } from './dates'
import { plainHttpUrl } from './plain-url'
import type { AdapterRecipe, FamilyKey } from './families'

export interface Pace {
  /** Each eligible Series is checked once per rest. */
  restMs: number
  minGapMs: number
  maxGapMs: number
  /** The longest a sighted Series may be deferred; also the age after which a check is stale. */
  ceilingMs: number
  /** A refusal closes the Lane this long (durable). */
  refusalBackoffMs: number
  /** Browser Sites wake the browser only when this many are due … */
  wakeDueCount: number
  /** … or the oldest due waited this long (a forced Series always wakes it). */
  wakeOldestMs: number
  /** A pass takes no new Series after this long. */
  maxPassMs: number
  /** A Lane with nothing due re-reads the due query this often. */
  idleRequeryMs: number
  /**
   * `fixed`: each Series is checked once per rest. `adaptive`: each Series' next check is planned from its release
   * rhythm — longer rests outside the window its next chapter is expected in, shorter inside it
   * (docs/adr/0014-freshness-per-request.md).
   */
  cadence: Cadence
}

export type Cadence = 'fixed' | 'adaptive'

export const DEFAULT_PACE: Readonly<Pace> = Object.freeze({
  restMs: 3_600_000,
  minGapMs: 5_000,
  maxGapMs: 300_000,
  ceilingMs: 86_400_000,
  refusalBackoffMs: 900_000,
  wakeDueCount: 5,
  wakeOldestMs: 10_800_000,
  maxPassMs: 300_000,
  idleRequeryMs: 30_000,
  cadence: 'fixed',
})

export type FetcherKind = 'http' | 'browser'
export type Fallback = 'http' | 'none'

/** One request an adapter asks for. */
export interface PageRequest {
  url: string
  method: 'GET' | 'POST'
  headers?: Record<string, string>
  body?: string
}

/** A response that was not a challenge, of any status. */
export interface Page {
  /** The final URL after redirects (all within the host pin). */
  url: string
  status: number
  contentType: string
  body: string
  /** When the Site answered, on its own clock (its `Date` header plus `Age`), Unix ms; absent when it gave none. */
  date?: number
}

export interface Chapter {
  number: number
  label: string
  url: string
  /** When the Site says the chapter came out, where its page prints it (the rhythm learns from it). */
  released?: ReleasedAt
}

export interface ParsedSeries {
  title?: string
  chapters: Chapter[]
  /** The Series' cover image as its page names it (the family's cover element, else `og:image`); never fetched by the adapter. */
  coverUrl?: string
}

/** What an adapter makes of a page: the chapters, or one more request (e.g. Madara's XHR chapter list). */
export type AdapterStep =
  | { kind: 'parsed'; result: ParsedSeries }
  | {
      kind: 'follow'
      request: PageRequest
      /** Tried instead when `request` answers with a non-200 status. */
      fallback?: PageRequest
      /** What the first page already told (its title), merged into the final result. */
      partial?: { title?: string; coverUrl?: string }
    }

/**
 * Turns fetched pages into `{ title?, chapters[] }`. Pure: no I/O, no clock. `read` throws an
 * `AdapterError` for content it cannot read at all (e.g. malformed JSON from an API).
 */
export interface Adapter {
  /**
   * How to make this adapter again from plain data, so its `read` can run in the page reader's worker thread
   * under a deadline. An adapter without one (a test's) is read on the main thread.
   */
  recipe?: AdapterRecipe
  /** The first request for a Series. */
  request(seriesUrl: URL): PageRequest
  read(page: Page, seriesUrl: URL): AdapterStep
  /**
   * Searching the Site by title, when its family (or the owner's `search` template in sites.json) can; read on the
   * calling thread (docs/adr/0145-search-is-a-request-on-the-lane.md). Absent: the Site cannot be searched.
   */
  search?: SiteSearch
  /**
   * The Site's latest-updates page, when the adapter has its own (a family's comes from its recipe:
   * `siteFeed` in ./feeds; docs/adr/0165-site-feeds.md).
   */
  latest?: SiteFeed
}

export class AdapterError extends Error {
  override readonly name = 'AdapterError'
}

export interface Site {
  key: string
  name: string
  /** The host pin: `host[:port]`, lowercase. A URL whose host is not listed is never fetched. */
  hosts: readonly string[]
  /** Hosts its cover images may come from besides the pin (sites.json `imageHosts`); only images are fetched there. */
  imageHosts?: readonly string[]
  fetcher: FetcherKind
  fallback: Fallback
  adapter: Adapter
  /** The built-in family whose adapter the Site uses, when it uses one (sites.json may then retune it). */
  family?: FamilyKey
  /** The series_id of a Series URL on this Site, or null when the URL is not a Series of it. */
  seriesIdOf(url: URL): string | null
  /** The Series' own page for any URL of it (a chapter URL pasted instead of the Series'). */
  canonicalUrl?(url: URL): string
  pace: Pace
  /** Where a title search's paths hang from (ends in `/`); default `https://<first host>/` (sites/search.ts). */
  searchBase?: string
  /** Where the definition came from: built in, or the owner's sites.json. */
  origin: 'built-in' | 'sites.json'
}

/** Whether a URL is http(s) and its host[:port] is on the Site's pin. */
export function isPinned(site: Pick<Site, 'hosts'>, url: URL): boolean {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
  if (url.username || url.password) return false
  return site.hosts.includes(url.host.toLowerCase())
}

/** Whether a cover image may be fetched from a URL: http(s), no credentials, its host the Site's pin or one of its image hosts. */
export function isCoverHost(site: Pick<Site, 'hosts' | 'imageHosts'>, url: URL): boolean {
  if (isPinned(site, url)) return true
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
  if (url.username || url.password) return false
  return site.imageHosts?.includes(url.host.toLowerCase()) ?? false
}

/**
 * The link a Reader's card gets for a chapter: the chapter's own URL when it is on the Site's pin, else the
 * Series URL — a page may link its chapters anywhere, and a Reader who follows the link trusts it to be the
 * Site (docs/security.md).
 */
export function chapterLink(site: Pick<Site, 'hosts'>, chapterUrl: string, seriesUrl: string): string {
  if (chapterUrl === '') return ''
  // A URL as the parser writes it needs no parse (plain-url.ts): the same answer, for its host alone.
  const plain = plainHttpUrl(chapterUrl)
  if (plain) return site.hosts.includes(plain.host) ? chapterUrl : seriesUrl
  const url = parseUrl(chapterUrl)
  return url && isPinned(site, url) ? url.href : seriesUrl
}

/** Parses a URL, or returns null. */
export function parseUrl(raw: string, base?: string | URL): URL | null {
  try {
    return new URL(raw, base)
  } catch {
    return null
  }
}

/**
 * A series_id pattern: a built-in RegExp, or an owner's pattern run by the linear-time engine
 * (docs/adr/0027-owner-patterns-in-a-linear-time-engine.md). `exec` answers like `RegExp.prototype.exec`.
 */
export interface IdPattern {
  exec(target: string): { index: number; readonly [group: number]: string | undefined } | null
}

/**
 * Several built-in patterns read as one: the first that matches answers, its group 1 the id. A family whose
 * Sites write a Series in more than one shape (MangaBox's `/manga/<slug>`, `/manga-<id>` and `/read-<id>`)
 * keeps each shape's own pattern, so adding a shape never changes the id an older shape reads.
 */
export function firstOf(...patterns: readonly RegExp[]): IdPattern {
  return {
    exec(target) {
      for (const pattern of patterns) {
        const match = pattern.exec(target)
        if (match?.[1]) return match
      }
      return null
    },
  }
}

/**
 * A series_id rule from a pattern matched against the URL's path and query; group 1 is the id. Without a
 * pattern the id is the path without its surrounding slashes. The id is percent-decoded and must pass the one
 * id rule every entry applies (src/shared/ids.ts): a URL whose id decodes to a control character or a bidi
 * override (`/manga/a%00b/`) is not a Series URL, so no row can be made that the API could not name again.
 */
export function seriesIdRule(pattern: IdPattern | undefined): (url: URL) => string | null {
  return (url) => {
    const target = `${url.pathname}${url.search}`
    const id = pattern ? pattern.exec(target)?.[1] : trimSlashes(url.pathname)
    if (!id) return null
    const decoded = safeDecode(id)
    return decoded && decoded.length <= 200 && unsafeIdReason(decoded) === null ? decoded : null
  }
}

/** The path without its leading and trailing slashes, in one pass (a run of slashes costs its length once). */
function trimSlashes(path: string): string {
  let start = 0
  let end = path.length
  while (start < end && path[start] === '/') start++
  while (end > start && path[end - 1] === '/') end--
  return path.slice(start, end)
}

function safeDecode(s: string): string | null {
  try {
    return decodeURIComponent(s)
  } catch {
    return null
  }
}

/**
 * A Site's rules from its series_id pattern: the id, and the canonical Series URL — the path up to where the
 * id was read (a trailing slash kept), without the rest, the query or the fragment; where the id is read
 * from the query, the path and query as given.
 */
export function seriesRules(pattern: IdPattern | undefined): Pick<Site, 'seriesIdOf' | 'canonicalUrl'> {
  return {
    seriesIdOf: seriesIdRule(pattern),
    canonicalUrl(url) {
      const target = `${url.pathname}${url.search}`
      const match = pattern?.exec(target)
      if (!pattern) return `${url.origin}${url.pathname}`
      const whole = match?.[0]
      if (match && whole !== undefined && match.index === 0 && !whole.includes('?')) {
        return `${url.origin}${whole}${target.slice(whole.length).startsWith('/') ? '/' : ''}`
      }
      return `${url.origin}${url.pathname}${url.search}`
    },
  }
}

/** Whether a stored URL is on the pin of the Site its row names, among `sites` (false for a Site not among them). */
export function onSitePin(sites: readonly Pick<Site, 'key' | 'hosts'>[]): (site: string, url: string) => boolean {
  const byKey = new Map(sites.map((s) => [s.key, s]))
  return (key, raw) => {
    const site = byKey.get(key)
    const url = parseUrl(raw)
    return site !== undefined && url !== null && isPinned(site, url)
  }
}

/** One result as an adapter reads it; `url` absolute. */
export interface FoundSeries {
  title: string
  url: string
  coverUrl?: string
  latest?: string
}

/**
 * What the search is made for: the query, and the Site's base its search paths hang from (`https://host/`, or
 * `https://host/sub/` for a theme installed in a folder; always ending in `/`: paths are resolved relative to it).
 */
export interface SearchFor {
  query: string
  base: URL
}

/** An adapter's search: one request, one read. */
export interface SiteSearch {
  request(search: SearchFor): PageRequest
  read(page: Page, search: SearchFor): FoundSeries[]
}

/** One line of a latest-updates page: a Series that moved, and the newest chapter it shows, when it shows one. */
export interface FeedEntry {
  /** The Series' URL, absolute (the Site's series_id rule reads it). */
  seriesUrl: string
  /** The newest chapter the line shows (null when its label has no number or there is none). */
  chapter: number | null
  label: string
  /** When the Site says the line moved, on its own clock (Unix ms), where it says so exactly. */
  updatedAt?: number
}

/** A family's latest-updates page. */
export interface SiteFeed {
  /** The request, made from any Series URL of the Site (its origin and its Series directory). */
  request(seriesUrl: URL): PageRequest
  /** The entries, newest first, at most `MAX_FEED_ENTRIES`. */
  read(page: Page): FeedEntry[]
}
