/**
 * MadTheme (MangaBuddy, KaliScan and their kin). A Series is `/{slug}` (some: `/manga/{id}-{slug}`); its page
 * shows part of the list, and the whole list is `GET /api/manga/{slug}/chapters?source=detail`, an HTML
 * fragment of `#chapter-list > li` rows: the link, the name in `.chapter-title`, the date in `.chapter-update`
 * ("Nov 29, 2026", or relative). A `/manga/{id}-{slug}` Series is read from its own page. Facts from the
 * extension repository's MadTheme theme, read to write our own pages.
 */
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
} from '../html'
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
          const link = findFirst(row, (el) => el.name === 'a' && el.attribs['href'] !== undefined)
          if (!link) return null
          const { text, label } = labelOf(findFirst(row, (el) => hasClass(el, 'chapter-title')) ?? link)
          const number = parseChapterNumber(text, title)
          if (number === null) return null
          const released = parseReleaseDate(
            readableText(
              findFirst(row, (el) => hasClass(el, 'chapter-update')),
              MAX_DATE,
            ),
          )
          return { number, label, url: absoluteHref(link.attribs['href'], page.url), ...(released ? { released } : {}) }
        }),
      )
      return { kind: 'parsed', result: { ...(title ? { title } : {}), chapters } }
    },
  }
}
