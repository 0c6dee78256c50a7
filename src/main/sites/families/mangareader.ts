/**
 * MangaReader (5 known sources: MangaReader.to's kin — MangaNow; Japanese raw sites Jmanga, KL Raw, Manga Mura,
 * Raw Otaku). A Series is `/{slug}` (a chapter is read under `/read/{slug}/…`); its page lists the chapters of
 * each language as `li.chapter-item` rows of one list, `#en-chapters` (the Japanese sites: `#ja-chaps`): the link
 * the row's `a`, the name its `.name` (else the link's text). The title is `.manga-name`. Facts from the
 * extension repository's MangaReader theme and its extensions, read to write our own pages.
 */
import { boundedRows, distinctChapters, findFirst, hasClass, loadHtml, selectAll, titleOf } from '../html'
import type { Adapter } from '../site'
import { isLink, rowChapter } from './rows'

export const MANGAREADER_ID_PATTERN = /^\/(?:read\/)?([^/?#]+)/

/** The chapter rows: what Add a Site recognises the family by. */
export const MANGAREADER_ROWS = '#en-chapters > li.chapter-item, #ja-chaps > li.chapter-item'

export function mangaReaderAdapter(): Adapter {
  return {
    recipe: { family: 'mangareader' },
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page) {
      const $ = loadHtml(page.body)
      const title = titleOf($, ['.manga-name'])
      const chapters = distinctChapters(
        boundedRows(selectAll($, MANGAREADER_ROWS)).map((row) => {
          const link = findFirst(row, isLink)
          if (!link) return null
          const name = findFirst(link, (el) => hasClass(el, 'name')) ?? link
          return rowChapter({ name, href: link.attribs['href'] }, title, page.url)
        }),
      )
      return { kind: 'parsed', result: { title, chapters } }
    },
  }
}
