import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { highestChapter } from '../../shared/chapter-number'
import { FAMILIES } from './families'
import { madaraAdapter } from './families/madara'
import { mangaDexAdapter } from './families/mangadex'
import { mangaThemesiaAdapter } from './families/mangathemesia'
import { selectorAdapter } from './families/selectors'
import { webtoonsAdapter } from './families/webtoons'
import type { Adapter, AdapterStep, Page, ParsedSeries } from './site'

const stored = (name: string) => readFileSync(join(__dirname, 'testdata', name), 'utf8')
const page = (url: string, body: string, status = 200): Page => ({ url, status, contentType: 'text/html', body })

function parsed(step: AdapterStep): ParsedSeries {
  if (step.kind !== 'parsed') throw new Error(`expected parsed, got ${step.kind}`)
  return step.result
}

describe('Madara', () => {
  const series = new URL('https://scans.example/manga/the-tower-climber/')
  const adapter = madaraAdapter()

  it('reads the inline chapter list: the Latest Chapter is the highest, not the first row', () => {
    const result = parsed(adapter.read(page(series.href, stored('madara-inline.html')), series))
    expect(result.title).toBe('The Tower Climber')
    expect(result.chapters.map((c) => c.number)).toEqual([152, 151.5, 153, 1])
    expect(highestChapter(result.chapters)).toEqual({
      number: 153,
      label: 'Chapter 153 (preview)',
      url: 'https://scans.example/manga/the-tower-climber/chapter-153-preview/',
    })
  })

  it('ignores links outside the chapter list and labels with no number', () => {
    const result = parsed(adapter.read(page(series.href, stored('madara-inline.html')), series))
    expect(result.chapters.map((c) => c.label)).not.toContain('Notice: hiatus')
    expect(result.chapters.some((c) => c.number === 999)).toBe(false)
  })

  it('follows the XHR chapter list when the page holds only the holder, with the old endpoint as fallback', () => {
    const holderSeries = new URL('https://lantern.example/series/night-lantern/')
    const step = adapter.read(page(holderSeries.href, stored('madara-holder.html')), holderSeries)
    expect(step).toEqual({
      kind: 'follow',
      request: {
        url: 'https://lantern.example/series/night-lantern/ajax/chapters/',
        method: 'POST',
        headers: { 'X-Requested-With': 'XMLHttpRequest' },
        body: '',
      },
      fallback: {
        url: 'https://lantern.example/wp-admin/admin-ajax.php',
        method: 'POST',
        headers: { 'X-Requested-With': 'XMLHttpRequest', 'Content-Type': 'application/x-www-form-urlencoded; charset=UTF-8' },
        body: 'action=manga_get_chapters&manga=2261',
      },
      partial: { title: 'Night Lantern' },
    })
    const result = parsed(
      adapter.read(page('https://lantern.example/series/night-lantern/ajax/chapters/', stored('madara-ajax.html')), holderSeries),
    )
    expect(result.chapters.map((c) => c.number)).toEqual([38, 37])
  })

  it('an XHR answer with no chapters is read as no chapters, never followed again', () => {
    const holderSeries = new URL('https://lantern.example/series/night-lantern/')
    const step = adapter.read(
      page('https://lantern.example/series/night-lantern/ajax/chapters/', stored('madara-holder.html')),
      holderSeries,
    )
    expect(parsed(step).chapters).toEqual([])
  })

  it('takes the slug as series_id', () => {
    expect(FAMILIES.madara.idPattern.exec('/manga/the-tower-climber/')?.[1]).toBe('the-tower-climber')
  })
})

describe('MangaThemesia', () => {
  const series = new URL('https://bloom.example/manga/iron-bloom/')
  it('reads data-num (lock glyph and all) and ignores comment items', () => {
    const result = parsed(mangaThemesiaAdapter().read(page(series.href, stored('mangathemesia.html')), series))
    expect(result.title).toBe('Iron Bloom')
    expect(result.chapters).toEqual([
      { number: 61, label: 'Chapter 61', url: 'https://bloom.example/iron-bloom-chapter-61/' },
      { number: 60, label: 'Chapter 60 - Rust', url: 'https://bloom.example/iron-bloom-chapter-60/' },
      { number: 59.5, label: 'Chapter 59.5', url: 'https://bloom.example/iron-bloom-chapter-59-5/' },
    ])
  })
})

describe('Webtoons', () => {
  const series = new URL('https://www.webtoons.com/en/fantasy/paper-moons/list?title_no=4021')
  const adapter = webtoonsAdapter()
  it('passes the age gate by cookie', () => {
    expect(adapter.request(series).headers).toEqual({ Cookie: 'ageGatePass=true; needGDPR=false' })
  })
  it('numbers episodes by data-episode-no, not by their titles', () => {
    const result = parsed(adapter.read(page(series.href, stored('webtoons-list.html')), series))
    expect(result.title).toBe('Paper Moons')
    expect(result.chapters.map((c) => [c.number, c.label])).toEqual([
      [88, 'Episode 87 - The Tide'],
      [87, 'Episode 86'],
    ])
  })
  it('takes title_no as series_id', () => {
    expect(FAMILIES.webtoons.idPattern.exec(`${series.pathname}${series.search}`)?.[1]).toBe('4021')
  })
})

describe('MangaDex', () => {
  const series = new URL('https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8/komi-san-wa-komyushou-desu')
  const adapter = mangaDexAdapter({ apiBase: 'https://api.mangadex.org' })

  it('asks the feed newest first in every content rating', () => {
    const request = adapter.request(series)
    const url = new URL(request.url)
    expect(url.origin + url.pathname).toBe('https://api.mangadex.org/manga/a96676e5-8ae2-425e-b549-7f15dd34a6d8/feed')
    expect(url.searchParams.getAll('contentRating[]')).toEqual(['safe', 'suggestive', 'erotica', 'pornographic'])
    expect(url.searchParams.get('order[chapter]')).toBe('desc')
    expect(url.searchParams.get('includeFuturePublishAt')).toBe('0')
  })

  it('skips external chapters with no pages and chapters with no number; never reads lastChapter', () => {
    const result = parsed(
      adapter.read({ ...page(adapter.request(series).url, stored('mangadex-feed.json')), contentType: 'application/json' }, series),
    )
    expect(result.title).toBe("Komi Can't Communicate")
    expect(result.chapters).toEqual([
      { number: 101, label: 'Vol. 12 Ch. 101 - The Long Way', url: 'https://mangadex.org/chapter/0f1b2c3d-0000-4000-8000-00000000a001' },
      { number: 100.5, label: 'Ch. 100.5 - Extra', url: 'https://mangadex.org/chapter/0f1b2c3d-0000-4000-8000-00000000a003' },
    ])
  })

  it('a 204 is an empty list; malformed JSON is an adapter error', () => {
    expect(parsed(adapter.read(page('x', '', 204), series)).chapters).toEqual([])
    expect(() => adapter.read(page('x', '<html>oops'), series)).toThrow(/not JSON/)
  })
})

describe('selectors from sites.json', () => {
  const html = `<h1>Small Site Saga</h1><ul>
    <li class="chapter"><a href="/c/9">Ch. 9</a></li>
    <li class="chapter"><a href="/c/10" data-n="10">Chapter ten</a></li></ul>`
  const url = 'https://small.example/s/saga'
  const read = (adapter: Adapter) => parsed(adapter.read(page(url, html), new URL(url)))

  it('number: text parses the label', () => {
    expect(read(selectorAdapter({ chapter: 'li.chapter a', number: 'text' })).chapters).toEqual([
      { number: 9, label: 'Ch. 9', url: 'https://small.example/c/9' },
    ])
  })

  it('number: attr:NAME reads the attribute', () => {
    const result = read(selectorAdapter({ chapter: 'li.chapter a', number: 'attr:data-n', title: 'h1' }))
    expect(result).toEqual({
      title: 'Small Site Saga',
      chapters: [{ number: 10, label: 'Chapter ten', url: 'https://small.example/c/10' }],
    })
  })
})
