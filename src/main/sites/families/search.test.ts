/**
 * Each family's title search: the request its theme makes, and its results read from a small page written here in
 * the theme's markup (not copied from a real site).
 */
import { describe, expect, it } from 'vitest'
import { FAMILIES } from './index'
import { mangaBoxQuery } from './search'
import { templateSearch, type SiteSearch } from '../search'
import type { Page } from '../site'

const base = new URL('https://scans.example/')
const html = (body: string, url = 'https://scans.example/search'): Page => ({ url, status: 200, contentType: 'text/html', body })
const json = (value: unknown, url = 'https://api.example/x'): Page => ({
  url,
  status: 200,
  contentType: 'application/json',
  body: JSON.stringify(value),
})
const searchOf = (family: keyof typeof FAMILIES): SiteSearch => {
  const search = FAMILIES[family].adapter().search
  if (!search) throw new Error(`${family} has no search`)
  return search
}

describe('the search each family makes', () => {
  it.each([
    ['madara', 'https://scans.example/?s=Solo+Lantern&post_type=wp-manga'],
    ['mangathemesia', 'https://scans.example/manga/?title=Solo+Lantern&page=1'],
    ['mangabox', 'https://scans.example/search/story/solo_lantern'],
    ['webtoons', 'https://scans.example/en/search?keyword=Solo+Lantern'],
    ['keyoapp', 'https://scans.example/series/?q=Solo+Lantern'],
    ['zeistmanga', 'https://scans.example/feeds/posts/default/-/Series?alt=json&max-results=20&q=label:Series+Solo%20Lantern'],
  ] as const)('%s asks %s', (family, url) => {
    expect(searchOf(family).request({ query: 'Solo Lantern', base })).toEqual({ url, method: 'GET' })
  })

  it('hangs its paths under a folder install (the base ends in a slash)', () => {
    const folder = new URL('https://host.example/scans/')
    expect(searchOf('madara').request({ query: 'x y', base: folder }).url).toBe('https://host.example/scans/?s=x+y&post_type=wp-manga')
  })

  it('MangaDex asks the API for the title with its cover and the languages read', () => {
    const search = FAMILIES.mangadex.adapter({ languages: ['pt-br'] }).search!
    const url = new URL(search.request({ query: 'Solo', base: new URL('https://mangadex.org/') }).url)
    expect(url.origin + url.pathname).toBe('https://api.mangadex.org/manga')
    expect(url.searchParams.get('title')).toBe('Solo')
    expect(url.searchParams.getAll('includes[]')).toEqual(['cover_art'])
    expect(url.searchParams.getAll('availableTranslatedLanguage[]')).toEqual(['pt-br'])
  })

  it('writes a MangaBox query as the theme does: lowercase, accents dropped, punctuation one underscore', () => {
    expect(mangaBoxQuery('  Solo Lantern: Rébirth!! ')).toBe('solo_lantern_rebirth')
  })

  it('the families without a search say so by having none', () => {
    for (const family of ['comiciviewer', 'madtheme', 'mangacatalog', 'pizzareader'] as const)
      expect(FAMILIES[family].adapter().search).toBeUndefined()
  })
})

describe('the results each family reads', () => {
  it('Madara: title, URL, the lazy cover and the latest chapter of each row', () => {
    const page = html(`
      <div class="row c-tabs-item__content">
        <div class="tab-thumb"><a href="/manga/solo-lantern/"><img data-src="/covers/solo.jpg" src="data:image/gif;base64,AA"></a></div>
        <div class="post-title"><h3 class="h4"><a href="https://scans.example/manga/solo-lantern/">Solo Lantern</a></h3></div>
        <div class="meta-item latest-chap"><span class="font-meta chapter"><a href="/manga/solo-lantern/chapter-12/">Chapter 12</a></span></div>
      </div>
      <div class="row c-tabs-item__content"><div class="post-title"><h3><a href="/manga/lantern-b/">Lantern B</a></h3></div></div>
      <div class="row c-tabs-item__content"><p>a row with no link</p></div>`)
    expect(searchOf('madara').read(page, { query: 'lantern', base })).toEqual([
      {
        title: 'Solo Lantern',
        url: 'https://scans.example/manga/solo-lantern/',
        coverUrl: 'https://scans.example/covers/solo.jpg',
        latest: 'Chapter 12',
      },
      { title: 'Lantern B', url: 'https://scans.example/manga/lantern-b/' },
    ])
  })

  it("MangaThemesia: the link's title attribute, the image, the latest chapter", () => {
    const page = html(`<div class="listupd"><div class="bs"><div class="bsx">
      <a href="https://scans.example/manga/iron-bloom/" title="Iron Bloom"><div class="limit"><img src="https://cdn.example/ib.webp"></div>
      <div class="bigor"><div class="tt">Iron Bloom</div><div class="adds"><div class="epxs">Chapter 40</div></div></div></a>
    </div></div></div>`)
    expect(searchOf('mangathemesia').read(page, { query: 'iron', base })).toEqual([
      {
        title: 'Iron Bloom',
        url: 'https://scans.example/manga/iron-bloom/',
        coverUrl: 'https://cdn.example/ib.webp',
        latest: 'Chapter 40',
      },
    ])
  })

  it('MangaBox: the h3 link and the latest chapter link', () => {
    const page = html(`<div class="panel_story_list"><div class="story_item">
      <a href="/manga/abc"><img src="https://img.example/abc.jpg"></a>
      <div class="story_item_right"><h3 class="story_name"><a href="https://scans.example/manga/abc">Tea &amp; Iron</a></h3>
      <em class="story_chapter"><a href="/manga/abc/chapter-3">Chapter 3</a></em></div></div></div>`)
    expect(searchOf('mangabox').read(page, { query: 'tea', base })).toEqual([
      { title: 'Tea & Iron', url: 'https://scans.example/manga/abc', coverUrl: 'https://img.example/abc.jpg', latest: 'Chapter 3' },
    ])
  })

  it('Webtoons: the row is the link; the title from .title', () => {
    const page = html(`<ul class="webtoon_list"><li><a href="https://www.webtoons.com/en/fantasy/moon/list?title_no=77" class="link">
      <div class="image_wrap"><img src="https://swebtoon.example/moon.jpg"></div><div class="info_text"><strong class="title">Moonlit Garden</strong></div></a></li></ul>`)
    expect(searchOf('webtoons').read(page, { query: 'moon', base })).toEqual([
      {
        title: 'Moonlit Garden',
        url: 'https://www.webtoons.com/en/fantasy/moon/list?title_no=77',
        coverUrl: 'https://swebtoon.example/moon.jpg',
      },
    ])
  })

  it('Keyoapp: every Series is listed; only titles that hold the query are kept; the cover is a background image', () => {
    const page = html(`<div id="searched_series_page">
      <button title="Solo Lantern"><div style="background-image:url('https://cdn.example/solo.webp')"></div><a href="/series/solo-lantern/" title="Solo Lantern">Solo Lantern</a></button>
      <button title="Other"><a href="/series/other/" title="Other">Other</a></button></div>`)
    expect(searchOf('keyoapp').read(page, { query: 'LANTERN', base })).toEqual([
      { title: 'Solo Lantern', url: 'https://scans.example/series/solo-lantern/', coverUrl: 'https://cdn.example/solo.webp' },
    ])
  })

  it('ZeistManga: the feed entries labelled Series, their alternate link and thumbnail', () => {
    const entry = (title: string, term: string, href: string) => ({
      title: { $t: title },
      category: [{ term }],
      link: [
        { rel: 'replies', href: 'x' },
        { rel: 'alternate', href },
      ],
      media$thumbnail: { url: `${href}.jpg` },
    })
    const page = json({
      feed: {
        entry: [
          entry('Solo Lantern', 'Series', 'https://scans.example/2024/01/solo.html'),
          entry('Ch 3', 'Chapter', 'https://scans.example/2024/02/c.html'),
        ],
      },
    })
    expect(searchOf('zeistmanga').read(page, { query: 'solo', base })).toEqual([
      { title: 'Solo Lantern', url: 'https://scans.example/2024/01/solo.html', coverUrl: 'https://scans.example/2024/01/solo.html.jpg' },
    ])
    expect(searchOf('zeistmanga').read(json({ feed: {} }), { query: 'none', base })).toEqual([])
    expect(() => searchOf('zeistmanga').read(html('<html>'), { query: 'x', base })).toThrow(/not JSON/)
  })

  it("MangaDex: the wanted language's title, the Series URL on the Site, the cover from cover_art", () => {
    const search = FAMILIES.mangadex.adapter().search!
    const id = '0123abcd-0000-4000-8000-0000000000aa'
    const page = json({
      data: [
        {
          id,
          attributes: { title: { ja: 'ソロ', en: 'Solo Lantern' } },
          relationships: [{ type: 'cover_art', attributes: { fileName: 'c.png' } }],
        },
        { id: 'other', attributes: { title: { ja: 'ソロ２' } }, relationships: [] },
        { attributes: {} },
      ],
    })
    expect(search.read(page, { query: 'solo', base: new URL('https://mangadex.org/') })).toEqual([
      {
        title: 'Solo Lantern',
        url: `https://mangadex.org/title/${id}`,
        coverUrl: `https://uploads.mangadex.org/covers/${id}/c.png.256.jpg`,
      },
      { title: 'ソロ２', url: 'https://mangadex.org/title/other' },
    ])
    expect(() => search.read(json({ result: 'error' }), { query: 'x', base })).toThrow(/no "data" list/)
  })
})

describe("an owner's search template (sites.json)", () => {
  it('puts the query in where {query} stands, encoded', () => {
    expect(templateSearch('https://x.example/find?q={query}&t=1').request({ query: 'a&b c', base })).toEqual({
      url: 'https://x.example/find?q=a%26b%20c&t=1',
      method: 'GET',
    })
  })
  it("reads every titled link with the first image inside it (the caller keeps the Site's Series)", () => {
    const page = html(`<a href="/s/one"><img src="/one.png"></a><a href="/s/one" title="One">One</a><a href="mailto:x">mail</a>`)
    expect(templateSearch('https://x/{query}').read(page, { query: 'o', base })).toEqual([
      { title: '', url: 'https://scans.example/s/one', coverUrl: 'https://scans.example/one.png' },
      { title: 'One', url: 'https://scans.example/s/one' },
    ])
  })
})
