/** Madara pages as small pages: the title, the rows and their links, and the XHR chapter list with its fallback. */
import { describe, expect, it } from 'vitest'
import { seriesRules, type AdapterStep, type ParsedSeries } from '../site'
import { MADARA_ID_PATTERN, madaraAdapter } from './madara'

const SERIES = 'https://lantern.example/manga/night-lantern/'

function step(body: string, pageUrl = SERIES, seriesUrl = SERIES): AdapterStep {
  return madaraAdapter().read({ url: pageUrl, status: 200, contentType: 'text/html', body }, new URL(seriesUrl))
}

function read(body: string, pageUrl = SERIES): ParsedSeries {
  const s = step(body, pageUrl)
  if (s.kind !== 'parsed') throw new Error(`expected parsed, got ${JSON.stringify(s)}`)
  return s.result
}

const rows = (...inner: string[]) => `<ul>${inner.map((i) => `<li class="wp-manga-chapter">${i}</li>`).join('')}</ul>`
const holder = (attrs = 'data-id="2261"') =>
  `<div class="post-title"><h1>Night Lantern</h1></div><div id="manga-chapters-holder" ${attrs}></div>`
const fallbackOf = (s: AdapterStep) => (s.kind === 'follow' ? s.fallback : undefined)

describe('Madara: the title', () => {
  it.each([
    [
      'the h1 in .post-title, not the rest of it',
      '<div class="post-title"><span class="genre">Action</span><h1>Night Lantern</h1></div>',
      'Night Lantern',
    ],
    ['else its h3', '<div class="post-title"><span class="genre">Action</span><h3>Night Lantern</h3></div>', 'Night Lantern'],
    ['else .post-title itself', '<div class="post-title">Night Lantern</div>', 'Night Lantern'],
    [
      'without its badges',
      '<div class="post-title"><h1><span class="manga-title-badges">HOT</span>Night Lantern</h1></div>',
      'Night Lantern',
    ],
  ])('%s', (_name, html, title) => {
    expect(read(html).title).toBe(title)
  })
})

describe('Madara: a chapter row', () => {
  it('is named by its first link with a name: a thumbnail link before it is passed over', () => {
    const html = rows(
      '<a href="/manga/night-lantern/chapter-5/"><img src="t.png"></a><a href="/manga/night-lantern/chapter-5/">Chapter 5</a>',
    )
    expect(read(html).chapters).toEqual([{ number: 5, label: 'Chapter 5', url: 'https://lantern.example/manga/night-lantern/chapter-5/' }])
  })

  it('an anchor without an href is no link', () => {
    const html = rows('<a name="top">Chapter 99</a><a href="/manga/night-lantern/chapter-6/">Chapter 6</a>')
    expect(read(html).chapters.map((c) => [c.number, c.url])).toEqual([[6, 'https://lantern.example/manga/night-lantern/chapter-6/']])
  })

  it('a row with no link, or a link with no chapter number, is no chapter', () => {
    expect(read(rows('<span>Chapter 7</span>', '<a href="/notice/">Notice: hiatus</a>')).chapters).toEqual([])
  })

  it('a row with chapters beside a holder is read as it is, not followed', () => {
    expect(read(`${holder()}${rows('<a href="/c/8/">Chapter 8</a>')}`).chapters.map((c) => c.number)).toEqual([8])
  })
})

describe('Madara: the chapter list by XHR', () => {
  it('a Series URL without its trailing slash still asks its own ajax/chapters/', () => {
    const s = step(holder(), 'https://lantern.example/manga/night-lantern', 'https://lantern.example/manga/night-lantern')
    expect(s.kind === 'follow' && s.request.url).toBe('https://lantern.example/manga/night-lantern/ajax/chapters/')
  })

  it.each([
    ['no post id', holder('')],
    ['a post id that is not a number', holder('data-id="abc"')],
    ['a post id that only starts with digits', holder('data-id="12abc"')],
    ['a post id that only ends with digits', holder('data-id="abc12"')],
    ['a post id of 21 digits', holder(`data-id="${'1'.repeat(21)}"`)],
  ])('%s: no fallback to admin-ajax.php', (_name, html) => {
    const s = step(html)
    expect(s.kind).toBe('follow')
    expect(fallbackOf(s)).toBeUndefined()
  })

  it('a post id of 20 digits has its fallback', () => {
    expect(fallbackOf(step(holder(`data-id="${'9'.repeat(20)}"`)))?.body).toBe(`action=manga_get_chapters&manga=${'9'.repeat(20)}`)
  })

  it.each([
    ['ajax/chapters/', 'https://lantern.example/manga/night-lantern/ajax/chapters/'],
    ['ajax/chapters without the slash', 'https://lantern.example/manga/night-lantern/ajax/chapters'],
    ['admin-ajax.php', 'https://lantern.example/wp-admin/admin-ajax.php'],
  ])('an answer from %s holding a holder again is read as no chapters, never followed again', (_name, url) => {
    expect(read(holder(), url).chapters).toEqual([])
  })

  it('a Series whose path only passes through ajax/chapters/ is still a Series page', () => {
    const url = 'https://lantern.example/manga/ajax/chapters/night-lantern/'
    expect(step(holder(), url, url).kind).toBe('follow')
  })

  it('a page from another origin is never followed', () => {
    expect(read(holder(), 'https://mirror.example/manga/night-lantern/').chapters).toEqual([])
  })
})

describe('Madara: the admin-ajax.php a page declares', () => {
  const declaring = (script: string) => `${holder()}<script>var manga = ${script};</script>`
  const fallbackUrl = (script: string) => fallbackOf(step(declaring(script)))?.url

  it.each([
    [
      '"ajax_url"',
      '{"ajax_url":"https:\\/\\/lantern.example\\/x\\/wp-admin\\/admin-ajax.php"}',
      'https://lantern.example/x/wp-admin/admin-ajax.php',
    ],
    [
      '"ajaxurl"',
      '{"ajaxurl":"https:\\/\\/lantern.example\\/y\\/wp-admin\\/admin-ajax.php"}',
      'https://lantern.example/y/wp-admin/admin-ajax.php',
    ],
    [
      'with white space around the colon',
      '{"ajax_url" :  "\\/z\\/wp-admin\\/admin-ajax.php"}',
      'https://lantern.example/z/wp-admin/admin-ajax.php',
    ],
    ['its query dropped', '{"ajax_url":"\\/x\\/wp-admin\\/admin-ajax.php?lang=en"}', 'https://lantern.example/x/wp-admin/admin-ajax.php'],
  ])('is the fallback: %s', (_name, script, url) => {
    expect(fallbackUrl(script)).toBe(url)
  })

  it.each([
    ['not a string', '{"ajax_url": null, "home": "\\/x\\/wp-admin\\/admin-ajax.php"}'],
    ['not admin-ajax.php', '{"ajax_url":"https:\\/\\/lantern.example\\/x\\/wp-json\\/chapters"}'],
    ['on another origin', '{"ajax_url":"https:\\/\\/evil.example\\/wp-admin\\/admin-ajax.php"}'],
    ['a broken string', '{"ajax_url":"\\u12"}'],
  ])('is not used when %s: the default stands', (_name, script) => {
    expect(fallbackUrl(script)).toBe('https://lantern.example/wp-admin/admin-ajax.php')
  })

  it('the first key that declares one wins', () => {
    const script = '{"ajaxurl":"\\/second\\/wp-admin\\/admin-ajax.php","ajax_url":"\\/first\\/wp-admin\\/admin-ajax.php"}'
    expect(fallbackUrl(script)).toBe('https://lantern.example/first/wp-admin/admin-ajax.php')
  })
})

describe("Madara: a Site's own manga slug (the extension's mangaSubString)", () => {
  const rules = seriesRules(MADARA_ID_PATTERN)
  // The slugs Madara sources set: "series", "comic(s)", "manhwa", "webtoon", "komik", "truyen", "manhwa-raw",
  // "manga-list", "hentai", "serie"; a chapter is one segment under its Series.
  it.each(['series', 'comic', 'comics', 'manhwa', 'webtoon', 'komik', 'truyen', 'manhwa-raw', 'manga-list', 'hentai', 'serie', 'read'])(
    '/%s/<slug>/ and a chapter under it',
    (slug) => {
      const series = new URL(`/${slug}/night-lantern/`, 'https://lantern.example')
      expect(rules.seriesIdOf(series)).toBe('night-lantern')
      expect(rules.canonicalUrl!(series)).toBe(series.href)
      const chapter = new URL(`/${slug}/night-lantern/chapter-12/`, 'https://lantern.example')
      expect(rules.seriesIdOf(chapter)).toBe('night-lantern')
      expect(rules.canonicalUrl!(chapter)).toBe(series.href)
    },
  )

  it('a subfolder install reads the slug after its type word', () => {
    expect(rules.seriesIdOf(new URL('https://live.lantern.example/x/manga/manga-17-2/chapter-3/'))).toBe('manga-17-2')
    expect(rules.canonicalUrl!(new URL('https://live.lantern.example/x/manga/manga-17-2/chapter-3/'))).toBe(
      'https://live.lantern.example/x/manga/manga-17-2/',
    )
  })

  it('a page one segment deep is no Series', () => {
    expect(rules.seriesIdOf(new URL('https://lantern.example/series/'))).toBeNull()
  })
})
