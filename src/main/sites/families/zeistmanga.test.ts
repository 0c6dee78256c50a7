/**
 * ZeistManga as small pages of our own, one per template version (where the page names its chapter feed),
 * and a Blogger feed: the Series page asks for the feed; the feed is the chapters.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AdapterError, seriesRules, type AdapterStep, type Page } from '../site'
import { ZEISTMANGA_ID_PATTERN, zeistMangaAdapter } from './zeistmanga'

const SERIES = 'https://bruma.example/2026/01/luz-de-invierno.html'
const stored = (name: string) => readFileSync(join(__dirname, '..', 'testdata', name), 'utf8')
const page = (body: string, contentType = 'text/html', url = SERIES): Page => ({ url, status: 200, contentType, body })
const read = (p: Page): AdapterStep => zeistMangaAdapter().read(p, new URL(SERIES))

describe('ZeistManga', () => {
  it('the series_id is the post: year, month and slug; the canonical URL keeps .html', () => {
    const rules = seriesRules(ZEISTMANGA_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('2026/01/luz-de-invierno')
    expect(rules.canonicalUrl!(new URL(`${SERIES}?m=1#top`))).toBe(SERIES)
    expect(rules.seriesIdOf(new URL('https://bruma.example/p/about.html'))).toBeNull()
    expect(rules.seriesIdOf(new URL('https://bruma.example/search/label/Series'))).toBeNull()
  })

  it.each([
    [
      'clwd.run names the label under Chapter',
      'zeistmanga-clwd.html',
      '/feeds/posts/default/-/Chapter/Luz%20de%20Invierno',
      'Luz de Invierno',
    ],
    ['#myUL loads the feed itself', 'zeistmanga-myul.html', '/feeds/posts/default/-/Desert%20Bloom', 'Desert Bloom'],
    ['#latest sets the label', 'zeistmanga-latest.html', '/feeds/posts/default/-/Pedang%20Angin', 'Pedang Angin'],
  ])('the Series page asks for its feed: %s', (_name, file, path, title) => {
    expect(read(page(stored(file)))).toEqual({
      kind: 'follow',
      request: { url: `https://bruma.example${path}?alt=json&start-index=1&max-results=500`, method: 'GET' },
      partial: { title },
    })
  })

  it('the feed: each post but the Series’ own is a chapter, its alternate link the URL, published its date', () => {
    const step = read(page(stored('zeistmanga-feed.json'), 'application/json; charset=UTF-8', 'https://bruma.example/feeds/x'))
    expect(step).toEqual({
      kind: 'parsed',
      result: {
        chapters: [
          {
            number: 12,
            label: 'Luz de Invierno Capítulo 12',
            url: 'https://bruma.example/2026/11/luz-de-invierno-capitulo-12.html',
            released: { at: Date.UTC(2026, 10, 28, 13, 15), exact: true },
          },
          {
            number: 11.5,
            label: 'Luz de Invierno Capítulo 11.5',
            url: 'https://bruma.example/2026/11/luz-de-invierno-capitulo-11-5.html',
            released: { at: Date.UTC(2026, 10, 20, 13, 15), exact: true },
          },
        ],
      },
    })
  })

  it('a page naming no feed, a feed that is not JSON or has no entry list: an AdapterError in words', () => {
    expect(() => read(page('<h1>Blog</h1><p>No chapters here</p>'))).toThrow(AdapterError)
    expect(() => read(page('{"feed": ', 'application/json'))).toThrow(/not JSON/)
    expect(() => read(page('{"feed": {"entry": 5}}', 'application/json'))).toThrow(/no entry list/)
    expect(read(page('{"feed": {}}', 'application/json'))).toEqual({ kind: 'parsed', result: { chapters: [] } })
  })

  it('a feed entry with no alternate http(s) link is no chapter', () => {
    const feed = JSON.stringify({
      feed: {
        entry: [
          { title: { $t: 'Chapter 3' }, link: [{ rel: 'alternate', href: 'javascript:alert(1)' }] },
          { title: { $t: 'Chapter 2' }, link: [{ rel: 'self', href: 'https://bruma.example/x' }] },
        ],
      },
    })
    expect(read(page(feed, 'application/json'))).toEqual({ kind: 'parsed', result: { chapters: [] } })
  })
})
