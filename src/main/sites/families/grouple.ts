/**
 * Grouple (6 known sources, Russian: ReadManga, MintManga, SeiManga, SelfManga, Usagi, AllHentai). A Series is
 * `/{slug}`; its page lists the chapters as `tr.item-row` rows: the link `a.chapter-link` (its own text the
 * name), the number ten times over in `td.item-title[data-num]` ("125" is 12.5), the date in the last
 * `td.d-none`, day first ("28.11.26"). A row whose `td.date` is `.text-info` is announced, not out, and a row
 * with no `td.date` is no chapter. The title is `.cr-hero-names__main` (older pages: `meta[itemprop=name]`).
 * Facts from the extension repository's GroupLe theme, read to write our own pages.
 */
import { parseChapterNumber } from '../../../shared/chapter-number'
import type { Element } from 'domhandler'
import {
  MAX_DATE,
  MAX_TITLE,
  absoluteHref,
  boundedRows,
  cleanText,
  distinctChapters,
  findFirst,
  hasClass,
  labelOf,
  loadHtml,
  readableText,
  selectAll,
  titleOf,
  type Doc,
} from '../html'
import type { Adapter, Chapter } from '../site'
import { parseDayFirstDate } from './day-first'

export const GROUPLE_ID_PATTERN = /^\/([^/?#]+)/

/** The chapter rows: what Add a Site recognises the family by. */
export const GROUPLE_ROWS = 'tr.item-row'

export function groupleAdapter(): Adapter {
  return {
    recipe: { family: 'grouple' },
    request: (seriesUrl) => ({ url: seriesUrl.href, method: 'GET' }),
    read(page) {
      const $ = loadHtml(page.body)
      const title = titleOfSeries($)
      const chapters = distinctChapters(boundedRows(selectAll($, GROUPLE_ROWS)).map((row) => rowOf(row, title, page.url)))
      return { kind: 'parsed', result: { title, chapters } }
    },
  }
}

function titleOfSeries($: Doc): string | undefined {
  return (
    titleOf($, ['.cr-hero-names__main', 'h1.names .name']) ??
    (cleanText($('meta[itemprop="name"]').attr('content'), MAX_TITLE) || undefined)
  )
}

function rowOf(row: Element, title: string | undefined, pageUrl: string): Chapter | null {
  const cells = row.children.filter((c): c is Element => c.type === 'tag' && c.name === 'td')
  const date = cells.find((c) => hasClass(c, 'date'))
  if (!date || hasClass(date, 'text-info')) return null
  const link = findFirst(row, (el) => el.name === 'a' && hasClass(el, 'chapter-link') && el.attribs['href'] !== undefined)
  if (!link) return null
  const { text, label } = labelOf(link)
  const cell = cells.find((c) => hasClass(c, 'item-title'))
  const tenfold = cell?.attribs['data-num']
  const number = tenfold && /^\d{1,9}$/.test(tenfold) ? Number(tenfold) / 10 : parseChapterNumber(text, title)
  if (number === null) return null
  const shown = cells.filter((c) => hasClass(c, 'd-none')).at(-1)
  const released = shown ? parseDayFirstDate(readableText(shown, MAX_DATE)) : null
  return { number, label: label || `Глава ${number}`, url: absoluteHref(link.attribs['href'], pageUrl), released: released ?? undefined }
}
