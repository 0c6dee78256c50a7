/**
 * 嗶哩漫畫 (BiliManga, www.bilimanga.net: 1 known source, Chinese). A Series is `/detail/{id}.html`; its chapters
 * are on the catalog page `/read/{id}/catalog` of the same host, one `.chapter-li-a` link a chapter (under
 * `.catalog-volume` sections when the work has volumes), its text the name (full-width digits read as digits),
 * its `href` the page; a link not yet published is `javascript:cid(1)` and is not read. The title is `.book-title`.
 * Facts from the extension repository's bilimanga source (commit fd4236e034ea55f9df1799bf34b7c713f1a46780), read
 * to write our own pages.
 */
import { parseChapterNumber } from '../../../shared/chapter-number'
import { MAX_LABEL, absoluteHref, boundedRows, cleanText, distinctChapters, labelOf, loadHtml, selectAll, titleOf } from '../html'
import { AdapterError, type Adapter, type Chapter } from '../site'

export const BILIMANGA_ID_PATTERN = /^\/detail\/(\d{1,12})\.html(?:[?#]|$)/

/** Full-width digits (０–９) as ASCII digits, as the extension reads the names. */
const halfWidth = (text: string) => text.replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0))

function idOf(url: URL): string {
  const m = BILIMANGA_ID_PATTERN.exec(url.pathname)
  if (!m) throw new AdapterError(`not a BiliManga Series URL: ${url.pathname}`)
  return m[1]!
}

export function biliMangaAdapter(): Adapter {
  return {
    recipe: { family: 'bilimanga' },
    request: (seriesUrl) => ({ url: `${seriesUrl.origin}/read/${idOf(seriesUrl)}/catalog`, method: 'GET' }),
    read(page, seriesUrl) {
      idOf(seriesUrl)
      const $ = loadHtml(page.body)
      const title = titleOf($, ['.book-title'])
      const chapters = distinctChapters(
        boundedRows(selectAll($, '.chapter-li-a')).map((link): Chapter | null => {
          // A chapter not yet out links to `javascript:cid(1)`: no page, no chapter.
          const url = absoluteHref(link.attribs['href'], page.url)
          const label = cleanText(halfWidth(labelOf(link).text), MAX_LABEL)
          const number = parseChapterNumber(label, title)
          return number === null || !url ? null : { number, label, url }
        }),
      )
      return { kind: 'parsed', result: { ...(title ? { title } : {}), chapters } }
    },
  }
}
