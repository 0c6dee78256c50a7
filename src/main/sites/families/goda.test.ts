/** GoDa through its Series page and its chapter list (the same host's, or GoDa漫画's API), on pages and answers of our own. */
import { describe, expect, it } from 'vitest'
import { AdapterError, seriesRules, type AdapterStep, type Page } from '../site'
import { GODA_API, GODA_ID_PATTERN, godaAdapter } from './goda'

const page = (url: string, body: string): Page => ({ url, status: 200, contentType: 'text/html', body })
const read = (url: string, body: string, series: string): AdapterStep => godaAdapter().read(page(url, body), new URL(series))

const seriesPage = (mid: string) => `<!doctype html><html><body><main><div><div>
  <h1>海贼王 <span>連載中</span></h1><p>作者</p><p>类型</p><p>#冒险</p><p>简介</p>
  </div></div><div id="mangachapters" data-mid="${mid}"></div></main></body></html>`

const list = `<div id="allchapters">
  <div class="chapteritem"><a href="https://18mh.org/manga/haizeiwang/di-1101-hua" data-ct="第1101话 终章" data-cs="77">第1101话</a></div>
  <div class="chapteritem"><a href="/manga/haizeiwang/di-1100-5-hua" data-ct="第1100.5话">第1100.5话</a></div>
  <div class="chapteritem"><a href="/manga/haizeiwang/fanwai" data-ct="番外篇">番外篇</a></div>
  <div class="chapteritem"><span>no link</span></div>
</div>`

describe('GoDa', () => {
  it('the series_id is the slug of /manga/{slug}; a chapter page is no Series', () => {
    const rules = seriesRules(GODA_ID_PATTERN)
    expect(rules.seriesIdOf(new URL('https://18mh.org/manga/haizeiwang'))).toBe('haizeiwang')
    expect(rules.seriesIdOf(new URL('https://baozimh.org/manga/haizeiwang/'))).toBe('haizeiwang')
    expect(rules.seriesIdOf(new URL('https://18mh.org/manga/haizeiwang/di-1101-hua'))).toBeNull()
    expect(() => godaAdapter().request(new URL('https://18mh.org/hots'))).toThrow(AdapterError)
    expect(godaAdapter().request(new URL('https://18mh.org/manga/haizeiwang'))).toEqual({
      url: 'https://18mh.org/manga/haizeiwang',
      method: 'GET',
    })
  })

  it("the Series page's #mangachapters[data-mid] asks the same host's list; the title is the heading's own text", () => {
    const step = read('https://18mh.org/manga/haizeiwang', seriesPage('4321'), 'https://18mh.org/manga/haizeiwang')
    expect(step).toEqual({
      kind: 'follow',
      request: { url: 'https://18mh.org/manga/get?mid=4321&mode=all', method: 'GET', headers: { Accept: 'text/html' } },
      partial: { title: '海贼王' },
    })
    expect(() => read('https://18mh.org/manga/x', seriesPage('12a'), 'https://18mh.org/manga/x')).toThrow(/data-mid/)
    expect(() => read('https://18mh.org/manga/x', '<main><h1>x</h1></main>', 'https://18mh.org/manga/x')).toThrow(/data-mid/)
  })

  it("the list's .chapteritem rows: the name its link's data-ct, the number read from it, the link its href", () => {
    const step = read('https://18mh.org/manga/get?mid=4321&mode=all', list, 'https://18mh.org/manga/haizeiwang')
    expect(step).toEqual({
      kind: 'parsed',
      result: {
        chapters: [
          { number: 1101, label: '第1101话 终章', url: 'https://18mh.org/manga/haizeiwang/di-1101-hua' },
          { number: 1100.5, label: '第1100.5话', url: 'https://18mh.org/manga/haizeiwang/di-1100-5-hua' },
        ],
      },
    })
  })

  it("on GoDa漫画's hosts the list is the API's: data.slug and chapters[].attributes", () => {
    const step = read('https://g-mh.org/manga/haizeiwang', seriesPage('99'), 'https://g-mh.org/manga/haizeiwang')
    expect(step.kind === 'follow' && step.request).toEqual({
      url: `${GODA_API}/api/manga/get?mid=99&mode=all`,
      method: 'GET',
      headers: { Accept: 'application/json' },
    })
    const answer = JSON.stringify({
      data: {
        id: 99,
        slug: 'haizeiwang',
        chapters: [
          { id: 1, attributes: { title: '第1话', slug: 'di-1-hua', updatedAt: '2026-11-28T10:15:00.000Z' } },
          { id: 2, attributes: { title: '第2话 重逢', slug: 'di-2-hua', updatedAt: 'yesterday' } },
          { id: 3, attributes: { title: '第3话', slug: '../x' } },
          { id: 4, attributes: { title: '公告', slug: 'notice' } },
          null,
        ],
      },
    })
    expect(read(`${GODA_API}/api/manga/get?mid=99&mode=all`, answer, 'https://baozimh.org/manga/haizeiwang')).toEqual({
      kind: 'parsed',
      result: {
        chapters: [
          {
            number: 1,
            label: '第1话',
            url: 'https://baozimh.org/manga/haizeiwang/di-1-hua',
            released: { at: Date.parse('2026-11-28T10:15:00Z'), exact: true },
          },
          { number: 2, label: '第2话 重逢', url: 'https://baozimh.org/manga/haizeiwang/di-2-hua' },
        ],
      },
    })
    expect(() => read(`${GODA_API}/api/manga/get`, '{"data":{"chapters":{}}}', 'https://baozimh.org/manga/x')).toThrow(/no chapters array/)
    expect(() => read(`${GODA_API}/api/manga/get`, '{ broken', 'https://baozimh.org/manga/x')).toThrow(/not JSON/)
  })
})
