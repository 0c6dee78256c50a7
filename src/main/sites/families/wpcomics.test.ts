/** WPComics on pages of our own: the chapter rows of the Series page, and the ChapterList JSON where it lists none. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AdapterError, seriesRules, type AdapterStep } from '../site'
import { WPCOMICS_ID_PATTERN, wpComicsAdapter } from './wpcomics'

const SERIES = 'https://truyen.example/truyen-tranh/hoa-sen-do'
const stored = (name: string) => readFileSync(join(__dirname, '..', 'testdata', name), 'utf8')
const read = (body: string, series = SERIES, url = series): AdapterStep =>
  wpComicsAdapter().read({ url, status: 200, contentType: 'text/html', body }, new URL(series))

describe('WPComics', () => {
  it('the series_id is the slug after the section; a chapter URL names its Series', () => {
    const rules = seriesRules(WPCOMICS_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('hoa-sen-do')
    expect(rules.seriesIdOf(new URL('https://xoxo.example/comic/iron-saint'))).toBe('iron-saint')
    expect(rules.canonicalUrl!(new URL(`${SERIES}/chuong-12/88812`))).toBe(`${SERIES}/`)
    expect(rules.seriesIdOf(new URL('https://truyen.example/tim-truyen'))).toBeNull()
  })

  it('the Series page: its rows (not the heading, not a hidden row), day-first dates, a relative or impossible one not read', () => {
    expect(read(stored('wpcomics.html'))).toEqual({
      kind: 'parsed',
      result: {
        title: 'Hoa Sen Đỏ',
        chapters: [
          { number: 12, label: 'Chương 12', url: 'https://truyen.example/truyen-tranh/hoa-sen-do/chuong-12/88812' },
          {
            number: 11.5,
            label: 'Chương 11.5: Ngoại truyện',
            url: 'https://truyen.example/truyen-tranh/hoa-sen-do/chuong-11-5/88811',
            released: { at: Date.UTC(2026, 10, 28), exact: false },
          },
          {
            number: 11,
            label: 'Chương 11',
            url: 'https://truyen.example/truyen-tranh/hoa-sen-do/chuong-11/88810',
            released: { at: Date.UTC(2026, 10, 21), exact: false },
          },
          { number: 1, label: 'Chương 1', url: 'https://truyen.example/truyen-tranh/hoa-sen-do/chuong-1/88800' },
        ],
      },
    })
  })

  it('XOXO rows: the date in div.col-xs-3', () => {
    const html =
      '<h1 class="title-detail">Iron Saint</h1><div class="list-chapter"><ul><li class="row"><div class="col-xs-9 chapter"><a href="/comic/iron-saint/issue-7">Issue #7</a></div><div class="col-xs-3">05/11/2026</div></li></ul></div>'
    const step = read(html, 'https://xoxo.example/comic/iron-saint')
    expect(step.kind === 'parsed' && step.result.chapters).toEqual([
      {
        number: 7,
        label: 'Issue #7',
        url: 'https://xoxo.example/comic/iron-saint/issue-7',
        released: { at: Date.UTC(2026, 10, 5), exact: false },
      },
    ])
  })

  it('a page that lists no chapter follows to the ChapterList JSON, keeping the title', () => {
    const series = 'https://net.example/truyen-tranh/may-trang'
    expect(read(stored('wpcomics-script-list.html'), series)).toEqual({
      kind: 'follow',
      request: {
        url: 'https://net.example/Comic/Services/ComicService.asmx/ChapterList?slug=may-trang',
        method: 'GET',
        headers: { Accept: 'application/json' },
      },
      partial: { title: 'Mây Trắng' },
    })
  })

  it('the ChapterList JSON: names, chapter pages under the Series, the day; a notice and a bad slug not', () => {
    const series = 'https://net.example/truyen-tranh/may-trang'
    const step = read(
      stored('wpcomics-chapters.json'),
      series,
      'https://net.example/Comic/Services/ComicService.asmx/ChapterList?slug=may-trang',
    )
    expect(step).toEqual({
      kind: 'parsed',
      result: {
        chapters: [
          {
            number: 42,
            label: 'Chapter 42',
            url: 'https://net.example/truyen-tranh/may-trang/chapter-42',
            released: { at: Date.UTC(2026, 10, 29), exact: false },
          },
          {
            number: 41.5,
            label: 'Chapter 41.5',
            url: 'https://net.example/truyen-tranh/may-trang/chapter-41-5',
            released: { at: Date.UTC(2026, 10, 22), exact: false },
          },
          { number: 1, label: 'Chapter 1', url: 'https://net.example/truyen-tranh/may-trang/chapter-1' },
        ],
      },
    })
    expect(() => read('{"data":{}}', series)).toThrow(AdapterError)
    expect(() => read('{"data":', series)).toThrow(/not JSON/)
  })
})
