/** MangaDex's feed as small JSON answers: the request, what a chapter needs to count, its label and link, the title. */
import { describe, expect, it } from 'vitest'
import { AdapterError, type ParsedSeries } from '../site'
import { mangaDexAdapter } from './mangadex'

const ID = 'a96676e5-8ae2-425e-b549-7f15dd34a6d8'
const SERIES = new URL(`https://mangadex.org/title/${ID}/komi-san-wa-komyushou-desu`)
const adapter = (languages?: string[]) => mangaDexAdapter({ apiBase: 'https://api.mangadex.org', ...(languages ? { languages } : {}) })

function read(
  feed: unknown,
  { status = 200, series = SERIES, languages }: { status?: number; series?: URL; languages?: string[] } = {},
): ParsedSeries {
  const body = typeof feed === 'string' ? feed : JSON.stringify(feed)
  const step = adapter(languages).read({ url: 'https://api.mangadex.org/x', status, contentType: 'application/json', body }, series)
  if (step.kind !== 'parsed') throw new Error('expected parsed')
  return step.result
}

/** One feed item: an English chapter with pages, unless `over` says otherwise. */
const item = (over: Record<string, unknown> = {}, attributes: Record<string, unknown> = {}) => ({
  id: 'c-1',
  type: 'chapter',
  attributes: { chapter: '10', volume: null, title: null, translatedLanguage: 'en', pages: 20, externalUrl: null, ...attributes },
  relationships: [],
  ...over,
})
const manga = (title: unknown) => ({ type: 'manga', id: ID, attributes: { title } })

describe('MangaDex: the request', () => {
  it('asks the feed of the title, newest first, in every content rating, with the manga, as JSON', () => {
    const request = adapter().request(SERIES)
    expect(request.method).toBe('GET')
    expect(request.headers).toEqual({ Accept: 'application/json' })
    const url = new URL(request.url)
    expect(`${url.origin}${url.pathname}`).toBe(`https://api.mangadex.org/manga/${ID}/feed`)
    expect([...url.searchParams]).toEqual([
      ['translatedLanguage[]', 'en'],
      ['order[volume]', 'desc'],
      ['order[chapter]', 'desc'],
      ['limit', '100'],
      ['includeFuturePublishAt', '0'],
      ['includeEmptyPages', '0'],
      ['contentRating[]', 'safe'],
      ['contentRating[]', 'suggestive'],
      ['contentRating[]', 'erotica'],
      ['contentRating[]', 'pornographic'],
      ['includes[]', 'manga'],
    ])
  })

  it('an API base with a trailing slash is joined without a double one', () => {
    const request = mangaDexAdapter({ apiBase: 'https://api.example/v5/' }).request(SERIES)
    expect(request.url.startsWith(`https://api.example/v5/manga/${ID}/feed?`)).toBe(true)
  })

  it('an empty list of languages asks in English', () => {
    expect(new URL(adapter([]).request(SERIES).url).searchParams.getAll('translatedLanguage[]')).toEqual(['en'])
    expect(mangaDexAdapter({ apiBase: 'https://api.mangadex.org' }).recipe).toEqual({
      family: 'mangadex',
      apiBase: 'https://api.mangadex.org',
    })
  })

  it.each([['/title/not-a-uuid/komi'], ['/manga/' + ID]])('%s is not a title URL: an adapter error', (path) => {
    const url = new URL(`https://mangadex.org${path}`)
    expect(() => adapter().request(url)).toThrow(new AdapterError(`not a MangaDex title URL: ${path}`))
  })
})

describe('MangaDex: the answer', () => {
  it.each([
    ['a 204, whatever its body', { data: [item()] }, 204],
    ['an empty 200', '', 200],
    ['a 200 of white space', ' \n ', 200],
  ])('%s is an empty list', (_name, feed, status) => {
    expect(read(feed, { status })).toEqual({ chapters: [] })
  })

  it.each([
    ['not JSON', '<html>', 'MangaDex feed is not JSON'],
    ['an error object', { result: 'error' }, 'MangaDex feed has no data array'],
    ['data that is not a list', { data: { id: 1 } }, 'MangaDex feed has no data array'],
  ])('%s is an adapter error', (_name, feed, message) => {
    expect(() => read(feed)).toThrow(new AdapterError(message))
  })
})

describe('MangaDex: a chapter', () => {
  it('counts with its number; its label has its volume and name; its link is the chapter on mangadex.org; its date is publishAt', () => {
    const feed = {
      data: [item({ id: 'c-101' }, { chapter: '101', volume: '12', title: 'The  Long Way', publishAt: '2026-11-29T15:04:05+00:00' })],
    }
    expect(read(feed).chapters).toEqual([
      {
        number: 101,
        label: 'Vol. 12 Ch. 101 - The Long Way',
        url: 'https://mangadex.org/chapter/c-101',
        released: { at: Date.UTC(2026, 10, 29, 15, 4, 5), exact: true },
      },
    ])
  })

  it('without a volume or a name, the label is the chapter alone', () => {
    expect(read({ data: [item({}, { chapter: '7' })] }).chapters[0]?.label).toBe('Ch. 7')
  })

  it('values of the wrong type are left out, never read as text', () => {
    const feed = { data: [item({ id: 5 }, { chapter: '8', volume: 3, title: 4, publishAt: 1_700_000_000 })] }
    expect(read(feed).chapters).toEqual([{ number: 8, label: 'Ch. 8', url: '' }])
  })

  it('an id of 64 characters links the chapter, escaped; a longer one links nothing', () => {
    const long = 'x'.repeat(64)
    expect(read({ data: [item({ id: `${long.slice(1)}/` })] }).chapters[0]?.url).toBe(`https://mangadex.org/chapter/${long.slice(1)}%2F`)
    expect(read({ data: [item({ id: `${long}y` })] }).chapters[0]?.url).toBe('')
  })

  it.each([
    ['no attributes', item({ attributes: undefined })],
    ['a null item', null],
    ['a chapter that is not a string', item({}, { chapter: 12 })],
    ['no chapter number', item({}, { chapter: 'Oneshot' })],
    ['another language', item({}, { translatedLanguage: 'ja' })],
    ['no language', item({}, { translatedLanguage: undefined })],
    ['hosted elsewhere, with no pages here', item({}, { externalUrl: 'https://elsewhere.example/c/10', pages: 0 })],
  ])('%s: not counted', (_name, one) => {
    expect(read({ data: [one] }).chapters).toEqual([])
  })

  it('hosted elsewhere but with pages here too: counted', () => {
    expect(read({ data: [item({}, { externalUrl: 'https://elsewhere.example/c/10', pages: 12 })] }).chapters.map((c) => c.number)).toEqual([
      10,
    ])
  })

  it("only the Site's languages count", () => {
    const feed = { data: [item({}, { chapter: '11', translatedLanguage: 'pt-br' }), item({}, { chapter: '10' })] }
    expect(read(feed).chapters.map((c) => c.number)).toEqual([10])
    expect(read(feed, { languages: ['pt-br'] }).chapters.map((c) => c.number)).toEqual([11])
  })
})

describe('MangaDex: the title', () => {
  it.each([
    ['its English title', [manga({ ja: 'こみ', en: ' Komi  Can’t Communicate ' })], 'Komi Can’t Communicate'],
    ['else its first title', [manga({ ja: 'Komi-san wa' })], 'Komi-san wa'],
    ['from the manga, not an author listed before it', [{ type: 'author', attributes: { name: 'Oda' } }, manga({ en: 'Komi' })], 'Komi'],
    ['past a null relationship', [null, manga({ en: 'Komi' })], 'Komi'],
  ])('%s', (_name, relationships, title) => {
    expect(read({ data: [item({ relationships })] }).title).toBe(title)
  })

  it.each([
    ['a manga without attributes', [{ type: 'manga', id: ID }]],
    ['titles that are a string', [manga('Komi')]],
    ['a title that is not a string', [manga({ en: 5 })]],
    ['no relationships at all', undefined],
  ])('%s: the title comes from the URL’s slug, in words', (_name, relationships) => {
    expect(read({ data: [item({ relationships })] }).title).toBe('Komi San Wa Komyushou Desu')
  })

  it('no slug, or one that does not decode: no title', () => {
    expect(read({ data: [] }, { series: new URL(`https://mangadex.org/title/${ID}`) })).toEqual({ chapters: [] })
    expect(read({ data: [] }, { series: new URL(`https://mangadex.org/title/${ID}/%E0%A4%A`) })).toEqual({ chapters: [] })
  })

  it('a slug of dashes only is no title', () => {
    expect(read({ data: [] }, { series: new URL(`https://mangadex.org/title/${ID}/---`) })).toEqual({ chapters: [] })
  })
})

describe('MangaDex: fields of another JSON type than the feed gives', () => {
  it('a volume or a name that is a list is left out of the label; the chapter still counts', () => {
    const result = read({ data: [item({}, { volume: ['12'], title: ['The Long Way'] })] })
    expect(result.chapters.map((c) => [c.number, c.label])).toEqual([[10, 'Ch. 10']])
  })

  it("a manga's title that is a list is no title: the title comes from the URL, as with none", () => {
    const none = read({ data: [item()] }).title
    expect(none).toBeTruthy()
    expect(read({ data: [item({ relationships: [manga({ en: ['Komi'] })] })] }).title).toBe(none)
  })

  it('a language that is a list is no wanted language', () => {
    expect(read({ data: [item({}, { translatedLanguage: ['en'] })] }).chapters).toEqual([])
  })
})
