/**
 * What the simulated Sites add for title search, covers and moves (docs/adr/0185-the-simulation-searches-and-moves.md):
 * - a Series that moves to a new slug (`planMoves`): from its move on, its old URL answers 404 or 410 and the new
 *   one serves the same chapters and the new ones; the Site's search lists it at the new URL;
 * - each Series page's cover (`coverUrl`): on the Site's host or its image host, a few changing once in a run;
 * - a search answer the way each family answers (`searchAnswer`): the Series whose title holds the query, at most
 *   SIM_SEARCH_RESULTS, in the family's own rows (Madara, MangaThemesia, Webtoons, MangaDex's API, a template's links).
 * Pure: no clock, no log; the Sites (sim-sites.ts) serve these and enter each request in their ledger.
 */
import { DAY, HOUR, type PageFamily, type SimSeries, type SimSite, type World } from './catalogue'
import type { Random } from './random'

/** Results one simulated search answers with at most (a first page of answers). */
export const SIM_SEARCH_RESULTS = 20
/** The path a selectors Site's search template asks (catalogue.ts gives the template). */
export const SELECTORS_SEARCH_PATH = '/search'
/** Families whose Series are addressed by a slug, so a Site of theirs can move one. */
const SLUG_FAMILIES: readonly PageFamily[] = ['madara', 'madara-xhr', 'mangathemesia', 'selectors']
/** How long the owner takes to accept a proposal once the app shows it: at once, or after a while. */
const ACCEPT_DELAYS_MS = [0, 2 * HOUR, 9 * HOUR] as const
/** How often the owner opens the window and looks at the "found again" proposals (search-actor.ts). */
export const OWNER_REVIEW_EVERY_MS = 2 * HOUR
/** Moves per simulated day. */
const MOVES_PER_DAY = 0.7

export interface SeriesMove {
  series: SimSeries
  /** Monotonic ms: from then on the old URL is gone and the new one serves. */
  at: number
  slug: string
  url: string
  /** What the old URL answers. */
  status: 404 | 410
  /** How long the owner waits, once a proposal shows, before accepting it. */
  acceptAfterMs: number
}

/** The Series the Sites move in a run, and how a URL reads at a moment. */
export class Moves {
  readonly #bySeries = new Map<string, SeriesMove>()
  readonly #bySlug = new Map<string, SeriesMove>()

  constructor(readonly list: readonly SeriesMove[]) {
    for (const m of list) {
      this.#bySeries.set(m.series.key, m)
      this.#bySlug.set(`${m.series.site}|${m.slug}`, m)
    }
  }

  /** The move of a Series done by `at`, if any. */
  movedBy(series: SimSeries, at: number): SeriesMove | undefined {
    const move = this.#bySeries.get(series.key)
    return move && move.at <= at ? move : undefined
  }

  /** The Series a new slug serves at `at` (undefined before its move). */
  bySlug(site: string, slug: string, at: number): SimSeries | undefined {
    const move = this.#bySlug.get(`${site}|${slug}`)
    return move && move.at <= at ? move.series : undefined
  }

  /** The Series' URL at `at`. */
  urlOf(series: SimSeries, at: number): string {
    return this.movedBy(series, at)?.url ?? series.url
  }
}

/**
 * The moves of a run: about MOVES_PER_DAY a day (at least one in a run of a day or more), each of a Series the
 * household holds on a slug Site, not Finished, not one of a flood; each in its own part of the run's first
 * two-thirds, so the gone checks, the search and the owner's answer fit before the end.
 */
export function planMoves(rng: Random, world: World): Moves {
  const days = (world.end - world.start) / DAY
  if (days < 1) return new Moves([])
  const candidates = world.series.filter(
    (s) =>
      s.initiallyHeld &&
      !s.initiallyFinished &&
      !s.flood &&
      SLUG_FAMILIES.includes(world.sites.find((x) => x.site.key === s.site)!.family) &&
      s.schedule[s.schedule.length - 1]!.cadence !== 'finished',
  )
  const count = Math.min(candidates.length, Math.max(1, Math.round(days * MOVES_PER_DAY)))
  const chosen = new Set<SimSeries>()
  while (chosen.size < count) chosen.add(rng.pick(candidates))
  const span = ((world.end - world.start) * 2) / 3
  return new Moves(
    [...chosen].map((series, i) => {
      const slug = `${series.slug}-${rng.pick(['2', 'new', 'official'])}`
      return {
        series,
        at: Math.round(world.start + (span * (i + rng.between(0.2, 0.8))) / count),
        slug,
        url: series.url.replace(`/${series.slug}/`, `/${slug}/`),
        status: rng.chance(0.5) ? 404 : 410,
        acceptAfterMs: rng.pick(ACCEPT_DELAYS_MS),
      }
    }),
  )
}

/** Every fifth Series gets a new cover this long into the run (its page names another image from then on). */
const COVER_CHANGE_AFTER = 1.5 * DAY

/**
 * The cover a Series page names at `at`: on the Site's image host for half the Series, else on its own host; the
 * same across a move; a new file for every fifth Series once COVER_CHANGE_AFTER has passed. MangaDex's feed
 * names none.
 */
export function coverUrl(sim: SimSite, series: SimSeries, world: Pick<World, 'start'>, at: number): string | undefined {
  if (sim.family === 'mangadex') return undefined
  const host = series.postId % 2 ? imageHost(sim) : sim.host
  const version = series.postId % 5 === 0 && at >= world.start + COVER_CHANGE_AFTER ? 2 : 1
  return `https://${host}/covers/${series.slug}-v${version}.png`
}

/** The image host a simulated Site lists (catalogue.ts). */
export function imageHost(sim: Pick<SimSite, 'host'>): string {
  return `img.${sim.host}`
}

/** A tiny PNG: the bytes a cover answer carries (its signature is what the app sniffs). */
export const COVER_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

/** The query of a search URL of the Site's family, or null when the URL is no search. */
export function searchQuery(sim: SimSite, url: URL): string | null {
  const params = url.searchParams
  switch (sim.family) {
    case 'madara':
    case 'madara-xhr':
      return url.host === sim.host && url.pathname === '/' && params.get('post_type') === 'wp-manga' ? params.get('s') : null
    case 'mangathemesia':
      return url.host === sim.host && url.pathname === '/manga/' ? params.get('title') : null
    case 'webtoons':
      return url.host === sim.host && url.pathname === '/en/search' ? params.get('keyword') : null
    case 'mangadex':
      return url.host === sim.apiHost && url.pathname === '/manga' ? params.get('title') : null
    case 'selectors':
      return url.host === sim.host && url.pathname === SELECTORS_SEARCH_PATH ? params.get('q') : null
  }
}

/** The Series of the Site a query finds: whose title holds it (case aside), by title, at most SIM_SEARCH_RESULTS. */
export function searchMatches(all: readonly SimSeries[], query: string): SimSeries[] {
  const q = query.trim().toLowerCase()
  if (!q) return []
  return all
    .filter((s) => s.title.toLowerCase().includes(q))
    .sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0))
    .slice(0, SIM_SEARCH_RESULTS)
}

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

export interface Found {
  series: SimSeries
  url: string
  cover: string | undefined
  latest: string | undefined
}

/** The search answer's body in the family's shape (MangaDex: its API's JSON). */
export function searchAnswer(sim: SimSite, found: readonly Found[]): string {
  const rows = found.map((f) => familyRow(sim.family, f)).join('\n')
  switch (sim.family) {
    case 'madara':
    case 'madara-xhr':
      return page('Search – Sim Scans', `<div class="c-tabs-item">${rows}</div>`)
    case 'mangathemesia':
      return page('Search - Sim Themesia', `<div class="listupd">${rows}</div>`)
    case 'webtoons':
      return page('Search | Sim Toons', `<ul class="webtoon_list">${rows}</ul>`)
    case 'selectors':
      return page('Search · Sim Reader', `<div class="results">${rows}</div>`)
    case 'mangadex':
      return JSON.stringify({
        result: 'ok',
        response: 'collection',
        data: found.map((f) => ({
          id: f.series.uuid,
          type: 'manga',
          attributes: { title: { en: f.series.title } },
          relationships: [
            { id: `${f.series.uuid.slice(0, 24)}c0ver0000000`, type: 'cover_art', attributes: { fileName: `${f.series.slug}.jpg` } },
          ],
        })),
        limit: SIM_SEARCH_RESULTS,
        offset: 0,
        total: found.length,
      })
  }
}

function familyRow(family: PageFamily, f: Found): string {
  const title = esc(f.series.title)
  const img = f.cover ? `<img src="${esc(f.cover)}" alt="">` : ''
  switch (family) {
    case 'madara':
    case 'madara-xhr':
      return `<div class="c-tabs-item__content"><div class="tab-thumb">${img}</div><div class="post-title"><h3><a href="${esc(f.url)}">${title}</a></h3></div>${f.latest ? `<div class="latest-chap"><span class="chapter"><a href="${esc(f.url)}">${esc(f.latest)}</a></span></div>` : ''}</div>`
    case 'mangathemesia':
      return `<div class="bs"><div class="bsx"><a href="${esc(f.url)}" title="${title}">${img}<div class="epxs">${esc(f.latest ?? '')}</div></a></div></div>`
    case 'webtoons':
      return `<li><a href="${esc(f.url)}">${img}<strong class="title">${title}</strong></a></li>`
    case 'selectors':
      return `<a href="${esc(f.url)}" title="${title}">${img}${title}</a>`
    case 'mangadex':
      return ''
  }
}

function page(title: string, body: string): string {
  return `<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title></head>\n<body>${body}</body></html>\n`
}
