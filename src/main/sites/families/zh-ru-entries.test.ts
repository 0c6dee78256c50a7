/**
 * The Chinese and Russian hand-read entries (docs/adr/0212-chinese-and-russian-hand-read-entries.md) on pages of
 * our own shaped as each site writes its list, with what the extension skips beside it: heading rows, dates, volume
 * sections, an empty link text, a locked row.
 */
import { describe, expect, it } from 'vitest'
import derived from '../derived-sites.json' with { type: 'json' }
import type { DerivedSitesTable } from '../known-sites'
import { selectorAdapter, type Selectors } from './selectors'

const TABLE = derived as DerivedSitesTable

function entry(key: string): Selectors {
  const site = TABLE.sites.find((s) => s.key === key)
  if (!site?.selectors) throw new Error(`no derived entry ${key}`)
  return site.selectors
}

function read(key: string, body: string, url: string) {
  const step = selectorAdapter(entry(key)).read({ url, status: 200, contentType: 'text/html', body }, new URL(url))
  if (step.kind !== 'parsed') throw new Error(step.kind)
  return step.result
}

const rows = (result: ReturnType<typeof read>) => result.chapters.map((c) => [c.number, c.label, new URL(c.url).pathname])

describe('Chinese and Russian hand-read entries', () => {
  it("MultiChan (MangaChan, YaoiChan): the table's heading rows are no chapters; the name is the link, not the date", () => {
    const body = `<table class="table_cha"><tr><th>Название</th><th>Дата</th></tr><tr><td colspan="2">Главы</td></tr>
      <tr><td><div class="manga2"><a href="/online/101-bers_v41_ch364.html">Берсерк 41 - глава 364</a></div></td><td><div class="date">2026-11-28</div></td></tr>
      <tr><td><div class="manga2"><a href="/online/100-bers_v41_ch363.5.html">Берсерк 41 - глава 363.5</a></div></td><td><div class="date">2026-11-01</div></td></tr>
    </table>`
    for (const [key, host] of [
      ['mangachan', 'https://im.manga-chan.me'],
      ['yaoichan', 'https://yaoi-chan.me'],
    ] as const)
      expect(rows(read(key, body, `${host}/manga/1-bers.html`))).toEqual([
        [364, 'Берсерк 41 - глава 364', '/online/101-bers_v41_ch364.html'],
        [363.5, 'Берсерк 41 - глава 363.5', '/online/100-bers_v41_ch363.5.html'],
      ])
  })

  it('MangaMen: the number is data-number, the link the name cell’s, even when its text is empty', () => {
    const body = `<div class="chapter-item" data-volume="2" data-number="15"><div class="chapter-item__name"><a href="/manga/x/v2/c15">Том 2. Глава 15</a></div>
      <div class="chapter-item__date">28.11.2026</div></div>
      <div class="chapter-item" data-volume="2" data-number="14.5"><div class="chapter-item__name"><a href="/manga/x/v2/c14.5"></a></div></div>
      <div class="chapter-item" data-number="13"><div class="chapter-item__name"><span>без ссылки</span></div></div>`
    expect(read('mangamen', body, 'https://mangamen.com/manga/x').chapters.map((c) => [c.number, new URL(c.url).pathname])).toEqual([
      [15, '/manga/x/v2/c15'],
      [14.5, '/manga/x/v2/c14.5'],
    ])
  })

  it('MangaBuff: the number from .chapters__value, not the volume or the date beside it', () => {
    const body = `<h1>Магия</h1><div class="chapters__list">
      <a class="chapters__item" href="/manga/magiya/3/27"><div class="chapters__volume">Том 3</div><div class="chapters__value">Глава 27</div>
      <div class="chapters__name">Буря</div><div class="chapters__add-date">28.11.2026</div></a>
      <a class="chapters__item" href="/manga/magiya/3/26"><div class="chapters__volume">Том 3</div><div class="chapters__value">Глава 26</div></a></div>`
    expect(rows(read('mangabuff', body, 'https://mangabuff.ru/manga/magiya'))).toEqual([
      [27, 'Глава 27', '/manga/magiya/3/27'],
      [26, 'Глава 26', '/manga/magiya/3/26'],
    ])
  })

  // The row's whole text is its name (some rows have no p.title): the date stays in it, read as no number.
  it('动漫屋: every section of #chapterlistload; a volume ("第1卷") carries no chapter number; the date is not one', () => {
    const body = `<div class="banner_detail_form"><p class="title">海贼王<span class="score">9.6</span></p></div>
      <div id="chapterlistload"><ul id="detail-list-select-1">
        <li><a href="/m1551113/"><p class="title">第1101话 终章<span>（17P）</span></p><p class="tip">2026-11-28</p></a></li>
        <li><a href="/m1551112/">第1100话 </a></li></ul>
        <ul id="detail-list-select-2"><li><a href="/m1000001/"><p class="title">第1卷</p></a></li></ul></div>`
    expect(rows(read('dm5-com', body, 'https://www.dm5.com/manhua-haizeiwang/'))).toEqual([
      [1101, '第1101话 终章（17P） 2026-11-28', '/m1551113/'],
      [1100, '第1100话', '/m1551112/'],
    ])
  })

  it('Mangabz: the links #chapterlistload holds, the page count in the name', () => {
    const body = `<div class="detail-list-form-title">连载中, 2026-11-28</div><div id="chapterlistload">
      <a href="/m334455/" class="detail-list-form-item">第205话 <span>（18P）</span></a>
      <a href="/m334400/" class="detail-list-form-item">第204.5话 番外 <span>（9P）</span></a></div>`
    expect(rows(read('mangabz', body, 'https://xmanhua.com/1234xm/'))).toEqual([
      [205, '第205话 （18P）', '/m334455/'],
      [204.5, '第204.5话 番外 （9P）', '/m334400/'],
    ])
  })

  it('漫画1234 and the Manga18 theme: the name is read where the entry says, not the row with its date', () => {
    const mh = `<div class="chapter-list"><a class="chapter-item" href="/go/123/456.html"><span class="chapter-title">第12话</span><span class="chapter-date">2026-11-28</span></a></div>`
    expect(rows(read('1234', mh, 'https://m.wmh1234.com/comic/123.html'))).toEqual([[12, '第12话', '/go/123/456.html']])
    const m18 = `<div class="chapter_box"><ul><li class="item"><a href="/manhwa/x/chap-30">第30话</a><p>28-11-2026</p></li></ul></div>`
    expect(rows(read('hanman18', m18, 'https://hanman18.com/manhwa/x'))).toEqual([[30, '第30话', '/manhwa/x/chap-30']])
  })
})
