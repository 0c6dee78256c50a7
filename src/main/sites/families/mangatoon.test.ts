/** MangaToon through its episodes page, on pages of our own: the request, and where each part is read from. */
import { describe, expect, it } from 'vitest'
import { AdapterError, seriesRules, type AdapterStep } from '../site'
import { MANGATOON_ID_PATTERN, mangaToonAdapter } from './mangatoon'

const SERIES = 'https://mangatoon.mobi/vi/detail/40627'
const read = (body: string, series = SERIES): AdapterStep =>
  mangaToonAdapter().read({ url: `${series}/episodes`, status: 200, contentType: 'text/html', body }, new URL(series))

const episode = (href: string, number: string, name: string, date = '') =>
  `<a class="episode-item-new" href="${href}"><div class="episode-number">${number}</div>` +
  `<div class="episode-content"><div class="episode-title-new">Cập nhật</div><div class="episode-title-new">${name}</div>` +
  `<div class="episode-date"><span class="open-date">${date}</span></div></div></a>`

const page = (rows: string[]) =>
  `<html><head><meta property="og:title" content="Đèn Biển"></head><body><div class="episodes-wrap-new">${rows.join('')}</div></body></html>`

describe('MangaToon', () => {
  it('the series_id is the id of /{lang}/detail/{id} (its episodes page too); a watch page is no Series', () => {
    const rules = seriesRules(MANGATOON_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('40627')
    expect(rules.seriesIdOf(new URL('https://mangatoon.mobi/en/detail/446/episodes'))).toBe('446')
    expect(rules.seriesIdOf(new URL('https://mangatoon.mobi/pt-BR/detail/9/'))).toBe('9')
    expect(rules.seriesIdOf(new URL('https://mangatoon.mobi/en/watch/446/1234'))).toBeNull()
    expect(rules.seriesIdOf(new URL('https://mangatoon.mobi/detail/446'))).toBeNull()
    expect(() => mangaToonAdapter().request(new URL('https://mangatoon.mobi/en/watch/446/1'))).toThrow(AdapterError)
    expect(mangaToonAdapter().recipe).toEqual({ family: 'mangatoon' })
  })

  it("asks the Series' episodes page, in the Series' language", () => {
    expect(mangaToonAdapter().request(new URL(SERIES))).toEqual({ url: 'https://mangatoon.mobi/vi/detail/40627/episodes', method: 'GET' })
    expect(mangaToonAdapter().request(new URL('https://mangatoon.mobi/cn/detail/7/episodes')).url).toBe(
      'https://mangatoon.mobi/cn/detail/7/episodes',
    )
  })

  it('each episode: the number printed, the last title its name, its link its page, its date; newest first', () => {
    const body = page([
      episode('/vi/watch/40627/1', '1', 'Khởi đầu', '2026-01-02'),
      episode('/vi/watch/40627/2', '2', 'Sóng lớn'),
      episode('/vi/watch/40627/3', '', 'Chương 2.5 Ngoại truyện'),
    ])
    expect(read(body)).toEqual({
      kind: 'parsed',
      result: {
        title: 'Đèn Biển',
        chapters: [
          { number: 2.5, label: 'Chương 2.5 Ngoại truyện', url: 'https://mangatoon.mobi/vi/watch/40627/3' },
          { number: 2, label: 'Sóng lớn', url: 'https://mangatoon.mobi/vi/watch/40627/2' },
          {
            number: 1,
            label: 'Khởi đầu',
            url: 'https://mangatoon.mobi/vi/watch/40627/1',
            released: { at: Date.UTC(2026, 0, 2), exact: false },
          },
        ],
      },
    })
  })

  it('a row without a number or with a link off the Site is skipped; a repeated number keeps its newest; none is no chapter', () => {
    const body = page([
      episode('/vi/watch/40627/1', '4', 'Old'),
      episode('https://elsewhere.example/x', '5', 'Away'),
      episode('/vi/watch/40627/9', 'x', 'Notice'),
      episode('/vi/watch/40627/2', '4', 'New'),
    ])
    const odd = read(body)
    expect(odd.kind === 'parsed' && odd.result.chapters).toEqual([
      { number: 4, label: 'New', url: 'https://mangatoon.mobi/vi/watch/40627/2' },
    ])
    expect(read('<html><body><h1>404</h1></body></html>')).toEqual({ kind: 'parsed', result: { title: '404', chapters: [] } })
  })
})
