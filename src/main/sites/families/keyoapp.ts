/**
 * Keyoapp (19 known sources). A Series is `/series/{slug}/`; its page lists the chapters as `#chapters > a`
 * rows, newest first: the name in `.text-sm`, the date in `.text-xs` ("Nov 29, 2026", or relative). A row
 * marked "Upcoming" is not out yet and is not a chapter; a paid row (a coin icon) is out and is kept. The title
 * is `div.grid > h1`. Facts from the extension repository's Keyoapp theme, read to write our own pages.
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
} from '../html'
import type { Adapter } from '../site'

export const KEYOAPP_ID_PATTERN = /^\/series\/([^/?#]+)/

const ROWS = '#chapters > a[href]'
const isName = (el: Element) => hasClass(el, 'text-sm')
const isDate = (el: Element) => hasClass(el, 'text-xs')

export function keyoappAdapter(): Adapter {
  return {
    recipe: { family: 'keyoapp' },
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page) {
      const $ = loadHtml(page.body)
      const title = titleOf($, ['div.grid > h1', 'h1'])
      const chapters = distinctChapters(
        boundedRows(selectAll($, ROWS)).map((row) => {
          const { text, label } = labelOf(findFirst(row, isName) ?? row, isDate)
          if (/\bupcoming\b/i.test(text)) return null
          const number = parseChapterNumber(text, title)
          if (number === null) return null
          const released = parseReleaseDate(readableText(findFirst(row, isDate), MAX_DATE))
          return { number, label, url: absoluteHref(row.attribs['href'], page.url), ...(released ? { released } : {}) }
        }),
      )
      return { kind: 'parsed', result: { ...(title ? { title } : {}), chapters } }
    },
  }
}
