/** 嗶哩漫畫 through its catalog page, on pages of our own: the request, and where each part is read from. */
import { describe, expect, it } from 'vitest'
import { AdapterError, seriesRules, type AdapterStep } from '../site'
import { BILIMANGA_ID_PATTERN, biliMangaAdapter } from './bilimanga'

const SERIES = 'https://www.bilimanga.net/detail/1024.html'
const CATALOG = 'https://www.bilimanga.net/read/1024/catalog'
const read = (body: string): AdapterStep =>
  biliMangaAdapter().read({ url: CATALOG, status: 200, contentType: 'text/html', body }, new URL(SERIES))

const catalog = `<!doctype html><html><body>
  <h1 class="book-title">葬送的芙莉蓮</h1><div class="chapter-sub-title">更新 2026-11-28</div>
  <div class="catalog-volume"><div class="chapter-bar">葬送的芙莉蓮 第１卷</div><ul>
    <li><a class="chapter-li-a" href="/read/1024/90001.html">第１話 冒險的結束</a></li>
    <li><a class="chapter-li-a" href="/read/1024/90002.html">第2話</a></li></ul></div>
  <div class="catalog-volume"><div class="chapter-bar">葬送的芙莉蓮 第２卷</div><ul>
    <li><a class="chapter-li-a" href="https://www.bilimanga.net/read/1024/90003.html">第10.5話 番外</a></li>
    <li><a class="chapter-li-a" href="javascript:cid(1)">第11話</a></li>
    <li><a class="chapter-li-a" href="/read/1024/90005.html">後記</a></li></ul></div>
</body></html>`

describe('BiliManga', () => {
  it('the series_id is the id of /detail/{id}.html; its chapters are asked from /read/{id}/catalog', () => {
    const rules = seriesRules(BILIMANGA_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('1024')
    expect(rules.seriesIdOf(new URL('https://www.bilimanga.net/read/1024/90001.html'))).toBeNull()
    expect(biliMangaAdapter().request(new URL(SERIES))).toEqual({ url: CATALOG, method: 'GET' })
    expect(() => biliMangaAdapter().request(new URL('https://www.bilimanga.net/top'))).toThrow(AdapterError)
    expect(biliMangaAdapter().recipe).toEqual({ family: 'bilimanga' })
  })

  it('each .chapter-li-a is a chapter (full-width digits read), in every volume; an unpublished javascript: link is not', () => {
    expect(read(catalog)).toEqual({
      kind: 'parsed',
      result: {
        title: '葬送的芙莉蓮',
        chapters: [
          { number: 1, label: '第1話 冒險的結束', url: 'https://www.bilimanga.net/read/1024/90001.html' },
          { number: 2, label: '第2話', url: 'https://www.bilimanga.net/read/1024/90002.html' },
          { number: 10.5, label: '第10.5話 番外', url: 'https://www.bilimanga.net/read/1024/90003.html' },
        ],
      },
    })
    expect(read('<html><body><p>404</p></body></html>')).toEqual({ kind: 'parsed', result: { chapters: [] } })
  })
})
