/**
 * MMRCMS, "My Manga Reader CMS" (5 known sources: Arabic, Bulgarian, English, Spanish, French). A Series is
 * `/manga/{slug}` (some sites: `/comic/{slug}`, or `/{slug}`); its page lists the chapters as `ul.chapters > li`
 * rows (not `.btn`): the link and name in `.chapter-title-rtl` ("One Piece 1234 : The Title" — the Series' title
 * is dropped before the number is read), the date in `.date-chapter-title-rtl` ("28 Nov. 2026"). The title is
 * `.listmanga-header` (or `.widget-title`, `.panel-heading`). Facts from the extension repository's MMRCMS theme,
 * read to write our own pages.
 */
import { boundedRows, distinctChapters, findFirst, hasClass, loadHtml, selectAll, titleOf } from '../html'
import type { Adapter } from '../site'
import { isLink, rowChapter } from './rows'

export const MMRCMS_ID_PATTERN = /^\/(?:(?:manga|comic)\/)?([^/?#]+)/

/** The chapter rows: what Add a Site recognises the family by. */
export const MMRCMS_ROWS = 'ul.chapters > li:not(.btn)'

export function mmrcmsAdapter(): Adapter {
  return {
    recipe: { family: 'mmrcms' },
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page) {
      const $ = loadHtml(page.body)
      const title = titleOf($, ['.listmanga-header', '.widget-title', '.panel-heading'])
      const chapters = distinctChapters(
        boundedRows(selectAll($, MMRCMS_ROWS)).map((row) => {
          const name = findFirst(row, (el) => hasClass(el, 'chapter-title-rtl'))
          const link = name && findFirst(name, isLink)
          if (!name || !link) return null
          const date = findFirst(row, (el) => hasClass(el, 'date-chapter-title-rtl'))
          return rowChapter({ name, href: link.attribs['href'], date }, title, page.url)
        }),
      )
      return { kind: 'parsed', result: { title, chapters } }
    },
  }
}
