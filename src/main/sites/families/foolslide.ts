/**
 * FoolSlide (6 known sources: older scanlation readers, English, Spanish, Italian). A Series is
 * `/series/{slug}/` (on some sites under one folder: `/slide/series/{slug}/`); its page is asked for by POST
 * with `adult=true`, which passes the adult notice. The chapters are `div.group div.element` (or `div.list
 * div.element`) rows: the link and name in the row's `a[title]`, the date in `div.meta_r` after its ", "
 * ("by Team, 2026.11.28"). The title is `h1.title`. Facts from the extension repository's FoolSlide theme, read
 * to write our own pages.
 */
import { parseReleaseDate, type ReleasedAt } from '../dates'
import { MAX_DATE, boundedRows, distinctChapters, findFirst, hasClass, loadHtml, readableText, selectAll, titleOf } from '../html'
import type { Adapter } from '../site'
import { rowChapter } from './rows'
import { rowsUnder, tagWithClass } from './walk'

export const FOOLSLIDE_ID_PATTERN = /^(?:\/[^/?#]+)?\/series\/([^/?#]+)/

/** The chapter rows: what Add a Site recognises the family by. */
export const FOOLSLIDE_ROWS = 'div.group div.element, div.list div.element'

export function foolSlideAdapter(): Adapter {
  return {
    recipe: { family: 'foolslide' },
    request: (seriesUrl) => ({
      url: seriesUrl.href,
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'adult=true',
    }),
    read(page) {
      const $ = loadHtml(page.body)
      const title = titleOf($, ['h1.title'])
      const chapters = distinctChapters(
        boundedRows(rowsUnder(selectAll($, 'div.group, div.list'), tagWithClass('div', 'element'))).map((row) => {
          const link = findFirst(row, (el) => el.name === 'a' && el.attribs['href'] !== undefined && el.attribs['title'] !== undefined)
          if (!link) return null
          const chapter = rowChapter({ name: link, href: link.attribs['href'] }, title, page.url)
          const date = findFirst(row, (el) => hasClass(el, 'meta_r'))
          const released = date ? dateOf(readableText(date, MAX_DATE)) : null
          return chapter && released ? { ...chapter, released } : chapter
        }),
      )
      return { kind: 'parsed', result: { title, chapters } }
    },
  }
}

/** The date after the cell's last ", ": "2026.11.28" (the theme's), or one dates.ts reads ("Nov 28, 2026" is not split). */
function dateOf(text: string): ReleasedAt | null {
  const dotted = /(\d{4})\.(\d{2})\.(\d{2})$/.exec(text)
  if (dotted) return parseReleaseDate(`${dotted[1]}-${dotted[2]}-${dotted[3]}`)
  return parseReleaseDate(text) ?? parseReleaseDate(text.slice(text.indexOf(', ') + 2))
}
