/**
 * MangaBox (Mangakakalot, Manganato, Mangabat and their mirrors). A Series is `/manga/{slug}` (today's hosts),
 * `/manga-{id}` (Manganato's older hosts, chapmanganato.com: chapters `/manga-{id}/chapter-{n}`) or `/read-{id}`
 * (Mangabat's and Mangakakalot's older hosts, readmangabat.com: chapters `/read-{id}-chap-{n}`); its page lists the chapters newest first as `div.chapter-list div.row` or
 * `ul.row-content-chapter li` rows, each one link whose text is the chapter's name. Facts from the extension
 * repository's MangaBox theme, read to write our own pages.
 */
import { boundedRows, distinctChapters, findFirst, loadHtml, selectAll, titleOf, coverOf } from '../html'
import { isLink, rowChapter } from './rows'
import { firstOf, type Adapter } from '../site'

/**
 * Each shape its own pattern (site.ts `firstOf`): `/manga/{slug}` and `/manga-{id}` read as they always did; a
 * `/read-{id}` id ends at its first dash, so a chapter `/read-{id}-chap-{n}` names its Series.
 */
export const MANGABOX_ID_PATTERN = firstOf(/^\/manga[/-]([^/?#]+)/, /^\/read-([^/?#-]+)/)

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
      return {
        kind: 'parsed',
        result: { title, chapters, coverUrl: coverOf($, ['div.manga-info-pic img', 'span.info-image img'], page.url) },
      }
    },
  }
}
