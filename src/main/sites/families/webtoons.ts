/**
 * Webtoons. Series URL `/<lang>/<genre>/<slug>/list?title_no=<id>`; `title_no` is the series_id. The list
 * page shows the newest episodes first: `#_listUl > li` with `data-episode-no`, or the older
 * `div.detail_lst ul li > a` with `span.tx` ("#N"). The age gate is passed by cookie (docs/sites.md).
 */
import { parseChapterNumber } from '../../../shared/chapter-number'
import { absoluteHref, cleanText, distinctChapters, loadHtml, titleOf } from '../html'
import type { Adapter } from '../site'

export const WEBTOONS_ID_PATTERN = /[?&]title_no=(\d+)/

export function webtoonsAdapter(): Adapter {
  return {
    request: (seriesUrl) => ({
      url: seriesUrl.href,
      method: 'GET',
      headers: { Cookie: 'ageGatePass=true; needGDPR=false' },
    }),
    read(page) {
      const $ = loadHtml(page.body)
      const title = titleOf($, ['h1.subj', '.info h1', 'h1'])
      let items = $('#_listUl > li')
      if (items.length === 0) items = $('div.detail_lst ul li')
      const chapters = distinctChapters(
        items.toArray().map((li) => {
          const item = $(li)
          const link = item.find('a').first()
          const label = cleanText(item.find('.subj span').first().text()) || cleanText(item.find('.subj').first().text())
          const tx = cleanText(item.find('span.tx').first().text())
          const number =
            parseChapterNumber(item.attr('data-episode-no') ?? '') ?? parseChapterNumber(tx) ?? parseChapterNumber(label, title)
          if (number === null) return null
          return { number, label: label || tx || `Episode ${number}`, url: absoluteHref(link.attr('href'), page.url) }
        }),
      )
      return { kind: 'parsed', result: { ...(title ? { title } : {}), chapters } }
    },
  }
}
