/** Reading a Series' cover URL from its page (html.ts coverOf), and each family's adapter giving it. */
import { describe, expect, it } from 'vitest'
import { madaraPage, themesiaPage } from '../demo/pages'
import { FAMILIES } from './families'
import { selectorAdapter } from './families/selectors'
import { coverOf, loadHtml } from './html'
import { isCoverHost } from './site'
import { parseSitesFile } from './sites-file'

const base = 'https://site.example/manga/x/'
const cover = (html: string, selectors: string[] = []) => coverOf(loadHtml(html), selectors, base)

describe('coverOf', () => {
  it("takes the family's element first, a lazy loader's data-src before its placeholder src", () => {
    const html = `<head><meta property="og:image" content="/og.jpg"></head><div class="summary_image"><a><img src="data:image/gif;base64,R0l" data-src="/real.webp"></a></div>`
    expect(cover(html, ['div.summary_image img'])).toBe('https://site.example/real.webp')
    expect(cover(html, ['div.none img'])).toBe('https://site.example/og.jpg')
  })
  it('reads an <img> inside the element, the first srcset candidate, relative URLs against the page', () => {
    expect(cover('<div id="cover"><img srcset="c-300.jpg 300w, c-600.jpg 600w"></div>', ['#cover'])).toBe(
      'https://site.example/manga/x/c-300.jpg',
    )
  })
  it('keeps the order of the selectors, not of the page', () => {
    const html = '<div class="b"><img src="/b.png"></div><div class="a"><img src="/a.png"></div>'
    expect(cover(html, ['.a img', '.b img'])).toBe('https://site.example/a.png')
  })
  it('gives nothing for another scheme, an empty attribute or no image', () => {
    expect(cover('<div class="c"><img src="javascript:alert(1)"></div>', ['.c img'])).toBeUndefined()
    expect(cover('<meta property="og:image" content="  ">')).toBeUndefined()
    expect(cover('<p>no cover</p>', ['.c img'])).toBeUndefined()
  })
})

describe('the adapters give the cover with the chapters', () => {
  const s = { title: 'Solo Lantern', latest: 4 }
  const page = (body: string) => ({ url: base, status: 200, contentType: 'text/html', body })
  it('Madara and MangaThemesia read their cover element', () => {
    const m = FAMILIES.madara.adapter().read(page(madaraPage(base, s)), new URL(base))
    expect(m.kind === 'parsed' && m.result.coverUrl).toBe(`${base}cover.png`)
    const t = FAMILIES.mangathemesia.adapter().read(page(themesiaPage(base, s)), new URL(base))
    expect(t.kind === 'parsed' && t.result.coverUrl).toBe(`${base}cover.png`)
  })
  it("Madara's XHR list carries the first page's cover on", () => {
    const step = FAMILIES.madara.adapter().read(page(madaraPage(base, s, { xhr: true })), new URL(base))
    expect(step.kind === 'follow' && step.partial?.coverUrl).toBe(`${base}cover.png`)
  })
  it('a selector Site reads its own cover selector, else og:image', () => {
    const html = `<head><meta property="og:image" content="/og.png"></head><h1>T</h1><p class="poster"><img src="/p.png"></p><a class="ch">Chapter 2</a>`
    const own = selectorAdapter({ chapter: 'a.ch', number: 'text', cover: '.poster' }).read(page(html), new URL(base))
    expect(own.kind === 'parsed' && own.result.coverUrl).toBe('https://site.example/p.png')
    const og = selectorAdapter({ chapter: 'a.ch', number: 'text' }).read(page(html), new URL(base))
    expect(og.kind === 'parsed' && og.result.coverUrl).toBe('https://site.example/og.png')
  })
})

describe('sites.json: imageHosts and selectors.cover', () => {
  const entry = (extra: object) =>
    JSON.stringify({ sites: [{ key: 'mine', name: 'Mine', hosts: ['mine.example'], selectors: { chapter: 'a' }, ...extra }] })
  it('takes image hosts as hosts, and a cover selector', () => {
    const { sites, problems } = parseSitesFile(
      entry({ imageHosts: ['CDN.mine.example'], selectors: { chapter: 'a', cover: '.poster img' } }),
      'sites.json',
      [],
    )
    expect(problems).toEqual([])
    expect(sites[0]!.imageHosts).toEqual(['cdn.mine.example'])
    expect(isCoverHost(sites[0]!, new URL('https://cdn.mine.example/c.png'))).toBe(true)
    expect(isCoverHost(sites[0]!, new URL('https://mine.example/c.png'))).toBe(true)
    expect(isCoverHost(sites[0]!, new URL('https://other.example/c.png'))).toBe(false)
    expect(isCoverHost(sites[0]!, new URL('https://u:p@cdn.mine.example/c.png'))).toBe(false)
  })
  it('refuses an image host with a scheme or path, said with its field', () => {
    const { sites, problems } = parseSitesFile(entry({ imageHosts: ['https://cdn.mine.example/x'] }), 'sites.json', [])
    expect(sites).toEqual([])
    expect(problems[0]).toMatch(/field "imageHosts\.0": a host or host:port/)
  })
})
