/**
 * Webtoons. Series URL `/<lang>/<genre>/<slug>/list?title_no=<id>`; `title_no` is the series_id. The list
 * page shows the newest episodes first: `#_listUl > li` with `data-episode-no`, or the older
 * `div.detail_lst ul li > a` with `span.tx` ("#N"). The age gate is passed by cookie. Titles may
 * hold a `<br>` ("DARK MOON:<br>THE BLOOD ALTAR"): it reads as a space.
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

export const WEBTOONS_ID_PATTERN = /[?&]title_no=(\d+)/

const isLink = (el: Element) => el.name === 'a'

export function webtoonsAdapter(): Adapter {
  return {
    recipe: { family: 'webtoons' },
    request: (seriesUrl) => ({
      url: seriesUrl.href,
      method: 'GET',
      headers: { Cookie: 'ageGatePass=true; needGDPR=false' },
    }),
    read(page) {
      const $ = loadHtml(page.body)
      const title = titleOf($, ['h1.subj', '.info h1', 'h1'])
      let items = selectAll($, '#_listUl > li')
      if (items.length === 0) items = selectAll($, 'div.detail_lst ul li')
      const chapters = distinctChapters(
        boundedRows(items).map((li) => {
          const subject = findFirst(li, (el) => hasClass(el, 'subj'))
          const name = labelOf((subject && findFirst(subject, (el) => el.name === 'span')) ?? subject)
          const tx = labelOf(findFirst(li, (el) => el.name === 'span' && hasClass(el, 'tx')))
          const number =
            parseChapterNumber(li.attribs['data-episode-no'] ?? '') ?? parseChapterNumber(tx.text) ?? parseChapterNumber(name.text, title)
          if (number === null) return null
          const link = findFirst(li, isLink)
          const released = parseReleaseDate(
            readableText(
              findFirst(li, (el) => el.name === 'span' && hasClass(el, 'date')),
              MAX_DATE,
            ),
          )
          return {
            number,
            label: name.label || tx.label || `Episode ${number}`,
            url: absoluteHref(link?.attribs['href'], page.url),
            released: released ?? undefined,
          }
        }),
      )
      return { kind: 'parsed', result: { title, chapters, coverUrl: coverOf($, ['.detail_header .thmb img'], page.url) } }
    },
  }
}
