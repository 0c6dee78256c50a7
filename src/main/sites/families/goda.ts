/**
 * GoDa (GoDa漫画 on baozimh.org and its mirrors, 18漫画 on 18mh.org, Goda on manhuascans.org: 3 known sources). A
 * Series is `/manga/{slug}`; its page names the title in `main h1` (its own text) and the Series' id as
 * `#mangachapters[data-mid]`. The chapters come from a second request by that id:
 * - on most sites `GET /manga/get?mid={id}&mode=all` on the same host, HTML with one `.chapteritem` a chapter, its
 *   `a` the link and `data-ct` the name;
 * - on GoDa漫画's hosts, the group's JSON API `GET https://api-get-v3.mgsearcher.com/api/manga/get?mid={id}&mode=all`:
 *   `data.slug` and `data.chapters[]` with `attributes.title` (the name), `attributes.slug` (the page is
 *   `/manga/{data.slug}/{slug}`) and `attributes.updatedAt` (ISO).
 * The API's host is on the pin of every GoDa Site; only GoDa漫画's are asked there
 * (docs/adr/0213-libgroup-goda-and-bilimanga-adapters.md). Facts from the extension repository's GoDa theme and its baozimhorg
 * extension (commit fd4236e034ea55f9df1799bf34b7c713f1a46780), read to write our own pages and answers.
 */
import { parseChapterNumber } from '../../../shared/chapter-number'
import { parseReleaseDate } from '../dates'
import { MAX_LABEL, absoluteHref, boundedRows, cleanText, distinctChapters, loadHtml, selectAll, titleOf } from '../html'
import { AdapterError, type Adapter, type AdapterStep, type Chapter } from '../site'
import { readJson } from './json'

export const GODA_ID_PATTERN = /^\/manga\/([A-Za-z0-9_-]{1,200})\/?(?:[?#]|$)/

/** The JSON API GoDa漫画's chapter lists come from. */
export const GODA_API = 'https://api-get-v3.mgsearcher.com'

/** GoDa漫画's hosts (its base and mirrors in the extension), without "www.": their lists come from `GODA_API`. */
const API_SITES = new Set(['baozimh.org', 'godamh.com', 'm.baozimh.one', 'bzmh.org', 'g-mh.org', 'm.g-mh.org'])

const MID = /^\d{1,12}$/
const SLUG = /^[A-Za-z0-9_-]{1,200}$/

interface GodaChapter {
  attributes?: { title?: unknown; slug?: unknown; updatedAt?: unknown } | null
}

export function godaAdapter(): Adapter {
  return {
    recipe: { family: 'goda' },
    request(seriesUrl) {
      if (!GODA_ID_PATTERN.test(seriesUrl.pathname)) throw new AdapterError(`not a GoDa Series URL: ${seriesUrl.pathname}`)
      return { url: seriesUrl.href, method: 'GET' }
    },
    read(page, seriesUrl) {
      if (/^\s*\{/.test(page.body.slice(0, 100))) return { kind: 'parsed', result: { chapters: fromApi(page.body, seriesUrl) } }
      if (new URL(page.url).pathname === '/manga/get') return { kind: 'parsed', result: { chapters: fromList(page.body, page.url) } }
      return seriesPage(page.body, seriesUrl)
    },
  }
}

/** The Series page: its title, and the request for its chapter list by the id it names. */
function seriesPage(body: string, seriesUrl: URL): AdapterStep {
  const $ = loadHtml(body)
  const mid = $('#mangachapters').first().attr('data-mid')?.trim() ?? ''
  const heading = $('main h1').first().clone()
  heading.children().remove()
  const title = cleanText(heading.text(), MAX_LABEL) || titleOf($, ['h1'])
  if (!MID.test(mid)) throw new AdapterError('GoDa: the Series page names no #mangachapters[data-mid]')
  const onApi = API_SITES.has(seriesUrl.hostname.toLowerCase().replace(/^www\./, ''))
  const base = onApi ? GODA_API : seriesUrl.origin
  const url = `${base}${onApi ? '/api' : ''}/manga/get?mid=${mid}&mode=all`
  return {
    kind: 'follow',
    request: { url, method: 'GET', headers: { Accept: onApi ? 'application/json' : 'text/html' } },
    partial: title ? { title } : {},
  }
}

/** The same host's list: `.chapteritem` rows, the name in the link's `data-ct`. */
function fromList(body: string, pageUrl: string): Chapter[] {
  const $ = loadHtml(body)
  return distinctChapters(
    boundedRows(selectAll($, '.chapteritem')).map((row) => {
      const link = $(row).find('a').first()
      const href = link.attr('href')
      const label = cleanText(link.attr('data-ct') || link.text(), MAX_LABEL)
      const number = parseChapterNumber(label)
      if (!href || number === null) return null
      return { number, label, url: absoluteHref(href, pageUrl) }
    }),
  )
}

/** GoDa漫画's API answer: `data.slug` and `data.chapters[].attributes`. */
function fromApi(body: string, seriesUrl: URL): Chapter[] {
  const json = readJson(body, 'GoDa: the chapter list') as { data?: { slug?: unknown; chapters?: unknown } | null } | null
  const data = json?.data
  const chapters = data?.chapters ?? []
  if (!Array.isArray(chapters)) throw new AdapterError('GoDa: the answer has no chapters array')
  const slug = typeof data?.slug === 'string' && SLUG.test(data.slug) ? data.slug : GODA_ID_PATTERN.exec(seriesUrl.pathname)?.[1]
  return distinctChapters(
    boundedRows(chapters as Array<GodaChapter | null>).map((c): Chapter | null => {
      const a = c?.attributes
      if (!a || typeof a.title !== 'string' || typeof a.slug !== 'string' || !SLUG.test(a.slug) || !slug) return null
      const label = cleanText(a.title, MAX_LABEL)
      const number = parseChapterNumber(label)
      if (number === null) return null
      const released = typeof a.updatedAt === 'string' ? parseReleaseDate(a.updatedAt) : null
      return { number, label, url: absoluteHref(`/manga/${slug}/${a.slug}`, seriesUrl.origin), ...(released ? { released } : {}) }
    }),
  )
}
