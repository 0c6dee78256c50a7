/**
 * MangaThemesia (WordPress theme; ~150 sites). Chapters are `li[data-num]` rows in `#chapterlist`, or in
 * `div.eplister` on sites without that id; the `data-num` attribute is the number (structured beats text),
 * the name is in `.chapternum` or `.lch a`. A broad `li` would also catch comment items.
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
  coverOf,
} from '../html'
import type { Adapter } from '../site'

/**
 * The directories a MangaThemesia install keeps its Series under: the theme's `mangaUrlDirectory` is "/manga"
 * by default, and sources set their own ("/comics", "/series", "/komik", "/catalogue", "/library", …). Nothing in
 * a URL says which one a Site chose, so every usual one is read; a Series is `/<directory>/<slug>/`. A chapter
 * is `/<slug>-chapter-<n>/` at the root, which names no Series: paste the Series' page.
 */
export const MANGATHEMESIA_DIRECTORIES =
  'manga|comics?|series|manhwa|manhua|komik|webtoons?|project|projects|baca|title|obra|mangas|catalogue|library'

export const MANGATHEMESIA_ID_PATTERN = new RegExp(`^/(?:${MANGATHEMESIA_DIRECTORIES})/([^/?#]+)`)

const ROWS = '#chapterlist li[data-num], div.eplister li[data-num]'
const isLink = (el: Element) => el.name === 'a'

export function mangaThemesiaAdapter(): Adapter {
  return {
    recipe: { family: 'mangathemesia' },
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page) {
      const $ = loadHtml(page.body)
      const title = titleOf($, ['h1.entry-title', '.seriestuheader h1'])
      const chapters = distinctChapters(
        boundedRows(selectAll($, ROWS)).map((li) => {
          const name =
            findFirst(li, (el) => hasClass(el, 'chapternum')) ??
            findFirst(findFirst(li, (el) => hasClass(el, 'lch')) ?? li, isLink) ??
            findFirst(li, isLink)
          const { text, label } = labelOf(name)
          // data-num may carry a lock glyph on paid chapters; the parser keeps only the number.
          const number = parseChapterNumber(li.attribs['data-num'] ?? '') ?? parseChapterNumber(text, title)
          if (number === null) return null
          const link = findFirst(li, isLink)
          const released = parseReleaseDate(
            readableText(
              findFirst(li, (el) => hasClass(el, 'chapterdate')),
              MAX_DATE,
            ),
          )
          return {
            number,
            label: label || `Chapter ${number}`,
            url: absoluteHref(link?.attribs['href'], page.url),
            released: released ?? undefined,
          }
        }),
      )
      return {
        kind: 'parsed',
        result: { title, chapters, coverUrl: coverOf($, ['.infomanga > div[itemprop=image] img', '.thumb img'], page.url) },
      }
    },
  }
}
