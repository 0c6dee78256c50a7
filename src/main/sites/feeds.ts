/**
 * A Site's latest-updates page (its "feed"): the one page that lists the Series that moved last, newest first —
 * the page Mihon's "Latest" tab reads. Per family: the request, and its read into entries (docs/adr/0165-site-feeds.md).
 * Requests and selectors are the peers' (keiyoushi/extensions-source fd4236e0, lib-multisrc/<theme>
 * `latestUpdatesRequest`): Madara `/<manga dir>/?m_orderby=latest`, MangaThemesia `/<manga dir>/?order=update`,
 * MangaBox `/manga-list/latest-manga?page=1`, MangaDex `GET {api}/chapter?order[publishAt]=desc`.
 * Pure: no I/O, no clock. A page the read cannot make sense of throws an `AdapterError` (the Lane then falls
 * back to its cadence and says so).
 */
import type { Element } from 'domhandler'
import { parseChapterNumber } from '../../shared/chapter-number'
import { absoluteHref, cleanText, loadHtml, selectAll, type Doc } from './html'
import type { FamiliesThat } from '../../shared/site-families'
import { AdapterError, type Adapter, type FeedEntry, type Page, type SiteFeed } from './site'

export type { FeedEntry, SiteFeed } from './site'

/** The lines one read keeps: a latest page is a page, not a catalogue. */
export const MAX_FEED_ENTRIES = 200

/** The first path segment of a Series URL (`/manga/slug/` → `manga`), the directory a theme lists its Series under. */
function seriesDirectory(seriesUrl: URL, fallback: string): string {
  const first = seriesUrl.pathname.split('/').find((segment) => segment !== '')
  return first && first !== seriesUrl.pathname.replace(/\//g, '') ? first : fallback
}

interface HtmlFeedShape {
  /** One line of the list. */
  item: string
  /** The Series' link inside a line. */
  series: string
  /** The newest chapter's link (or label) inside a line; the first that matches is the newest. */
  chapter: string
}

/** Reads an HTML latest page of one shape: each line's Series link and its first chapter label. */
function readHtmlFeed(page: Page, shape: HtmlFeedShape): FeedEntry[] {
  if (page.status !== 200) throw new AdapterError(`latest page answered ${page.status}`)
  const $ = loadHtml(page.body)
  const items = selectAll($, shape.item)
  if (items.length === 0) throw new AdapterError('latest page lists no Series')
  const entries: FeedEntry[] = []
  const seen = new Set<string>()
  for (const item of items) {
    const entry = htmlEntry($, item, shape, page.url)
    if (!entry || seen.has(entry.seriesUrl)) continue
    seen.add(entry.seriesUrl)
    entries.push(entry)
    if (entries.length >= MAX_FEED_ENTRIES) break
  }
  if (entries.length === 0) throw new AdapterError('latest page has no Series link')
  return entries
}

function htmlEntry($: Doc, item: Element, shape: HtmlFeedShape, base: string): FeedEntry | null {
  const link = $(item).find(shape.series).first()
  const seriesUrl = absoluteHref(link.attr('href'), base)
  if (!seriesUrl) return null
  const label = cleanText($(item).find(shape.chapter).first().text())
  return { seriesUrl, chapter: label ? parseChapterNumber(label) : null, label }
}

/** Madara: the Series directory ordered by latest (each line's `.chapter-item` lists its newest chapters first). */
export const madaraFeed: SiteFeed = {
  request(seriesUrl) {
    return { url: `${seriesUrl.origin}/${seriesDirectory(seriesUrl, 'manga')}/?m_orderby=latest`, method: 'GET' }
  },
  read(page) {
    return readHtmlFeed(page, {
      item: 'div.page-item-detail, .manga__item',
      series: 'div.post-title a, .post-title a, h3 a',
      chapter: '.chapter-item .chapter a, .chapter-item a, .list-chapter a',
    })
  },
}

/** MangaThemesia: the Series directory ordered by update (`.bs .bsx` cards, the newest chapter in `.epxs`). */
export const mangaThemesiaFeed: SiteFeed = {
  request(seriesUrl) {
    return { url: `${seriesUrl.origin}/${seriesDirectory(seriesUrl, 'manga')}/?order=update`, method: 'GET' }
  },
  read(page) {
    return readHtmlFeed(page, {
      item: '.listupd .bs .bsx, .utao .uta .imgu, .listo .bs .bsx',
      series: 'a[href]',
      chapter: '.epxs, .adds .epxs, li a',
    })
  },
}

/** MangaBox: `/manga-list/latest-manga?page=1` (each line's first chapter link is its newest). */
export const mangaBoxFeed: SiteFeed = {
  request(seriesUrl) {
    return { url: `${seriesUrl.origin}/manga-list/latest-manga?page=1`, method: 'GET' }
  },
  read(page) {
    return readHtmlFeed(page, {
      item: 'div.truyen-list > div.list-truyen-item-wrap, div.comic-list > .list-comic-item-wrap',
      series: 'h3 a',
      chapter: 'a.list-story-item-wrap-chapter, .list-story-item-wrap-chapter, h3 ~ a',
    })
  },
}

/**
 * MangaDex: the API's newest chapters by publishAt in the Site's languages, each with its manga; one line per
 * manga (its first, newest chapter), its Series URL `<origin>/title/<uuid>` on the Site's own origin.
 */
export function mangaDexFeed(apiBase: string, languages: readonly string[]): SiteFeed {
  return {
    request() {
      const query = new URLSearchParams()
      for (const language of languages) query.append('translatedLanguage[]', language)
      query.append('order[publishAt]', 'desc')
      query.append('limit', '100')
      query.append('includeFuturePublishAt', '0')
      query.append('includeEmptyPages', '0')
      query.append('includes[]', 'manga')
      return { url: `${apiBase.replace(/\/$/, '')}/chapter?${query}`, method: 'GET', headers: { Accept: 'application/json' } }
    },
    read(page) {
      return readMangaDexFeed(page)
    },
  }
}

interface DexChapter {
  attributes?: { chapter?: unknown; title?: unknown; publishAt?: unknown; readableAt?: unknown }
  relationships?: Array<{ id?: unknown; type?: unknown }>
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

function readMangaDexFeed(page: Page): FeedEntry[] {
  if (page.status !== 200) throw new AdapterError(`latest chapters answered ${page.status}`)
  let json: unknown
  try {
    json = JSON.parse(page.body)
  } catch {
    throw new AdapterError('MangaDex latest chapters are not JSON')
  }
  const data = (json as { data?: unknown } | null)?.data
  if (!Array.isArray(data)) throw new AdapterError('MangaDex latest chapters have no data array')
  const site = new URL(page.url)
  const origin = site.hostname.startsWith('api.') ? `${site.protocol}//${site.host.slice(4)}` : site.origin
  const entries: FeedEntry[] = []
  const seen = new Set<string>()
  for (const raw of data.slice(0, MAX_FEED_ENTRIES * 5) as DexChapter[]) {
    const manga = raw?.relationships?.find((r) => r?.type === 'manga')?.id
    if (typeof manga !== 'string' || !UUID.test(manga) || seen.has(manga)) continue
    seen.add(manga)
    const number = raw.attributes?.chapter
    const chapter = typeof number === 'string' && number.trim() !== '' && Number.isFinite(Number(number)) ? Number(number) : null
    const at = Date.parse(String(raw.attributes?.readableAt ?? raw.attributes?.publishAt ?? ''))
    const label = chapter === null ? cleanText(String(raw.attributes?.title ?? '')) : `Chapter ${number as string}`
    entries.push({ seriesUrl: `${origin}/title/${manga}`, chapter, label, ...(Number.isFinite(at) ? { updatedAt: at } : {}) })
    if (entries.length >= MAX_FEED_ENTRIES) break
  }
  return entries
}

/**
 * The feed of each family whose descriptor says it publishes one (src/shared/site-families.ts; the others keep
 * their cadence alone); MangaDex's is read from its API (`siteFeed`).
 */
const FAMILY_FEEDS: Record<Exclude<FamiliesThat<'feed'>, 'mangadex'>, SiteFeed> = {
  madara: madaraFeed,
  mangathemesia: mangaThemesiaFeed,
  mangabox: mangaBoxFeed,
}

/** A Site's feed: its adapter's own, else its family's (from the adapter's recipe), else none. */
export function siteFeed(adapter: Pick<Adapter, 'latest' | 'recipe'>): SiteFeed | undefined {
  if (adapter.latest) return adapter.latest
  const recipe = adapter.recipe
  if (!recipe || !('family' in recipe)) return undefined
  if (recipe.family === 'mangadex') return mangaDexFeed(recipe.apiBase, recipe.languages?.length ? recipe.languages : ['en'])
  return Object.hasOwn(FAMILY_FEEDS, recipe.family) ? FAMILY_FEEDS[recipe.family as keyof typeof FAMILY_FEEDS] : undefined
}
