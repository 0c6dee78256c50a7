/**
 * The generic adapter behind `"selectors"` in sites.json: `chapter` selects one element per chapter,
 * `title` the Series title, `number` says where the number is (`text`, or `attr:NAME`). Optional, inside a
 * chapter's element: `name`, the element whose text is the chapter's name (default: the whole row), and `link`,
 * the element whose `href` is its page (default: the row if a link, else its first link, else the link around it)
 * — the shape of a chapter row the extensions' own code reads (src/main/sites/derived-sites.json).
 */
import type { Cheerio } from 'cheerio'
import type { Element } from 'domhandler'
import { parseChapterNumber } from '../../../shared/chapter-number'
import { absoluteHref, boundedRows, distinctChapters, findFirst, labelOf, loadHtml, selectAll, titleOf, coverOf } from '../html'
import type { Adapter } from '../site'

export interface Selectors {
  chapter: string
  title?: string
  /** The cover element (an `<img>` or what holds one); `og:image` when absent or empty. */
  cover?: string
  number: 'text' | `attr:${string}`
  /** Inside a chapter's element: where its name is. */
  name?: string
  /** Inside a chapter's element: its link. */
  link?: string
}

export function selectorAdapter(selectors: Selectors): Adapter {
  const attribute = selectors.number.startsWith('attr:') ? selectors.number.slice(5) : null
  return {
    recipe: { selectors: { ...selectors } },
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page) {
      const $ = loadHtml(page.body)
      const title = titleOf($, selectors.title ? [selectors.title] : ['h1'])
      const inside = (element: Element, selector: string | undefined): Element | undefined =>
        selector ? (($(element).find(selector) as Cheerio<Element>).get(0) ?? undefined) : element
      const chapters = distinctChapters(
        boundedRows(selectAll($, selectors.chapter)).map((element) => {
          const { text, label } = labelOf(inside(element, selectors.name))
          const number = attribute ? parseChapterNumber(element.attribs[attribute] ?? '') : parseChapterNumber(text, title)
          if (number === null) return null
          const anchor = inside(element, selectors.link)
          if (!anchor) return null
          const href =
            anchor.name === 'a'
              ? anchor.attribs['href']
              : (findFirst(anchor, (el) => el.name === 'a')?.attribs['href'] ?? $(anchor).closest('a').attr('href'))
          return { number, label: label || `Chapter ${number}`, url: absoluteHref(href, page.url) }
        }),
      )
      return { kind: 'parsed', result: { title, chapters, coverUrl: coverOf($, selectors.cover ? [selectors.cover] : [], page.url) } }
    },
  }
}
