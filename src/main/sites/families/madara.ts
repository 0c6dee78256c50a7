/**
 * Madara (WordPress theme; hundreds of sites). Chapters are `.wp-manga-chapter` rows — `li` on most sites,
 * `div` on some — newest first, each with a link whose text is the chapter name (a release date inside the
 * link is not part of it). The title is `.post-title h1` without its badges ("END", "HOT"). When the page
 * holds only `div[id^=manga-chapters-holder]`, the list comes by XHR: new sites answer
 * `POST {series-url}ajax/chapters/`, old ones `POST {ajax_url}` with the post id, where `ajax_url` is the
 * `admin-ajax.php` the page declares (WordPress may live in a subfolder), else `/wp-admin/admin-ajax.php`.
 */
import type { Element } from 'domhandler'
import { parseChapterNumber } from '../../../shared/chapter-number'
import { parseReleaseDate } from '../dates'
import {
  absoluteHref,
  boundedRows,
  distinctChapters,
  findFirst,
  hasClass,
  labelOf,
  loadHtml,
  MAX_DATE,
  readableText,
  selectAll,
  titleOf,
  coverOf,
} from '../html'
import type { Adapter, AdapterStep, Page } from '../site'

/**
 * The series_id: the path segment after a Series type segment (`/manga/`, `/series/`, `/manhua/`, …) wherever
 * it stands (`/x/manga/<id>/` on a subfolder install), else the second segment (`/serie/<id>/`). Each
 * segment can be read one way only, so the pattern cannot backtrack badly.
 */
export const MADARA_ID_PATTERN =
  /^(?:(?:\/[^/?#]+)*?\/(?:manga|manhua|manhwa|webtoon|webtoons|comic|comics|series|serie|novel)|\/[^/?#]+)\/([^/?#]+)/

const ROWS = 'li.wp-manga-chapter, div.wp-manga-chapter'
/** The cover (keiyoushi/extensions-source fd4236e0, Madara.kt mangaDetailsSelectorThumbnail). */
const COVER = ['div.summary_image img']
const isBadge = (el: Element) => hasClass(el, 'manga-title-badges')
const isDate = (el: Element) => hasClass(el, 'chapter-release-date')
const isLink = (el: Element) => el.name === 'a' && el.attribs['href'] !== undefined

export function madaraAdapter(): Adapter {
  return {
    recipe: { family: 'madara' },
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page, seriesUrl): AdapterStep {
      const $ = loadHtml(page.body)
      const title = titleOf($, ['.post-title h1', '.post-title h3', '.post-title'], isBadge)
      const rows = selectAll($, ROWS)
      if (rows.length === 0) {
        const holder = $('div[id^="manga-chapters-holder"]').first()
        if (holder.length && isSeriesPage(page, seriesUrl))
          return chaptersByXhr(
            seriesUrl,
            holder.attr('data-id'),
            { title, coverUrl: coverOf($, COVER, page.url) },
            declaredAjaxUrl(page.body, seriesUrl),
          )
      }
      const chapters = distinctChapters(
        boundedRows(rows).map((row) => {
          // The first link with a name (a row may start with a thumbnail link), its name read once.
          let named: ReturnType<typeof labelOf> | undefined
          const link = findFirst(row, (el) => isLink(el) && (named = labelOf(el, isDate)).text !== '', isDate)
          if (!link || !named) return null
          const { text, label } = named
          const number = parseChapterNumber(text, title)
          if (number === null) return null
          const released = parseReleaseDate(readableText(findFirst(row, isDate), MAX_DATE))
          return { number, label, url: absoluteHref(link.attribs['href'], page.url), released: released ?? undefined }
        }),
      )
      return { kind: 'parsed', result: { title, chapters, coverUrl: coverOf($, COVER, page.url) } }
    },
  }
}

function isSeriesPage(page: Page, seriesUrl: URL): boolean {
  return !/\/(ajax\/chapters\/?|wp-admin\/admin-ajax\.php)$/.test(new URL(page.url).pathname) && page.url.startsWith(seriesUrl.origin)
}

/**
 * The `admin-ajax.php` URL the page declares (`"ajax_url":"https:\/\/host\/x\/wp-admin\/admin-ajax.php"` in
 * the theme's script data), when it is on the Series' own origin; else undefined. Found by `indexOf`, then
 * read from a short window, so a page of any size costs one scan.
 */
function declaredAjaxUrl(body: string, seriesUrl: URL): string | undefined {
  for (const key of ['"ajax_url"', '"ajaxurl"']) {
    const at = body.indexOf(key)
    if (at === -1) continue
    const literal = /^\s*:\s*("(?:[^"\\\n]|\\.){1,500}")/.exec(body.slice(at + key.length, at + key.length + 600))?.[1]
    if (!literal) continue
    try {
      const url = new URL(JSON.parse(literal) as string, seriesUrl)
      if (url.origin === seriesUrl.origin && url.pathname.endsWith('/admin-ajax.php')) return `${url.origin}${url.pathname}`
    } catch {
      // Not a JSON string or not a URL: the default endpoint stands.
    }
  }
  return undefined
}

function chaptersByXhr(
  seriesUrl: URL,
  postId: string | undefined,
  partial: { title?: string; coverUrl?: string },
  ajaxUrl: string | undefined,
): AdapterStep {
  const base = seriesUrl.href.endsWith('/') ? seriesUrl.href : `${seriesUrl.href}/`
  const xhr = { 'X-Requested-With': 'XMLHttpRequest' }
  return {
    kind: 'follow',
    request: { url: new URL('ajax/chapters/', base).href, method: 'POST', headers: xhr, body: '' },
    fallback:
      postId && /^\d{1,20}$/.test(postId)
        ? {
            url: ajaxUrl ?? new URL('/wp-admin/admin-ajax.php', seriesUrl).href,
            method: 'POST',
            headers: { ...xhr, 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8' },
            body: `action=manga_get_chapters&manga=${postId}`,
          }
        : undefined,
    partial,
  }
}
