/**
 * Madara (WordPress theme; hundreds of sites). Chapters are `li.wp-manga-chapter > a`, newest first. When
 * the page holds only `div[id^=manga-chapters-holder]`, the list comes by XHR: new sites answer
 * `POST {series-url}ajax/chapters/`, old ones `POST /wp-admin/admin-ajax.php` (docs/sites.md).
 */
import { parseChapterNumber } from '../../../shared/chapter-number'
import { absoluteHref, cleanText, distinctChapters, loadHtml, titleOf } from '../html'
import type { Adapter, AdapterStep, Page } from '../site'

export const MADARA_ID_PATTERN = /^\/[^/?#]+\/([^/?#]+)/

export function madaraAdapter(): Adapter {
  return {
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page, seriesUrl): AdapterStep {
      const $ = loadHtml(page.body)
      const title = titleOf($, ['.post-title h1', '.post-title h3', '.post-title'])
      const links = $('li.wp-manga-chapter > a')
      if (links.length === 0) {
        const holder = $('div[id^="manga-chapters-holder"]').first()
        if (holder.length && isSeriesPage(page, seriesUrl)) return chaptersByXhr(seriesUrl, holder.attr('data-id'), title)
      }
      const chapters = distinctChapters(
        links.toArray().map((a) => {
          const label = cleanText($(a).text())
          const number = parseChapterNumber(label, title)
          return number === null ? null : { number, label, url: absoluteHref($(a).attr('href'), page.url) }
        }),
      )
      return { kind: 'parsed', result: { ...(title ? { title } : {}), chapters } }
    },
  }
}

function isSeriesPage(page: Page, seriesUrl: URL): boolean {
  return !/\/(ajax\/chapters\/?|wp-admin\/admin-ajax\.php)$/.test(new URL(page.url).pathname) && page.url.startsWith(seriesUrl.origin)
}

function chaptersByXhr(seriesUrl: URL, postId: string | undefined, title: string | undefined): AdapterStep {
  const base = seriesUrl.href.endsWith('/') ? seriesUrl.href : `${seriesUrl.href}/`
  const xhr = { 'X-Requested-With': 'XMLHttpRequest' }
  return {
    kind: 'follow',
    request: { url: new URL('ajax/chapters/', base).href, method: 'POST', headers: xhr, body: '' },
    ...(postId && /^\d+$/.test(postId)
      ? {
          fallback: {
            url: new URL('/wp-admin/admin-ajax.php', seriesUrl).href,
            method: 'POST' as const,
            headers: { ...xhr, 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8' },
            body: `action=manga_get_chapters&manga=${postId}`,
          },
        }
      : {}),
    ...(title ? { partial: { title } } : {}),
  }
}
