/**
 * MangaToon (mangatoon.mobi; one Site the extension lists once per language: 9 known sources). A Series is
 * `/{lang}/detail/{id}` (`cn` for Chinese, `pt` for Portuguese); its chapters are on `/{lang}/detail/{id}/episodes`,
 * one `a.episode-item-new` per episode, oldest first: its `href` (`/{lang}/watch/{id}/{episode}`), the number in
 * `div.episode-number`, the name in the last `div.episode-title-new`, the date in `div.episode-date
 * span.open-date` (`2026-11-28`). Paid episodes are listed like free ones; the peers test a few pages to drop
 * them, the app does not read pages, so a paid episode is news too. Facts from the extension repository's
 * mangatoon source (commit fd4236e034ea55f9df1799bf34b7c713f1a46780), read to write our own pages.
 */
import type { Element } from 'domhandler'
import { parseChapterNumber } from '../../../shared/chapter-number'
import { parseReleaseDate } from '../dates'
import {
  MAX_LABEL,
  absoluteHref,
  boundedRows,
  cleanText,
  distinctChapters,
  loadHtml,
  readableText,
  selectAll,
  titleOf,
  type Doc,
} from '../html'
import { AdapterError, type Adapter, type Chapter } from '../site'

export const MANGATOON_ID_PATTERN = /^\/(?:[a-z]{2}(?:-[A-Za-z]{2})?\/)detail\/([0-9]{1,12})(?:\/episodes)?\/?(?:[?#]|$)/

const SERIES = /^\/([a-z]{2}(?:-[A-Za-z]{2})?)\/detail\/([0-9]{1,12})(?:\/episodes)?\/?$/

function seriesOf(url: URL): { lang: string; id: string } {
  const m = SERIES.exec(url.pathname)
  if (!m) throw new AdapterError(`not a MangaToon Series URL: ${url.pathname}`)
  return { lang: m[1]!, id: m[2]! }
}

function episodeOf($: Doc, row: Element, origin: string, title: string | undefined): Chapter | null {
  const url = absoluteHref(row.attribs['href'], origin)
  if (!url || new URL(url).origin !== origin) return null
  const printed = readableText($(row).find('div.episode-number').get(0), 40)
  const name = cleanText(readableText($(row).find('div.episode-title-new').last().get(0), MAX_LABEL), MAX_LABEL)
  const number = /^[0-9]{1,6}(?:\.[0-9]{1,3})?$/.test(printed) ? Number(printed) : parseChapterNumber(name, title)
  if (number === null) return null
  const released = parseReleaseDate(readableText($(row).find('div.episode-date span.open-date').get(0), 40))
  return { number, label: name || `Episode ${number}`, url, ...(released ? { released } : {}) }
}

export function mangaToonAdapter(): Adapter {
  return {
    recipe: { family: 'mangatoon' },
    request(seriesUrl) {
      const { lang, id } = seriesOf(seriesUrl)
      return { url: `${seriesUrl.origin}/${lang}/detail/${id}/episodes`, method: 'GET' }
    },
    read(page, seriesUrl) {
      seriesOf(seriesUrl)
      const $ = loadHtml(page.body)
      const title = titleOf($, ['h1', '.detail-title'])
      // Oldest first on the page: newest first here, so that a repeated number keeps its newest row.
      const rows = boundedRows(selectAll($, 'a.episode-item-new')).reverse()
      const chapters = distinctChapters(rows.map((row) => episodeOf($, row, seriesUrl.origin, title)))
      return { kind: 'parsed', result: { title, chapters } }
    },
  }
}
