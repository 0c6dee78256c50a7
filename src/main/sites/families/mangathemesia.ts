/**
 * MangaThemesia (WordPress theme; ~150 sites). Chapters are `#chapterlist li[data-num]`; the `data-num`
 * attribute is the number (structured beats text), the name is in `.chapternum` or `.lch a` (docs/sites.md).
 */
import { parseChapterNumber } from '../../../shared/chapter-number'
import { absoluteHref, cleanText, distinctChapters, loadHtml, titleOf } from '../html'
import type { Adapter } from '../site'

export const MANGATHEMESIA_ID_PATTERN = /^\/manga\/([^/?#]+)/

export function mangaThemesiaAdapter(): Adapter {
  return {
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page) {
      const $ = loadHtml(page.body)
      const title = titleOf($, ['h1.entry-title', '.seriestuheader h1'])
      const chapters = distinctChapters(
        $('#chapterlist li[data-num]')
          .toArray()
          .map((li) => {
            const item = $(li)
            const label =
              cleanText(item.find('.chapternum').first().text()) ||
              cleanText(item.find('.lch a').first().text()) ||
              cleanText(item.find('a').first().text())
            // data-num may carry a lock glyph on paid chapters; the parser keeps only the number.
            const number = parseChapterNumber(item.attr('data-num') ?? '') ?? parseChapterNumber(label, title)
            if (number === null) return null
            return { number, label: label || `Chapter ${number}`, url: absoluteHref(item.find('a').first().attr('href'), page.url) }
          }),
      )
      return { kind: 'parsed', result: { ...(title ? { title } : {}), chapters } }
    },
  }
}
