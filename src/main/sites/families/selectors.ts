/**
 * The generic adapter behind `"selectors"` in sites.json: `chapter` selects one element per chapter,
 * `title` the Series title, `number` says where the number is (`text`, or `attr:NAME`).
 */
import { parseChapterNumber } from '../../../shared/chapter-number'
import { absoluteHref, boundedRows, distinctChapters, findFirst, labelOf, loadHtml, selectAll, titleOf, coverOf } from '../html'
import type { Adapter } from '../site'

export interface Selectors {
  chapter: string
  title?: string
  /** The cover element (an `<img>` or what holds one); `og:image` when absent or empty. */
  cover?: string
  number: 'text' | `attr:${string}`
}

export function selectorAdapter(selectors: Selectors): Adapter {
  const attribute = selectors.number.startsWith('attr:') ? selectors.number.slice(5) : null
  return {
    recipe: { selectors: { ...selectors } },
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page) {
      const $ = loadHtml(page.body)
      const title = titleOf($, selectors.title ? [selectors.title] : ['h1'])
      const chapters = distinctChapters(
        boundedRows(selectAll($, selectors.chapter)).map((element) => {
          const { text, label } = labelOf(element)
          const number = attribute ? parseChapterNumber(element.attribs[attribute] ?? '') : parseChapterNumber(text, title)
          if (number === null) return null
          const href =
            element.name === 'a'
              ? element.attribs['href']
              : (findFirst(element, (el) => el.name === 'a')?.attribs['href'] ?? $(element).closest('a').attr('href'))
          return { number, label: label || `Chapter ${number}`, url: absoluteHref(href, page.url) }
        }),
      )
      return { kind: 'parsed', result: { title, chapters, coverUrl: coverOf($, selectors.cover ? [selectors.cover] : [], page.url) } }
    },
  }
}
