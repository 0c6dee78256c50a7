/**
 * Keyoapp (19 known sources). A Series is `/series/{slug}/`; its page lists the chapters as `#chapters > a`
 * rows, newest first: the name in `.text-sm`, the date in `.text-xs` ("Nov 29, 2026", or relative). A row
 * marked "Upcoming" is not out yet and is not a chapter; a paid row (a coin icon) is out and is kept. The title
 * is `div.grid > h1`. Facts from the extension repository's Keyoapp theme, read to write our own pages.
 */
import type { Element } from 'domhandler'
import { boundedRows, distinctChapters, findFirst, hasClass, loadHtml, selectAll, titleOf, coverOf } from '../html'
import { rowChapter } from './rows'
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
          const name = findFirst(row, isName) ?? row
          const chapter = rowChapter({ name, href: row.attribs['href'], date: findFirst(row, isDate), skip: isDate }, title, page.url)
          // Not out yet: no chapter.
          return chapter && /\bupcoming\b/i.test(chapter.label) ? null : chapter
        }),
      )
      return { kind: 'parsed', result: { title, chapters, coverUrl: coverOf($, [], page.url) } }
    },
  }
}
