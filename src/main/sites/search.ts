/**
 * Searching a Site by title (docs/adr/0145-search-is-a-request-on-the-lane.md): what an adapter that can search
 * asks for, and how it reads the answer into results. Pure: no I/O, no clock. The caller keeps only results whose
 * URL is a Series of the Site (on its pin, read by its series_id rule), so a result can always be followed.
 */
import type { Element } from 'domhandler'
import { absoluteHref, cleanText, findFirst, loadHtml, MAX_TITLE, readableText, selectAll, type Doc } from './html'
import { AdapterError, type FoundSeries, type Page, type SearchFor, type SiteSearch } from './site'

export type { FoundSeries, SearchFor, SiteSearch } from './site'

/** Rows read from one answer, at most: the first page of a Site's results is a few dozen. */
export const MAX_FOUND = 60

/** A row-based HTML search: the URL to GET, the rows, and in each row the link, title, cover and latest chapter. */
export interface HtmlSearchShape {
  url(search: SearchFor): string
  rows: string
  /** The link inside the row (`:self` for a row that is the link). */
  link: string
  /** Where the title is: the link's `title` attribute, the link's text, or an element of the row. */
  title: 'attr:title' | 'text' | { selector: string }
  /** The latest chapter's element inside the row, when the Site's results show one. */
  latest?: string
  /** The row's cover: an `img`, or an element with a `background-image` style. */
  cover?: 'img' | 'background'
  /** Keeps only rows whose title holds the query (a Site whose search page lists every Series). */
  filterByQuery?: boolean
}

export function htmlSearch(shape: HtmlSearchShape): SiteSearch {
  return {
    request: (search) => ({ url: shape.url(search), method: 'GET' }),
    read(page, search) {
      const $ = loadHtml(page.body)
      const found: FoundSeries[] = []
      for (const row of selectAll($, shape.rows).slice(0, MAX_FOUND * 2)) {
        const result = readRow($, row, shape, page.url)
        if (!result) continue
        if (shape.filterByQuery && !result.title.toLowerCase().includes(search.query.toLowerCase())) continue
        found.push(result)
        if (found.length >= MAX_FOUND) break
      }
      return found
    },
  }
}

function readRow($: Doc, row: Element, shape: HtmlSearchShape, pageUrl: string): FoundSeries | null {
  const link = shape.link === ':self' ? row : ($(row).find(shape.link).get(0) as Element | undefined)
  const href = absoluteHref(link?.attribs['href'], pageUrl)
  if (!link || !href) return null
  const title =
    shape.title === 'attr:title'
      ? cleanText(link.attribs['title'], MAX_TITLE) || readableText(link, MAX_TITLE)
      : shape.title === 'text'
        ? readableText(link, MAX_TITLE)
        : readableText($(row).find(shape.title.selector).get(0), MAX_TITLE)
  if (!title) return null
  const latest = shape.latest ? readableText($(row).find(shape.latest).get(0), 80) : ''
  const coverUrl = shape.cover === 'background' ? backgroundImage(row, pageUrl) : shape.cover === 'img' ? imageOf(row, pageUrl) : ''
  return { title, url: href, ...(coverUrl ? { coverUrl } : {}), ...(latest ? { latest } : {}) }
}

/** The image an `img` under `root` shows: a lazy loader's attribute first, then the first of `srcset`, then `src`. */
export function imageOf(root: Element, pageUrl: string): string {
  const img = root.name === 'img' ? root : findFirst(root, (el) => el.name === 'img')
  if (!img) return ''
  const a = img.attribs
  const candidate = a['data-src'] || a['data-lazy-src'] || a['srcset']?.trim().split(/\s+/)[0] || a['data-cfsrc'] || a['src']
  return absoluteHref(candidate, pageUrl)
}

/** The URL in a `background-image: url(…)` style of `root` or the first element under it that has one. */
function backgroundImage(root: Element, pageUrl: string): string {
  const has = (el: Element) => /background-image/.test(el.attribs['style'] ?? '')
  const el = has(root) ? root : findFirst(root, has)
  const url = /url\(\s*['"]?([^'")\s]{1,2048})/.exec(el?.attribs['style'] ?? '')?.[1]
  return absoluteHref(url, pageUrl)
}

/** A URL under the Site's base: `path` (relative) with `params` as its query. */
export function siteUrl(base: URL, path: string, params: Record<string, string> = {}): string {
  const url = new URL(path, base)
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value)
  return url.href
}

/**
 * A search from an owner's URL template in sites.json (`"search": "https://host/?s={query}"`): the query is
 * put in where `{query}` stands, percent-encoded; the results are every link on the answer that is a Series of
 * the Site (the caller's rule), titled by its `title` attribute or its text, with the first image inside it (a
 * link with an image and no title is kept untitled: the caller gives its cover to the titled link of the same Series).
 */
export function templateSearch(template: string): SiteSearch {
  return {
    request: ({ query }) => ({ url: template.replaceAll('{query}', encodeURIComponent(query)), method: 'GET' }),
    read(page) {
      const $ = loadHtml(page.body)
      const found: FoundSeries[] = []
      for (const link of selectAll($, 'a[href]').slice(0, 5_000)) {
        const url = absoluteHref(link.attribs['href'], page.url)
        const title = cleanText(link.attribs['title'], MAX_TITLE) || readableText(link, MAX_TITLE)
        const coverUrl = imageOf(link, page.url)
        // A cover link without a title is kept: its cover goes to the titled result of the same Series.
        if (!url || (!title && !coverUrl)) continue
        found.push({ title, url, ...(coverUrl ? { coverUrl } : {}) })
      }
      return found
    },
  }
}

/** A JSON answer, or an AdapterError saying it is not one. */
export function jsonOf(page: Page): unknown {
  try {
    return JSON.parse(page.body) as unknown
  } catch {
    throw new AdapterError(`the search answer is not JSON (${page.contentType || 'no content type'})`)
  }
}

/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
