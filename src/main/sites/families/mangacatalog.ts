/**
 * MangaCatalog (12 known sources: single-franchise reading sites such as readberserk.com). A Series is
 * `/manga/{slug}/`; its page lists the chapters as `div.w-full > div.bg-bg-secondary > div.grid` rows, newest
 * first: the link and name in `.col-span-4 > a`, a subtitle in a `.text-xs`. The title is `div.container > h1`.
 * Facts from the extension repository's MangaCatalog theme, read to write our own pages.
 */
import { boundedRows, distinctChapters, findFirst, hasClass, loadHtml, selectAll, titleOf, coverOf } from '../html'
import type { Adapter } from '../site'
import { isLink, rowChapter } from './rows'

export const MANGACATALOG_ID_PATTERN = /^\/manga\/([^/?#]+)/

const ROWS = 'div.w-full > div.bg-bg-secondary > div.grid'

export function mangaCatalogAdapter(): Adapter {
  return {
    recipe: { family: 'mangacatalog' },
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page) {
      const $ = loadHtml(page.body)
      const title = titleOf($, ['div.container > h1', 'h1'])
      const chapters = distinctChapters(
        boundedRows(selectAll($, ROWS)).map((row) => {
          const cell = findFirst(row, (el) => hasClass(el, 'col-span-4'))
          const link = cell && findFirst(cell, isLink)
          return link ? rowChapter({ name: link, href: link.attribs['href'] }, title, page.url) : null
        }),
      )
      return { kind: 'parsed', result: { title, chapters, coverUrl: coverOf($, [], page.url) } }
    },
  }
}
