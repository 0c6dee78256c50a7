/**
 * MangaBox (Mangakakalot, Manganato, Mangabat and their mirrors). A Series is `/manga/{slug}` (older mirrors:
 * `/manga-{id}`); its page lists the chapters newest first as `div.chapter-list div.row` or
 * `ul.row-content-chapter li` rows, each one link whose text is the chapter's name. Facts from the extension
 * repository's MangaBox theme, read to write our own pages.
 */
import { boundedRows, distinctChapters, findFirst, loadHtml, selectAll, titleOf } from '../html'
import { isLink, rowChapter } from './rows'
import type { Adapter } from '../site'

export const MANGABOX_ID_PATTERN = /^\/manga[/-]([^/?#]+)/

const ROWS = 'div.chapter-list > div.row, ul.row-content-chapter > li'

export function mangaBoxAdapter(): Adapter {
  return {
    recipe: { family: 'mangabox' },
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page) {
      const $ = loadHtml(page.body)
      const title = titleOf($, ['div.manga-info-top h1', 'div.story-info-right h1', 'div.panel-story-info h1', 'h1'])
      const chapters = distinctChapters(
        boundedRows(selectAll($, ROWS)).map((row) => {
          const link = findFirst(row, isLink)
          return link ? rowChapter({ name: link, href: link.attribs['href'] }, title, page.url) : null
        }),
      )
      return { kind: 'parsed', result: { title, chapters } }
    },
  }
}
