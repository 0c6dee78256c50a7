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

/** A chapter without its release date: the tests that compare whole chapters are about the rest of it. */
const withoutDates = <T extends { released?: unknown } | undefined>(chapter: T) => {
  if (!chapter) return chapter
  const { released: _released, ...rest } = chapter
  return rest
}

describe('release dates, where the page prints them (docs/freshness.md)', () => {
  const dates = (file: string, adapter: ReturnType<typeof madaraAdapter>, url: string) => {
    const step = adapter.read(page(url, stored(file)), new URL(url))
    return parsed(step).chapters.map((c) => [c.number, c.released ? new Date(c.released.at).toISOString().slice(0, 10) : null])
  }
  it('Madara: "November 2, 2026" and ISO days; a "new" badge or "2 hours ago" is no date', () => {
    expect(dates('madara-inline.html', madaraAdapter(), 'https://scans.example/manga/the-tower-climber/')).toEqual([
      [152, null],
      [151.5, '2026-11-02'],
      [153, '2026-11-01'],
      [1, null],
    ])
    expect(dates('madara-div-rows.html', madaraAdapter(), 'https://x.example/manga/y/')).toEqual([
      [90, null],
      [89.5, '2026-10-30'],
      [1, '2025-02-01'],
    ])
  })
  it('MangaThemesia: "10 Aug 2026"', () => {
    expect(dates('mangathemesia-eplister.html', mangaThemesiaAdapter(), 'https://x.example/manga/y/')).toEqual([
      [250, '2026-08-10'],
      [249, '2026-08-02'],
    ])
  })
})

describe('Madara', () => {
  const series = new URL('https://scans.example/manga/the-tower-climber/')
  const adapter = madaraAdapter()

  it('reads the inline chapter list: the Latest Chapter is the highest, not the first row', () => {
    const result = parsed(adapter.read(page(series.href, stored('madara-inline.html')), series))
    expect(result.title).toBe('The Tower Climber')
    expect(result.chapters.map((c) => c.number)).toEqual([152, 151.5, 153, 1])
    expect(withoutDates(highestChapter(result.chapters))).toEqual({
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

  it('reads rows that are div.wp-manga-chapter, not only li, and never the form input of that class', () => {
    const url = new URL('https://ledger.example/manga/ledger-of-debts/')
    const result = parsed(adapter.read(page(url.href, stored('madara-div-rows.html')), url))
    expect(result.title).toBe('Ledger of Debts')
    expect(result.chapters.map(withoutDates)).toEqual([
      { number: 90, label: 'Chapter 90', url: 'https://ledger.example/manga/ledger-of-debts/chapter-90' },
      { number: 89.5, label: 'Chapter 89.5', url: 'https://ledger.example/manga/ledger-of-debts/chapter-89-5' },
      { number: 1, label: 'Chapter 1', url: 'https://ledger.example/manga/ledger-of-debts/chapter-1' },
    ])
  })

  it('a title whose h1 carries a badge is the text without it; a date inside the link is not in the label', () => {
    const url = new URL('https://toons.example/serie/solo-climber-0a10cf7b/')
    const result = parsed(adapter.read(page(url.href, stored('madara-title-badge.html')), url))
    expect(result.title).toBe('Solo Climber')
    expect(result.chapters.map((c) => [c.number, c.label])).toEqual([
      [21, 'Side Story 21 - The End'],
      [20, 'Side Story 20'],
    ])
  })

  it('WordPress in a subfolder: the XHR fallback is the ajax_url the page declares', () => {
    const url = new URL('https://harbor.example/x/manga/glass-harbor/')
    const step = adapter.read(page(url.href, stored('madara-subfolder.html')), url)
    expect(step).toMatchObject({
      kind: 'follow',
      request: { url: 'https://harbor.example/x/manga/glass-harbor/ajax/chapters/', method: 'POST' },
      fallback: { url: 'https://harbor.example/x/wp-admin/admin-ajax.php', body: 'action=manga_get_chapters&manga=249' },
      partial: { title: 'Glass Harbor' },
    })
  })

  it('an ajax_url on another origin is not followed: the default endpoint stands', () => {
    const url = new URL('https://harbor.example/x/manga/glass-harbor/')
    const body = stored('madara-subfolder.html').replace('harbor.example\\/x\\/wp-admin', 'evil.example\\/wp-admin')
    expect(body).toContain('evil.example')
    const step = adapter.read(page(url.href, body), url)
    expect(step.kind === 'follow' && step.fallback?.url).toBe('https://harbor.example/wp-admin/admin-ajax.php')
  })

  it.each([
    ['a Series at the root', '/manga/glass-harbor/', 'glass-harbor'],
    ['a subfolder install', '/x/manga/glass-harbor/', 'glass-harbor'],
    ['a deeper subfolder and a chapter URL', '/a/b/series/glass-harbor/chapter-3/', 'glass-harbor'],
    ['another type segment', '/manhua/solo-leveling/', 'solo-leveling'],
    ['an unknown type segment: the second segment', '/serie/solo-climber-0a10cf7b/', 'solo-climber-0a10cf7b'],
    ['no id', '/manga/', undefined],
  ])('the default series_id pattern finds the id after /manga/ wherever it is: %s', (_name, path, id) => {
    expect(FAMILIES.madara.idPattern.exec(path)?.[1]).toBe(id)
  })
})

describe('MangaThemesia', () => {
  const series = new URL('https://bloom.example/manga/iron-bloom/')
  it('reads data-num (lock glyph and all) and ignores comment items', () => {
    const result = parsed(mangaThemesiaAdapter().read(page(series.href, stored('mangathemesia.html')), series))
    expect(result.title).toBe('Iron Bloom')
    expect(result.chapters.map(withoutDates)).toEqual([
      { number: 61, label: 'Chapter 61', url: 'https://bloom.example/iron-bloom-chapter-61/' },
      { number: 60, label: 'Chapter 60 - Rust', url: 'https://bloom.example/iron-bloom-chapter-60/' },
      { number: 59.5, label: 'Chapter 59.5', url: 'https://bloom.example/iron-bloom-chapter-59-5/' },
    ])
  })
})

describe('MangaThemesia without #chapterlist', () => {
  it('lists chapters in div.eplister li[data-num], not in comment items, with the title on one line', () => {
    const series = new URL('https://fables.example/manga/mercenary-ledger/')
    const result = parsed(mangaThemesiaAdapter().read(page(series.href, stored('mangathemesia-eplister.html')), series))
    expect(result.title).toBe('Mercenary Ledger')
    expect(result.chapters.map(withoutDates)).toEqual([
      { number: 250, label: 'Chapter 250', url: 'https://fables.example/chapter/r231-mercenary-ledger-chapter-250' },
      { number: 249, label: 'Chapter 249', url: 'https://fables.example/chapter/r231-mercenary-ledger-chapter-249' },
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
  it('a <br> in the title is a space, and white space in episode titles is normalised', () => {
    const result = parsed(adapter.read(page(series.href, stored('webtoons-br-title.html')), series))
    expect(result.title).toBe('DARK TIDE: THE SALT ALTAR')
    expect(result.chapters.map((c) => [c.number, c.label])).toEqual([
      [142, 'Episode 140'],
      [141, 'Episode 139'],
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
    expect(result.chapters.map(withoutDates)).toEqual([
      { number: 101, label: 'Vol. 12 Ch. 101 - The Long Way', url: 'https://mangadex.org/chapter/0f1b2c3d-0000-4000-8000-00000000a001' },
      { number: 100.5, label: 'Ch. 100.5 - Extra', url: 'https://mangadex.org/chapter/0f1b2c3d-0000-4000-8000-00000000a003' },
    ])
  })

  it("asks for the Site's languages and keeps only those: another language never becomes the Latest Chapter", () => {
    const feed = stored('mangadex-languages.json')
    const english = mangaDexAdapter({ apiBase: 'https://api.mangadex.org' })
    expect(new URL(english.request(series).url).searchParams.getAll('translatedLanguage[]')).toEqual(['en'])
    const result = parsed(english.read({ ...page('x', feed), contentType: 'application/json' }, series))
    expect(result.chapters.map((c) => c.number)).toEqual([97, 96.5, 96])
    expect(highestChapter(result.chapters)?.label).toBe('Vol. 9 Ch. 97 - The Bridge')

    const two = mangaDexAdapter({ apiBase: 'https://api.mangadex.org', languages: ['en', 'pt-br'] })
    expect(new URL(two.request(series).url).searchParams.getAll('translatedLanguage[]')).toEqual(['en', 'pt-br'])
    expect(highestChapter(parsed(two.read(page('x', feed), series)).chapters)?.number).toBe(100)
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
