/**
 * The generic adapter behind `"selectors"` in sites.json: `chapter` selects one element per chapter,
 * `title` the Series title, `number` says where the number is (`text`, or `attr:NAME`).
 */
import { parseChapterNumber } from '../../../shared/chapter-number'
import { absoluteHref, cleanText, distinctChapters, loadHtml, titleOf } from '../html'
import type { Adapter } from '../site'

export interface Selectors {
  chapter: string
  title?: string
  number: 'text' | `attr:${string}`
}

export function selectorAdapter(selectors: Selectors): Adapter {
  const attribute = selectors.number.startsWith('attr:') ? selectors.number.slice(5) : null
  return {
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page) {
      const $ = loadHtml(page.body)
      const title = titleOf($, selectors.title ? [selectors.title] : ['h1'])
      const chapters = distinctChapters(
        $(selectors.chapter)
          .toArray()
          .map((element) => {
            const el = $(element)
            const label = cleanText(el.text())
            const number = attribute ? parseChapterNumber(el.attr(attribute) ?? '') : parseChapterNumber(label, title)
            if (number === null) return null
            const href = el.is('a') ? el.attr('href') : (el.find('a').first().attr('href') ?? el.closest('a').attr('href'))
            return { number, label: label || `Chapter ${number}`, url: absoluteHref(href, page.url) }
          }),
      )
      return { kind: 'parsed', result: { ...(title ? { title } : {}), chapters } }
    },
  }
}
