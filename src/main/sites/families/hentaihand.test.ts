/** HentaiHand through its comic API, on answers of our own: the request, and when the comic is its one chapter. */
import { describe, expect, it } from 'vitest'
import { AdapterError, seriesRules, type AdapterStep } from '../site'
import { HENTAIHAND_ID_PATTERN, hentaiHandAdapter } from './hentaihand'

const SERIES = 'https://hentaihand.com/en/comic/the-quiet-harbour-1234'
const read = (body: string, series = SERIES): AdapterStep =>
  hentaiHandAdapter().read(
    { url: 'https://hentaihand.com/api/comics/x', status: 200, contentType: 'application/json', body },
    new URL(series),
  )

describe('HentaiHand', () => {
  it('the series_id is the slug of /{lang}/comic/{slug} (or without a language); other pages are no Series', () => {
    const rules = seriesRules(HENTAIHAND_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('the-quiet-harbour-1234')
    expect(rules.seriesIdOf(new URL('https://nhentai.com/zh-CN/comic/abc_9/'))).toBe('abc_9')
    expect(rules.seriesIdOf(new URL('https://nhentai.com/comic/abc'))).toBe('abc')
    expect(rules.seriesIdOf(new URL('https://hentaihand.com/en/tag/abc'))).toBeNull()
    expect(rules.seriesIdOf(new URL('https://hentaihand.com/en/comic/abc/reader/1'))).toBeNull()
    expect(() => hentaiHandAdapter().request(new URL('https://hentaihand.com/en/tags'))).toThrow(AdapterError)
    expect(hentaiHandAdapter().recipe).toEqual({ family: 'hentaihand' })
  })

  it("asks the comic's API on the Series' own host, as JSON", () => {
    expect(hentaiHandAdapter().request(new URL(SERIES))).toEqual({
      url: 'https://hentaihand.com/api/comics/the-quiet-harbour-1234',
      method: 'GET',
      headers: { Accept: 'application/json', Referer: 'https://hentaihand.com/' },
    })
    expect(hentaiHandAdapter().request(new URL('https://nhentai.com/fr/comic/k-2')).url).toBe('https://nhentai.com/api/comics/k-2')
  })

  it('the comic is chapter 1 at its own page, titled by the answer', () => {
    const body = JSON.stringify({
      id: 77,
      slug: 'the-quiet-harbour-1234',
      title: '  The Quiet   Harbour ',
      pages: 24,
      updated_at: '2026-01-02',
    })
    expect(read(body)).toEqual({
      kind: 'parsed',
      result: {
        title: 'The Quiet Harbour',
        chapters: [{ number: 1, label: 'Gallery', url: 'https://hentaihand.com/en/comic/the-quiet-harbour-1234' }],
      },
    })
    // A trailing slash or a query is not part of the chapter's page.
    const slash = read(body, `${SERIES}/?ref=home`)
    expect(slash.kind === 'parsed' && slash.result.chapters[0]!.url).toBe('https://hentaihand.com/en/comic/the-quiet-harbour-1234')
  })

  it("another comic's answer is no chapter; a list, null or no JSON is an AdapterError", () => {
    expect(read(JSON.stringify({ slug: 'another-one', title: 'Another' }))).toEqual({
      kind: 'parsed',
      result: { title: 'Another', chapters: [] },
    })
    expect(read(JSON.stringify({ title: 'No slug' }))).toMatchObject({ result: { chapters: [] } })
    expect(() => read('[]')).toThrow(AdapterError)
    expect(() => read('null')).toThrow(AdapterError)
    expect(() => read('<html>Just a moment...</html>')).toThrow(AdapterError)
  })
})
