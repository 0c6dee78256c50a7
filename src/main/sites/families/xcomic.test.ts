/** XCOMIC through its GraphQL chapter list, on answers of our own: the request, and where each part is read from. */
import { describe, expect, it } from 'vitest'
import { AdapterError, seriesRules, type AdapterStep } from '../site'
import { XCOMIC_ID_PATTERN, xcomicAdapter } from './xcomic'

const SERIES = 'https://xcomic.me/comic/184220-the-lighthouse-keeper'
const read = (body: string, series = SERIES): AdapterStep =>
  xcomicAdapter().read({ url: 'https://xcomic.me/query/', status: 200, contentType: 'application/json', body }, new URL(series))

const answer = (rows: unknown[]) => JSON.stringify({ data: { get_comic_chapterList_uniqList: { paging: { next: 2 }, items: rows } } })
const row = (data: Record<string, unknown>) => ({ id: String(data['id'] ?? 'x'), data })

describe('XCOMIC', () => {
  it('the series_id is the comic id of /comic/{id}-{slug} (or without a slug); a chapter page is no Series', () => {
    const rules = seriesRules(XCOMIC_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('184220')
    expect(rules.seriesIdOf(new URL('https://xcomic.net/comic/77'))).toBe('77')
    expect(rules.seriesIdOf(new URL('https://xcomic.me/search?word=x'))).toBeNull()
    expect(() => xcomicAdapter().request(new URL('https://xcomic.me/comic/chapter/9001'))).toThrow(AdapterError)
    expect(xcomicAdapter().recipe).toEqual({ family: 'xcomic' })
  })

  it("asks the GraphQL endpoint on the Series' own host for one row per chapter, newest first", () => {
    const request = xcomicAdapter().request(new URL(SERIES))
    expect(request).toMatchObject({ url: 'https://xcomic.me/query/', method: 'POST', headers: { 'Content-Type': 'application/json' } })
    const body = JSON.parse(request.body!) as { query: string; variables: unknown }
    expect(body.variables).toEqual({ select: { comic_id: '184220', page: 1, size: 100, sortby: 'chapter_desc' } })
    expect(body.query).toMatch(/^query get_comic_chapterList_uniqList\(\$select: Select_Comic_ChapterList_UniqList\)/)
    expect(body.query).toMatch(/get_comic_chapterList_uniqList\(select: \$select\)/)
  })

  it('chaNum is the chapter (serial when absent), dname and title its name, urlPath its page (else /comic/chapter/{id})', () => {
    const body = answer([
      row({ id: '9003', chaNum: 12, serial: 40, dname: 'Ch.12', title: 'The Storm', urlPath: '/comic/184220/chapter/9003-ch-12' }),
      row({ id: '9002', chaNum: 11.5, dname: '', title: null }),
      row({ id: '9001', serial: 3, dname: 'Vol.1 Ch.3' }),
    ])
    expect(read(body)).toEqual({
      kind: 'parsed',
      result: {
        chapters: [
          { number: 12, label: 'Ch.12: The Storm', url: 'https://xcomic.me/comic/184220/chapter/9003-ch-12' },
          { number: 11.5, label: 'Chapter 11.5', url: 'https://xcomic.me/comic/chapter/9002' },
          { number: 3, label: 'Vol.1 Ch.3', url: 'https://xcomic.me/comic/chapter/9001' },
        ],
      },
    })
    // On the mirror, the pages are the mirror's.
    const mirror = read(answer([row({ id: '5', chaNum: 5 })]), 'https://xcomic.net/comic/77')
    expect(mirror.kind === 'parsed' && mirror.result.chapters[0]!.url).toBe('https://xcomic.net/comic/chapter/5')
  })

  it('a row without a number or a page is skipped; errors or a bad answer are an AdapterError; no list is no chapter', () => {
    const odd = read(
      answer([
        row({ id: '1', chaNum: '4' }),
        row({ id: '../x', chaNum: 2 }),
        row({ id: '3', chaNum: -1 }),
        null,
        row({ id: '6', chaNum: 6 }),
      ]),
    )
    expect(odd.kind === 'parsed' && odd.result.chapters.map((c) => c.number)).toEqual([6])
    expect(() => read('{"errors":[{"message":"no such comic"}],"data":null}')).toThrow(/answered errors/)
    expect(() => read('<html>')).toThrow(/not JSON/)
    expect(() => read('{"data":{"get_comic_chapterList_uniqList":{"items":{}}}}')).toThrow(/no items array/)
    expect(read('{"data":{"get_comic_chapterList_uniqList":null}}')).toEqual({ kind: 'parsed', result: { chapters: [] } })
  })
})
