/**
 * How each family searches its Sites by title, as their themes do (read in the extension sources,
 * keiyoushi/extensions-source at fd4236e0: lib-multisrc/<theme>/ and src/all/<source>/; our own code):
 * - Madara: `GET /?s=<q>&post_type=wp-manga`; rows `div.c-tabs-item__content, .manga__item`, the link
 *   `.post-title a` (its text the title), the latest chapter `.latest-chap .chapter a`.
 * - MangaThemesia: `GET /manga/?title=<q>&page=1`; rows `.utao .uta .imgu, .listupd .bs .bsx, .listo .bs .bsx`,
 *   the link's `title` attribute the title, the latest chapter `.epxs`.
 * - MangaBox: `GET /search/story/<q as the theme writes it: lowercase, accents dropped, punctuation "_">`; rows
 *   `.panel_story_list .story_item, div.list-truyen-item-wrap, div.list-comic-item-wrap`, the link `h3 a`.
 * - Webtoons: `GET /en/search?keyword=<q>`; rows `.webtoon_list li a` (the row is the link), the title `.title`.
 * - ZeistManga (Blogger): `GET /feeds/posts/default/-/Series?alt=json&max-results=20&q=label:Series+<q>`; the
 *   entries labelled `Series`, the `alternate` link, `media$thumbnail`.
 * - Keyoapp: `GET /series/?q=<q>`; rows `#searched_series_page > button` (the page lists every Series: kept when
 *   the title holds the query), the link's `title`, the cover a `background-image`.
 * - MangaDex: `GET {api}/manga?title=<q>&limit=20&includes[]=cover_art`; the title the English one, else the first.
 * The other families (ComiciViewer, MadTheme, MangaCatalog, PizzaReader) have no search here yet: they say so.
 */
import { htmlSearch, isRecord, jsonOf, siteUrl, type FoundSeries, type SiteSearch } from '../search'
import { AdapterError } from '../site'
import type { FamiliesThat, FamilyKey } from '../../../shared/site-families'

export const madaraSearch: SiteSearch = htmlSearch({
  url: ({ query, base }) => siteUrl(base, './', { s: query, post_type: 'wp-manga' }),
  rows: 'div.c-tabs-item__content, .manga__item',
  link: '.post-title a',
  title: 'text',
  latest: '.latest-chap .chapter a',
  cover: 'img',
})

export const mangaThemesiaSearch: SiteSearch = htmlSearch({
  url: ({ query, base }) => siteUrl(base, 'manga/', { title: query, page: '1' }),
  rows: '.utao .uta .imgu, .listupd .bs .bsx, .listo .bs .bsx',
  link: 'a',
  title: 'attr:title',
  latest: '.epxs',
  cover: 'img',
})

export const mangaBoxSearch: SiteSearch = htmlSearch({
  url: ({ query, base }) => siteUrl(base, `search/story/${encodeURIComponent(mangaBoxQuery(query))}`),
  rows: '.panel_story_list .story_item, div.list-truyen-item-wrap, div.list-comic-item-wrap',
  link: 'h3 a',
  title: 'text',
  latest: '.story_chapter a, a.list-story-item-wrap-chapter, .item-chapter a',
  cover: 'img',
})

/** The query as MangaBox's own `change_alias` writes it: lowercase, accents dropped, each run of punctuation one `_`. */
export function mangaBoxQuery(query: string): string {
  return query
    .toLowerCase()
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/đ/g, 'd')
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '')
}

export const webtoonsSearch: SiteSearch = htmlSearch({
  url: ({ query, base }) => siteUrl(base, 'en/search', { keyword: query }),
  rows: '.webtoon_list li a',
  link: ':self',
  title: { selector: '.title' },
  cover: 'img',
})

export const keyoappSearch: SiteSearch = htmlSearch({
  url: ({ query, base }) => siteUrl(base, 'series/', { q: query }),
  rows: '#searched_series_page > button',
  link: 'a[href]',
  title: 'attr:title',
  cover: 'background',
  filterByQuery: true,
})

const ZEIST_CATEGORY = 'Series'

export const zeistMangaSearch: SiteSearch = {
  request: ({ query, base }) => {
    const url = new URL(`feeds/posts/default/-/${ZEIST_CATEGORY}`, base)
    url.search = `alt=json&max-results=20&q=label:${ZEIST_CATEGORY}+${encodeURIComponent(query)}`
    return { url: url.href, method: 'GET' }
  },
  read(page) {
    const json = jsonOf(page)
    const entries = isRecord(json) && isRecord(json['feed']) ? json['feed']['entry'] : undefined
    if (entries === undefined) return []
    if (!Array.isArray(entries)) throw new AdapterError('the feed has no list of entries')
    return entries.slice(0, 60).flatMap((entry): FoundSeries[] => {
      if (!isRecord(entry)) return []
      const labels = Array.isArray(entry['category']) ? entry['category'] : []
      if (!labels.some((c) => isRecord(c) && c['term'] === ZEIST_CATEGORY)) return []
      const title = textOf(entry['title'])
      const links = Array.isArray(entry['link']) ? entry['link'] : []
      const link = links.find((l) => isRecord(l) && l['rel'] === 'alternate')
      const url = isRecord(link) && typeof link['href'] === 'string' ? link['href'] : ''
      const thumb = isRecord(entry['media$thumbnail']) ? entry['media$thumbnail']['url'] : undefined
      if (!title || !url) return []
      return [{ title, url, ...(typeof thumb === 'string' && thumb ? { coverUrl: thumb } : {}) }]
    })
  },
}

function textOf(value: unknown): string {
  return isRecord(value) && typeof value['$t'] === 'string' ? value['$t'].trim() : ''
}

/** MangaDex: the API at `apiBase`, the Series pages on the Site's own origin. */
export function mangaDexSearch(apiBase: string, languages: readonly string[]): SiteSearch {
  return {
    request: ({ query }) => {
      const params = new URLSearchParams({ title: query, limit: '20' })
      params.append('includes[]', 'cover_art')
      for (const language of languages) params.append('availableTranslatedLanguage[]', language)
      return { url: `${apiBase}/manga?${params.toString()}`, method: 'GET' }
    },
    read(page, { base }) {
      const json = jsonOf(page)
      const data = isRecord(json) ? json['data'] : undefined
      if (!Array.isArray(data)) throw new AdapterError('the search answer has no "data" list')
      return data.slice(0, 60).flatMap((manga): FoundSeries[] => {
        if (!isRecord(manga) || typeof manga['id'] !== 'string' || !isRecord(manga['attributes'])) return []
        const title = mangaDexTitle(manga['attributes']['title'], languages)
        if (!title) return []
        const cover = coverFile(manga['relationships'])
        const coverUrl = cover ? `https://uploads.mangadex.org/covers/${manga['id']}/${cover}.256.jpg` : undefined
        return [{ title, url: new URL(`title/${manga['id']}`, base).href, ...(coverUrl ? { coverUrl } : {}) }]
      })
    },
  }
}

function mangaDexTitle(titles: unknown, languages: readonly string[]): string {
  if (!isRecord(titles)) return ''
  for (const language of [...languages, 'en']) if (typeof titles[language] === 'string') return titles[language]
  return Object.values(titles).find((t): t is string => typeof t === 'string') ?? ''
}

function coverFile(relationships: unknown): string | undefined {
  if (!Array.isArray(relationships)) return undefined
  const art = relationships.find((r) => isRecord(r) && r['type'] === 'cover_art')
  const file = isRecord(art) && isRecord(art['attributes']) ? art['attributes']['fileName'] : undefined
  return typeof file === 'string' && /^[\w.-]{1,200}$/.test(file) ? file : undefined
}

/** The search of each family whose descriptor says it searches (src/shared/site-families.ts); MangaDex's is its API's (index.ts). */
export const FAMILY_SEARCH: Record<Exclude<FamiliesThat<'searches'>, 'mangadex'>, SiteSearch> = {
  madara: madaraSearch,
  mangathemesia: mangaThemesiaSearch,
  mangabox: mangaBoxSearch,
  webtoons: webtoonsSearch,
  zeistmanga: zeistMangaSearch,
  keyoapp: keyoappSearch,
}

/** A family's search (not MangaDex's, made with its options in index.ts), or undefined when it has none. */
export function familySearch(key: Exclude<FamilyKey, 'mangadex'>): SiteSearch | undefined {
  return Object.hasOwn(FAMILY_SEARCH, key) ? FAMILY_SEARCH[key as keyof typeof FAMILY_SEARCH] : undefined
}
