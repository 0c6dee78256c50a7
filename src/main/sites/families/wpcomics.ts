/**
 * WPComics (7 known sources, mostly Vietnamese: NetTruyen, NhatTruyen, TopTruyen, DocTruyen3Q; XOXO Comics,
 * Raw18). A Series is `/{section}/{slug}` (`/truyen-tranh/{slug}`, `/comic/{slug}`); its page lists the chapters
 * as `div.list-chapter li.row` rows (the `.heading` row and hidden `[style]` rows not), the link and name in the
 * row's `a`, the date in `div.col-xs-4` (or the cell after `.chapters`), day first ("28/11/2026"). Where the page
 * lists none (the NetTruyen sites load it by script), the list is the site's JSON,
 * `GET /Comic/Services/ComicService.asmx/ChapterList?slug={slug}`: `data[]` with `chapter_name`, `chapter_slug`
 * (the chapter's page is `/{section}/{slug}/{chapter_slug}`) and `updated_at` ("2026-11-28 10:15:00"). The title
 * is `h1.title-detail` (`h1.title-manga`). Facts from the extension repository's WPComics theme and its
 * extensions, read to write our own pages and answers.
 */
import { parseChapterNumber } from '../../../shared/chapter-number'
import { parseReleaseDate } from '../dates'
import {
  MAX_DATE,
  MAX_LABEL,
  boundedRows,
  cleanText,
  distinctChapters,
  findFirst,
  hasClass,
  loadHtml,
  readableText,
  selectAll,
  titleOf,
} from '../html'
import { AdapterError, type Adapter, type AdapterStep, type Chapter } from '../site'
import { parseDayFirstDate } from './day-first'
import { readJson } from './json'
import { isLink, rowChapter } from './rows'
import { rowsUnder, tagWithClass } from './walk'
import type { Element } from 'domhandler'

export const WPCOMICS_ID_PATTERN = /^\/[^/?#]+\/([^/?#]+)/

/** The chapter rows: what Add a Site recognises the family by. */
export const WPCOMICS_ROWS = 'div.list-chapter li.row:not(.heading):not([style])'

/** A chapter row (as WPCOMICS_ROWS, under `div.list-chapter`): `li.row`, not the heading, not hidden by a style. */
const isRow = (el: Element): boolean => tagWithClass('li', 'row')(el) && !hasClass(el, 'heading') && el.attribs['style'] === undefined

/** A row's date cell: the theme's, XOXO's narrower one, or the cell after `.chapters`. */
function isDate(el: Element): boolean {
  if (el.name !== 'div') return false
  if (hasClass(el, 'col-xs-4') || hasClass(el, 'col-xs-3')) return true
  let before = el.prev
  while (before && before.type !== 'tag') before = before.prev
  return before !== null && hasClass(before as Element, 'chapters')
}

const SLUG = /^[0-9A-Za-z_.-]{1,200}$/

export function wpComicsAdapter(): Adapter {
  return {
    recipe: { family: 'wpcomics' },
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page, seriesUrl) {
      if (/^\s*\{/.test(page.body.slice(0, 100))) return { kind: 'parsed', result: { chapters: listed(page.body, seriesUrl) } }
      return readPage(page.body, page.url, seriesUrl)
    },
  }
}

function readPage(body: string, pageUrl: string, seriesUrl: URL): AdapterStep {
  const $ = loadHtml(body)
  const title = titleOf($, ['h1.title-detail', 'h1.title-manga', 'article#item-detail h1'])
  const rows = boundedRows(rowsUnder(selectAll($, 'div.list-chapter'), isRow))
  const chapters = distinctChapters(
    rows.map((row) => {
      const link = findFirst(row, isLink)
      if (!link) return null
      const chapter = rowChapter({ name: link, href: link.attribs['href'] }, title, pageUrl)
      const date = findFirst(row, isDate)
      const released = date ? parseDayFirstDate(readableText(date, MAX_DATE)) : null
      return chapter && released ? { ...chapter, released } : chapter
    }),
  )
  const slug = WPCOMICS_ID_PATTERN.exec(seriesUrl.pathname)?.[1]
  if (rows.length > 0 || !slug) return { kind: 'parsed', result: { title, chapters } }
  const query = new URLSearchParams({ slug })
  return {
    kind: 'follow',
    request: {
      url: `${seriesUrl.origin}/Comic/Services/ComicService.asmx/ChapterList?${query}`,
      method: 'GET',
      headers: { Accept: 'application/json' },
    },
    partial: title ? { title } : {},
  }
}

function listed(body: string, seriesUrl: URL): Chapter[] {
  const json = readJson(body, 'WPComics: the chapter list') as { data?: unknown } | null
  const data = json?.data ?? []
  if (!Array.isArray(data)) throw new AdapterError('WPComics: the chapter list has no data array')
  const series = /^\/[^/?#]+\/[^/?#]+/.exec(seriesUrl.pathname)?.[0] ?? seriesUrl.pathname
  return distinctChapters(
    boundedRows(data as Array<{ chapter_name?: unknown; chapter_slug?: unknown; updated_at?: unknown }>).map((c): Chapter | null => {
      if (!c || typeof c.chapter_name !== 'string' || typeof c.chapter_slug !== 'string' || !SLUG.test(c.chapter_slug)) return null
      const label = cleanText(c.chapter_name, MAX_LABEL)
      const number = parseChapterNumber(label)
      if (number === null) return null
      const released = typeof c.updated_at === 'string' ? parseReleaseDate(c.updated_at.slice(0, 10)) : null
      return { number, label, url: `${seriesUrl.origin}${series}/${c.chapter_slug}`, released: released ?? undefined }
    }),
  )
}
