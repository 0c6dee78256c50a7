/** MangaHub through its GraphQL API on another host, on answers of our own: the request, and where each part is read from. */
import { describe, expect, it } from 'vitest'
import { knownSiteEntry, type KnownSite } from '../known-sites'
import { AdapterError, seriesRules, type AdapterStep } from '../site'
import { MANGAHUB_API, MANGAHUB_ID_PATTERN, mangaHubAdapter } from './mangahub'

const SERIES = 'https://mangahub.io/manga/martial-peak'
const read = (body: string, series = SERIES): AdapterStep =>
  mangaHubAdapter().read({ url: `${MANGAHUB_API}/graphql`, status: 200, contentType: 'application/json', body }, new URL(series))
const answer = (chapters: unknown, title: unknown = 'Martial Peak') => JSON.stringify({ data: { manga: { title, chapters } } })

describe('MangaHub', () => {
  it('the series_id is the slug of /manga/{slug} (what a backup stores too); a chapter page is no Series', () => {
    const rules = seriesRules(MANGAHUB_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('martial-peak')
    expect(rules.seriesIdOf(new URL('https://1manga.co/manga/solo_leveling/'))).toBe('solo_leveling')
    expect(rules.seriesIdOf(new URL('https://mangahub.io/chapter/martial-peak/chapter-12'))).toBeNull()
    expect(rules.seriesIdOf(new URL('https://mangahub.io/manga/x%22)%7B'))).toBeNull()
    expect(mangaHubAdapter().recipe).toEqual({ family: 'mangahub' })
  })

  it("asks the API host with the site's own source code and the slug, only the fields it reads", () => {
    const request = mangaHubAdapter().request(new URL(SERIES))
    expect(request).toMatchObject({
      url: 'https://api.mghcdn.com/graphql',
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json', Origin: 'https://mangahub.io' },
    })
    expect(JSON.parse(request.body!)).toEqual({
      query: '{ manga(x: m01, slug: "martial-peak") { title chapters { number title date } } }',
    })
    const sister = (url: string) => (JSON.parse(mangaHubAdapter().request(new URL(url)).body!) as { query: string }).query
    expect(sister('https://www.mangafox.fun/manga/a')).toContain('x: mf01, slug: "a"')
    expect(sister('https://onemanga.info/manga/b')).toContain('x: mh01,')
    expect(sister('https://manganel.me/manga/c')).toContain('x: mn05,')
    expect(() => mangaHubAdapter().request(new URL('https://mangahub.example/manga/a'))).toThrow(/no source code/)
    expect(() => mangaHubAdapter().request(new URL('https://mangahub.io/search'))).toThrow(AdapterError)
  })

  it('the number makes the page; the title names the chapter as the extension does; the date; the title of the Series', () => {
    const body = answer([
      { number: 1, title: '', date: '2026-11-28T10:15:00.000Z' },
      { number: 1.5, title: '  The   Extra ', date: '2026-11-29T10:15:00.000Z' },
      { number: 12.0, title: 'Chapter 12: Finale', date: 'not a date' },
    ])
    expect(read(body)).toEqual({
      kind: 'parsed',
      result: {
        title: 'Martial Peak',
        chapters: [
          {
            number: 1,
            label: 'Chapter 1',
            url: 'https://mangahub.io/chapter/martial-peak/chapter-1',
            released: { at: Date.parse('2026-11-28T10:15:00Z'), exact: true },
          },
          {
            number: 1.5,
            label: 'Chapter 1.5 - The Extra',
            url: 'https://mangahub.io/chapter/martial-peak/chapter-1.5',
            released: { at: Date.parse('2026-11-29T10:15:00Z'), exact: true },
          },
          { number: 12, label: 'Chapter 12: Finale', url: 'https://mangahub.io/chapter/martial-peak/chapter-12' },
        ],
      },
    })
    // A sister site: its own host makes the pages.
    const sister = read(answer([{ number: '3', title: 'x', date: '' }], null), 'https://mangareader.site/manga/tower')
    expect(sister).toEqual({
      kind: 'parsed',
      result: { chapters: [{ number: 3, label: 'Chapter 3 - x', url: 'https://mangareader.site/chapter/tower/chapter-3' }] },
    })
  })

  it('a bad number or row is skipped; an error, no manga or a bad answer is an AdapterError', () => {
    const odd = read(
      answer([{ number: -1, title: 'a' }, { number: '../5' }, { number: 1e12 }, null, 'x', { title: 'no number' }, { number: 4 }]),
    )
    expect(odd.kind === 'parsed' && odd.result.chapters.map((c) => c.number)).toEqual([4])
    expect(() => read('<html>')).toThrow(/not JSON/)
    expect(() => read('{"errors":[{"message":"api key invalid"}],"data":null}')).toThrow(/answered an error: api key invalid/)
    expect(() => read('{"data":{"manga":null}}')).toThrow(/names no manga/)
    expect(() => read('{"data":{"manga":{"chapters":{}}}}')).toThrow(/no chapters array/)
    expect(read(answer([], ''))).toEqual({ kind: 'parsed', result: { chapters: [] } })
  })

  it("a MangaHub Known Site's entry pins its own hosts and exactly the API's", () => {
    const known: KnownSite = { key: 'mangahub', name: 'MangaHub', lang: 'en', family: 'mangahub', baseUrl: 'https://mangahub.io' }
    expect(knownSiteEntry(known, new Set()).hosts).toEqual(['mangahub.io', 'www.mangahub.io', 'api.mghcdn.com'])
  })
})
