/** Komiic through its GraphQL chapter list, on answers of our own: the request, and where each part is read from. */
import { describe, expect, it } from 'vitest'
import { AdapterError, seriesRules, type AdapterStep } from '../site'
import { KOMIIC_ID_PATTERN, komiicAdapter } from './komiic'

const SERIES = 'https://komiic.com/comic/1733'
const read = (body: string, series = SERIES): AdapterStep =>
  komiicAdapter().read({ url: 'https://komiic.com/api/query', status: 200, contentType: 'application/json', body }, new URL(series))
const answer = (rows: unknown[]) => JSON.stringify({ data: { chaptersByComicId: rows } })
const row = (id: string, serial: string, type = 'chapter', dateCreated = '2026-11-28T10:15:00Z') => ({
  id,
  serial,
  type,
  size: 20,
  dateCreated,
})

describe('Komiic', () => {
  it('the series_id is the id of /comic/{id}; a chapter page is no Series', () => {
    const rules = seriesRules(KOMIIC_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('1733')
    expect(rules.seriesIdOf(new URL('https://komiic.cc/comic/1733/'))).toBe('1733')
    expect(rules.seriesIdOf(new URL('https://komiic.com/comic/1733/chapter/99/images/all'))).toBeNull()
    expect(() => komiicAdapter().request(new URL('https://komiic.com/rank'))).toThrow(AdapterError)
    expect(komiicAdapter().recipe).toEqual({ family: 'komiic' })
  })

  it("asks the GraphQL endpoint on the Series' own host for the comic's chapters", () => {
    const request = komiicAdapter().request(new URL(SERIES))
    expect(request).toMatchObject({ url: 'https://komiic.com/api/query', method: 'POST', headers: { 'Content-Type': 'application/json' } })
    const body = JSON.parse(request.body!) as { query: string; variables: unknown }
    expect(body.variables).toEqual({ comicId: '1733' })
    expect(body.query).toMatch(/chaptersByComicId\(comicId: \$comicId\) \{ id serial type dateCreated \}/)
  })

  it('a "chapter" row is a chapter by its serial, named 第 N 話, its page under the comic; a "book" (volume) is not', () => {
    const body = answer([row('501', '12'), row('500', '11.5', 'chapter', 'not a date'), row('90', '3', 'book'), row('1', '1')])
    expect(read(body)).toEqual({
      kind: 'parsed',
      result: {
        chapters: [
          {
            number: 12,
            label: '第 12 話',
            url: 'https://komiic.com/comic/1733/chapter/501/images/all',
            released: { at: Date.parse('2026-11-28T10:15:00Z'), exact: true },
          },
          { number: 11.5, label: '第 11.5 話', url: 'https://komiic.com/comic/1733/chapter/500/images/all' },
          {
            number: 1,
            label: '第 1 話',
            url: 'https://komiic.com/comic/1733/chapter/1/images/all',
            released: { at: Date.parse('2026-11-28T10:15:00Z'), exact: true },
          },
        ],
      },
    })
  })

  it('a bad serial or id is skipped; errors or a bad answer are an AdapterError; no list is no chapter', () => {
    const odd = read(answer([row('7', 'x'), row('../8', '8'), row('9', '9'), null, { id: '10', serial: 10, type: 'chapter' }]))
    expect(odd.kind === 'parsed' && odd.result.chapters.map((c) => c.number)).toEqual([9])
    expect(() => read('{"errors":[{"message":"comic not found"}],"data":null}')).toThrow(/answered errors/)
    expect(() => read('<html>')).toThrow(/not JSON/)
    expect(() => read('{"data":{"chaptersByComicId":{}}}')).toThrow(/no chaptersByComicId array/)
    expect(read('{"data":{"chaptersByComicId":null}}')).toEqual({ kind: 'parsed', result: { chapters: [] } })
  })
})
