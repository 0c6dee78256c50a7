import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FAMILIES } from './families'
import { madaraFeed, mangaBoxFeed, mangaDexFeed, mangaThemesiaFeed, siteFeed } from './feeds'
import { AdapterError, type Page } from './site'

const page = (file: string, url: string, status = 200): Page => ({
  url,
  status,
  contentType: file.endsWith('.json') ? 'application/json' : 'text/html',
  body: readFileSync(join(__dirname, 'testdata', file), 'utf8'),
})

describe('site feeds: the request', () => {
  it('Madara and MangaThemesia list the Series directory a Series URL is under, MangaBox its latest list', () => {
    expect(madaraFeed.request(new URL('https://m.test/series/solo/')).url).toBe('https://m.test/series/?m_orderby=latest')
    expect(madaraFeed.request(new URL('https://m.test/manga/solo/')).url).toBe('https://m.test/manga/?m_orderby=latest')
    expect(mangaThemesiaFeed.request(new URL('http://127.0.0.1:8123/komik/iron/')).url).toBe('http://127.0.0.1:8123/komik/?order=update')
    expect(mangaBoxFeed.request(new URL('https://b.test/manga/x')).url).toBe('https://b.test/manga-list/latest-manga?page=1')
  })

  it('MangaDex asks the API for the newest chapters by publishAt in the Site languages', () => {
    const url = new URL(mangaDexFeed('http://127.0.0.1:9/', ['en', 'pt-br']).request(new URL('https://mangadex.org/title/x')).url)
    expect(url.pathname).toBe('/chapter')
    expect(url.searchParams.get('order[publishAt]')).toBe('desc')
    expect(url.searchParams.getAll('translatedLanguage[]')).toEqual(['en', 'pt-br'])
    expect(url.searchParams.getAll('includes[]')).toEqual(['manga'])
  })
})

describe('site feeds: the read', () => {
  it('Madara: one entry per Series, newest first, its newest chapter, relative links made absolute', () => {
    const entries = madaraFeed.read(page('feed-madara.html', 'https://madara.test/manga/?m_orderby=latest'))
    expect(entries).toEqual([
      { seriesUrl: 'https://madara.test/manga/solo-climb/', chapter: 58, label: 'Chapter 58' },
      { seriesUrl: 'https://madara.test/manga/quiet-garden/', chapter: 12.5, label: 'Chapter 12.5 - Extra' },
      { seriesUrl: 'https://madara.test/manga/prologue-only/', chapter: null, label: 'Prologue' },
    ])
  })

  it('MangaThemesia: the cards and their .epxs', () => {
    const entries = mangaThemesiaFeed.read(page('feed-mangathemesia.html', 'https://themesia.test/manga/?order=update'))
    expect(entries.map((e) => [e.seriesUrl, e.chapter])).toEqual([
      ['https://themesia.test/manga/iron-tide/', 104],
      ['https://themesia.test/manga/paper-moon/', 7],
    ])
  })

  it('MangaBox: both Series shapes, the chapter link of each line', () => {
    const entries = mangaBoxFeed.read(page('feed-mangabox.html', 'https://box.test/manga-list/latest-manga?page=1'))
    expect(entries.map((e) => [e.seriesUrl, e.chapter])).toEqual([
      ['https://box.test/manga/lantern-road', 31],
      ['https://box.test/manga-ab123', 9],
    ])
  })

  it('MangaDex: one entry per manga (its newest chapter), exact times, the Site origin, bad ids skipped', () => {
    const entries = mangaDexFeed('https://api.mangadex.org', ['en']).read(
      page('feed-mangadex.json', 'https://api.mangadex.org/chapter?x=1'),
    )
    expect(entries).toEqual([
      {
        seriesUrl: 'https://mangadex.org/title/1b3c5d7e-0000-4000-8000-00000000000a',
        chapter: 88,
        label: 'Chapter 88',
        updatedAt: Date.UTC(2026, 11, 3, 10),
      },
      {
        seriesUrl: 'https://mangadex.org/title/2b3c5d7e-0000-4000-8000-00000000000b',
        chapter: null,
        label: 'Oneshot',
        updatedAt: Date.UTC(2026, 11, 3, 8),
      },
    ])
    // The entries' URLs are read by the family's own series_id rule.
    expect(FAMILIES.mangadex.idPattern.exec(new URL(entries[0]!.seriesUrl).pathname)?.[1]).toBe('1b3c5d7e-0000-4000-8000-00000000000a')
  })

  it('a page that is not a latest list (a challenge, an error, another page) is an AdapterError, never an empty feed', () => {
    expect(() => madaraFeed.read({ ...page('feed-madara.html', 'https://m.test/'), status: 503 })).toThrow(AdapterError)
    expect(() => madaraFeed.read(page('feed-mangathemesia.html', 'https://m.test/'))).toThrow(AdapterError)
    expect(() => mangaThemesiaFeed.read(page('feed-madara.html', 'https://m.test/'))).toThrow(AdapterError)
    expect(() =>
      mangaDexFeed('https://api.test', ['en']).read({ ...page('feed-mangadex.json', 'https://api.test/'), body: '<html>' }),
    ).toThrow(AdapterError)
  })

  it('a Site feed comes from its family recipe; families without a latest page have none', () => {
    expect(siteFeed(FAMILIES.madara.adapter())).toBe(madaraFeed)
    expect(siteFeed(FAMILIES.mangathemesia.adapter())).toBe(mangaThemesiaFeed)
    expect(siteFeed(FAMILIES.mangadex.adapter())).toBeDefined()
    expect(siteFeed(FAMILIES.keyoapp.adapter())).toBeUndefined()
  })
})
