/**
 * Searching a Site by title (docs/adr/0145-search-is-a-request-on-the-lane.md). A search is one request on the
 * Site's Lane: it takes its turn with the Lane's checks and Acquisitions (the shared pacer: a gap after the Site's
 * last request, whoever sent it), never while the Lane is paused or refusing, and a refusal it meets closes the
 * Lane as a check's would. A Reader makes at most SEARCHES_PER_READER_PER_MINUTE searches a minute (429 past it).
 * The answer keeps only results that are Series of the Site (on its pin, read by its series_id rule), so each one
 * can be followed with the bookmark-by-URL path.
 */
import { AppError } from '../../shared/errors'
import { safeText } from '../../shared/ids'
import {
  MAX_SEARCH_RESULTS,
  SEARCHES_PER_READER_PER_MINUTE,
  type SearchableSiteView,
  type SearchResponse,
  type SearchResultView,
} from '../../shared/search'
import { fetcherFor, type Fetcher, type FetchResult } from '../fetch/fetcher'
import { laneGate, refusalLength } from '../lanes/decisions'
import { absoluteHref, MAX_TITLE } from '../sites/html'
import type { FoundSeries, SearchFor, SiteSearch } from '../sites/search'
import { AdapterError, isPinned, parseUrl, type Page, type Site } from '../sites/site'
import { laneRow, recordRefusal } from '../store/lanes'
import { followedIds } from '../store/search'
import { knownSeriesKeys } from '../store/series-aliases'
import type { AcquireDeps } from './acquire'

const MINUTE = 60_000

export type SearchDeps = AcquireDeps & {
  /** Every search request that went out, by Site (the simulation counts them). */
  onSearch?(site: string): void
}

/** The words a Site that cannot be searched says, or undefined when it can. */
export function cannotSearchWhy(site: Site): string | undefined {
  if (site.adapter.search) return undefined
  return `${site.name} cannot be searched by title here: open the Site, find the Series and paste its URL`
}

/** Every Site, with whether it can be searched by title. */
export function searchableSites(sites: readonly Site[]): SearchableSiteView[] {
  return sites.map((site) => {
    const why = cannotSearchWhy(site)
    return { key: site.key, name: site.name, search: why === undefined, ...(why ? { why } : {}) }
  })
}

/** Searches per Reader in the last minute (in memory: a restart forgets, which errs on the generous side). */
const readerSearches = new WeakMap<object, Map<number, number[]>>()

/** A Reader's minute of searches: throws 429 in words when it is full, else counts this one. */
function takeSearchSlot(deps: SearchDeps, readerId: number): void {
  let windows = readerSearches.get(deps.pacer)
  if (!windows) readerSearches.set(deps.pacer, (windows = new Map()))
  const now = deps.clock.monotonic()
  const recent = (windows.get(readerId) ?? []).filter((at) => now - at < MINUTE)
  if (recent.length >= SEARCHES_PER_READER_PER_MINUTE) {
    windows.set(readerId, recent)
    const waitS = Math.max(1, Math.ceil((recent[0]! + MINUTE - now) / 1000))
    throw new AppError(
      'rate-limited',
      `you searched ${SEARCHES_PER_READER_PER_MINUTE} times in the last minute, the most a Reader may (each search is a request to the Site); search again in ${waitS} s`,
    )
  }
  windows.set(readerId, [...recent, now])
}

/** The base a Site's search paths hang from (ends in `/`). */
export function searchBase(site: Site): URL {
  const base = new URL(site.searchBase ?? `https://${site.hosts[0]}/`)
  return base.pathname.endsWith('/') ? base : new URL(`${base.href}/`)
}

/**
 * Searches `site` for `query`: the results on the Site's first page of answers. `readerId` is the Reader who
 * asked (bounded per minute, `following` read from their bookmarks); without one it is the owner (or the app
 * itself, finding a Series again), `following` read from the household's Series.
 */
export async function searchSite(deps: SearchDeps, input: { site: string; query: string; readerId?: number }): Promise<SearchResponse> {
  const site = deps.registry.get(input.site)
  if (!site) throw new AppError('not-found', `no Site "${input.site}"`)
  const search = site.adapter.search
  if (!search) throw new AppError('invalid', cannotSearchWhy(site)!)
  if (input.readerId !== undefined) takeSearchSlot(deps, input.readerId)
  const searchFor: SearchFor = { query: input.query, base: searchBase(site) }
  const request = search.request(searchFor)
  const target = parseUrl(request.url)
  if (!target || !isPinned(site, target))
    throw new AppError('invalid', `${site.name}'s search address is not on its host pin: ${request.url}`)
  const page = await fetchOnTheLane(deps, site, (fetcher) => fetcher.fetch(request, site, deps.signal))
  const found = page.status === 404 ? [] : readFound(site, search, page, searchFor)
  const results = await resultsOf(deps, site, found, input.readerId)
  deps.log.info({ site: site.key, results: results.length }, 'search: searched a Site by title')
  return { site: site.key, query: input.query, results }
}

/** Checks the Lane's gate, takes its turn, fetches; a refusal closes the Lane. Throws in words for anything but a page. */
async function fetchOnTheLane(deps: SearchDeps, site: Site, fetch: (fetcher: Fetcher) => Promise<FetchResult>): Promise<Page> {
  await gate(deps, site)
  const fetcher = fetcherFor(site, deps.fetchers)
  if (!fetcher) throw new AppError('conflict', `${site.name} needs the browser, which is not set up: it cannot be searched now`)
  if (fetcher.kind === 'browser' && deps.health.isDown())
    throw new AppError('conflict', `the browser that reads ${site.name} cannot be reached; search again later`)
  const turn = await deps.pacer.turn(site.key, site.pace.minGapMs, deps.signal)
  if (!turn) throw new AppError('conflict', 'the app is stopping; search again when it runs')
  let result: FetchResult
  try {
    // The Lane may have closed while the search waited for its turn.
    await gate(deps, site)
    // The turn is spent when the request goes out: a leased fetcher (the browser's one tab) may first wait for a
    // check still in it, and the next turn is measured from the request, not from that wait.
    const send = (leased: Fetcher) => {
      turn.sent()
      deps.onSearch?.(site.key)
      return fetch(leased)
    }
    result = await (fetcher.lease ? fetcher.lease(send) : send(fetcher))
  } finally {
    turn.skip()
  }
  return pageOf(deps, site, result)
}

async function gate(deps: SearchDeps, site: Site): Promise<void> {
  const state = laneGate(await laneRow(deps.db, site.key), deps.clock.now())
  if (state === 'paused') throw new AppError('conflict', `${site.name} is paused: no request goes to it until the pause ends`)
  if (state === 'refusing') throw new AppError('conflict', `${site.name} refused requests lately: search again once its Lane backs off`)
}

async function pageOf(deps: SearchDeps, site: Site, result: FetchResult): Promise<Page> {
  if (result.kind === 'page') {
    const { status } = result.page
    if (status === 200 || status === 204 || status === 404) return result.page
    throw new AppError('conflict', `${site.name} answered the search with HTTP ${status}`)
  }
  if (result.kind === 'refused') {
    const length = refusalLength(site.pace, result.retryAfterMs)
    const until = deps.clock.now() + length.ms
    await recordRefusal(deps.db, site.key, until, length.ms)
    deps.log.warn({ site: site.key, reason: result.reason, until }, 'search: refused; the Lane backs off')
    throw new AppError('conflict', `${site.name} refused the search (${result.reason}); its Lane backs off before any request`)
  }
  if (result.kind === 'unreachable') deps.health.markDown()
  throw new AppError('conflict', `${site.name} could not be searched: ${result.reason}`)
}

function readFound(site: Site, search: SiteSearch, page: Page, searchFor: SearchFor): FoundSeries[] {
  if (page.status === 204 || page.body.trim() === '') return []
  try {
    return search.read(page, searchFor)
  } catch (error) {
    const why = error instanceof AdapterError ? error.message : (error as Error).message
    throw new AppError('conflict', `${site.name}'s search answer could not be read: ${why}`)
  }
}

/**
 * The results as answered: Series of the Site only (on its pin, with an id), each once (the first title, the
 * first cover and latest chapter any of its links gave), site text made safe, at most MAX_SEARCH_RESULTS.
 */
async function resultsOf(deps: SearchDeps, site: Site, found: readonly FoundSeries[], readerId?: number): Promise<SearchResultView[]> {
  const byId = new Map<string, Omit<SearchResultView, 'following'>>()
  // A cover link without a title (the image beside the title link) gives its cover to the result it names.
  const covers = new Map<string, string>()
  for (const f of found) {
    const url = parseUrl(f.url)
    if (!url || !isPinned(site, url)) continue
    const seriesId = site.seriesIdOf(url)
    if (!seriesId) continue
    const title = safeText(f.title, MAX_TITLE)
    const coverUrl = f.coverUrl ? absoluteHref(f.coverUrl, url.href) : ''
    const latest = f.latest ? safeText(f.latest, 80) : ''
    const had = byId.get(seriesId)
    if (had) {
      had.coverUrl ??= coverUrl || undefined
      had.latest ??= latest || undefined
      continue
    }
    if (!title && coverUrl) covers.set(seriesId, coverUrl)
    if (!title || byId.size >= MAX_SEARCH_RESULTS) continue
    const canonical = site.canonicalUrl?.(url) ?? url.href
    byId.set(seriesId, { title, url: canonical, seriesId, ...(coverUrl ? { coverUrl } : {}), ...(latest ? { latest } : {}) })
  }
  for (const [id, cover] of covers) {
    const result = byId.get(id)
    if (result) result.coverUrl ??= cover
  }
  // A result at the URL a Series moved to is that Series (docs/adr/0233-a-moved-series-is-one-series.md).
  const known = await knownSeriesKeys(
    deps.db,
    [...byId.keys()].map((seriesId) => ({ site: site.key, seriesId })),
  )
  const idOf = (id: string) => known.get(`${site.key}\u0000${id}`)?.seriesId ?? id
  const followed = await followedIds(deps.db, site.key, [...byId.keys()].map(idOf), readerId)
  return [...byId.values()].map((r) => ({ ...r, following: followed.has(idOf(r.seriesId)) }))
}
