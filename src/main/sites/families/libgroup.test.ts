/** LibGroup through its chapter list API, on answers of our own: the request, and where each part is read from. */
import { describe, expect, it } from 'vitest'
import { knownSiteEntry, type KnownSite } from '../known-sites'
import { AdapterError, seriesRules, type AdapterStep } from '../site'
import { LIBGROUP_API, LIBGROUP_ID_PATTERN, libGroupAdapter } from './libgroup'

const SERIES = 'https://mangalib.me/ru/manga/7580--i-alone-level-up'
const read = (body: string, series = SERIES): AdapterStep =>
  libGroupAdapter().read(
    { url: `${LIBGROUP_API}/api/manga/x/chapters`, status: 200, contentType: 'application/json', body },
    new URL(series),
  )

const branch = (open = true, at = '2026-11-28T10:15:00.000000Z') => ({
  branch_id: null,
  created_at: at,
  teams: [],
  restricted_view: { is_open: open },
})
const row = (volume: string, number: string, name: string | null, branches: unknown[] = [branch()]) => ({
  id: Number(number.replace('.', '')),
  volume,
  number,
  name,
  branches_count: branches.length,
  branches,
})

describe('LibGroup', () => {
  it("the series_id is {id}--{slug} of /ru/manga/…, /manga/… or a backup's /{id}--{slug}; a chapter page is no Series", () => {
    const rules = seriesRules(LIBGROUP_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('7580--i-alone-level-up')
    expect(rules.seriesIdOf(new URL('https://slashlib.me/manga/12--given'))).toBe('12--given')
    expect(rules.seriesIdOf(new URL('https://mangalib.me/7580--i-alone-level-up'))).toBe('7580--i-alone-level-up')
    expect(rules.seriesIdOf(new URL('https://mangalib.me/ru/7580--i-alone-level-up/read/v1/c1'))).toBeNull()
    expect(rules.seriesIdOf(new URL('https://mangalib.me/ru/manga/i-alone-level-up'))).toBeNull()
    expect(libGroupAdapter().recipe).toEqual({ family: 'libgroup' })
  })

  it('asks the API host for the chapters with the Site-Id of the Series’ site and its address as Referer', () => {
    expect(libGroupAdapter().request(new URL(SERIES))).toEqual({
      url: 'https://api.cdnlibs.org/api/manga/7580--i-alone-level-up/chapters',
      method: 'GET',
      headers: { Accept: 'application/json', 'Site-Id': '1', Referer: 'https://mangalib.me' },
    })
    expect(libGroupAdapter().request(new URL('https://slashlib.me/ru/manga/12--given')).headers?.['Site-Id']).toBe('2')
    expect(libGroupAdapter().request(new URL('https://www.hentailib.me/ru/manga/3--x')).headers?.['Site-Id']).toBe('4')
    expect(() => libGroupAdapter().request(new URL('https://ranobelib.me/ru/manga/3--x'))).toThrow(/no Site-Id/)
    expect(() => libGroupAdapter().request(new URL('https://mangalib.me/ru/catalog'))).toThrow(AdapterError)
  })

  it("number and volume make the name and the page; the chapter's own name follows; the first branch's date", () => {
    const body = JSON.stringify({
      data: [
        row('1', '1', null),
        row('1', '1.5', 'Экстра'),
        row('2', '12', 'Финал', [branch(true, '2026-12-01T08:00:00.000000Z'), branch(false)]),
      ],
    })
    expect(read(body)).toEqual({
      kind: 'parsed',
      result: {
        chapters: [
          {
            number: 1,
            label: 'Том 1. Глава 1',
            url: 'https://mangalib.me/ru/7580--i-alone-level-up/read/v1/c1',
            released: { at: Date.parse('2026-11-28T10:15:00Z'), exact: true },
          },
          {
            number: 1.5,
            label: 'Том 1. Глава 1.5 - Экстра',
            url: 'https://mangalib.me/ru/7580--i-alone-level-up/read/v1/c1.5',
            released: { at: Date.parse('2026-11-28T10:15:00Z'), exact: true },
          },
          {
            number: 12,
            label: 'Том 2. Глава 12 - Финал',
            url: 'https://mangalib.me/ru/7580--i-alone-level-up/read/v2/c12',
            released: { at: Date.parse('2026-12-01T08:00:00Z'), exact: true },
          },
        ],
      },
    })
  })

  it('a paid chapter (its first branch not open), a bad number or volume is skipped; a bad answer is an AdapterError', () => {
    const odd = read(
      JSON.stringify({
        data: [
          row('1', '3', null, [branch(false)]),
          row('1', '4', null, []),
          row('1', '../5', null),
          row('x', '6', null),
          null,
          { number: 7 },
        ],
      }),
    )
    expect(odd.kind === 'parsed' && odd.result.chapters.map((c) => [c.number, c.released])).toEqual([[4, undefined]])
    expect(() => read('<html>')).toThrow(/not JSON/)
    expect(() => read('{"data":{}}')).toThrow(/no data array/)
    expect(read('{"data":[]}')).toEqual({ kind: 'parsed', result: { chapters: [] } })
  })

  it("a LibGroup Known Site's entry pins its own hosts and exactly the API's", () => {
    const known: KnownSite = { key: 'mangalib', name: 'MangaLib', lang: 'ru', family: 'libgroup', baseUrl: 'https://mangalib.me' }
    expect(knownSiteEntry(known, new Set()).hosts).toEqual(['mangalib.me', 'www.mangalib.me', 'api.cdnlibs.org'])
    const madara: KnownSite = { key: 'm', name: 'M', lang: 'en', family: 'madara', baseUrl: 'https://m.example' }
    expect(knownSiteEntry(madara, new Set()).hosts).toEqual(['m.example', 'www.m.example'])
  })
})
