/**
 * MadTheme (MangaBuddy, KaliScan and their kin). A Series is `/{slug}` (some: `/manga/{id}-{slug}`); its page
 * shows part of the list, and the whole list is `GET /api/manga/{slug}/chapters?source=detail`, an HTML
 * fragment of `#chapter-list > li` rows: the link, the name in `.chapter-title`, the date in `.chapter-update`
 * ("Nov 29, 2026", or relative). A `/manga/{id}-{slug}` Series is read from its own page. Facts from the
 * extension repository's MadTheme theme, read to write our own pages.
 */
import { boundedRows, distinctChapters, findFirst, hasClass, loadHtml, selectAll, titleOf, coverOf } from '../html'
import { isLink, rowChapter } from './rows'
import type { Adapter } from '../site'

export const MADTHEME_ID_PATTERN = /^\/(?:manga\/)?([^/?#]+)/

export function madThemeAdapter(): Adapter {
  return {
    recipe: { family: 'madtheme' },
    request(seriesUrl) {
      const slug = /^\/([^/?#]+)\/?$/.exec(seriesUrl.pathname)?.[1]
      if (!slug || slug === 'manga') return { url: seriesUrl.href, method: 'GET' }
      return { url: `${seriesUrl.origin}/api/manga/${slug}/chapters?source=detail`, method: 'GET' }
    },
    read(page) {
      const $ = loadHtml(page.body)
      const title = titleOf($, ['.detail h1'])
      const chapters = distinctChapters(
        boundedRows(selectAll($, '#chapter-list > li')).map((row) => {
          const link = findFirst(row, isLink)
          if (!link) return null
          const name = findFirst(row, (el) => hasClass(el, 'chapter-title')) ?? link
          return rowChapter(
            { name, href: link.attribs['href'], date: findFirst(row, (el) => hasClass(el, 'chapter-update')) },
            title,
            page.url,
          )
        }),
      )
      return { kind: 'parsed', result: { title, chapters, coverUrl: coverOf($, ['#cover img'], page.url) } }
    },
  }
}
