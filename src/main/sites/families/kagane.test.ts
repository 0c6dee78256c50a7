/** Kagane through its Series API, on answers of our own: the request, and where each part is read from. */
import { describe, expect, it } from 'vitest'
import { AdapterError, seriesRules, type AdapterStep } from '../site'
import { KAGANE_ID_PATTERN, kaganeAdapter } from './kagane'

const SERIES = 'https://kagane.to/series/3fA9-x_Q'
const read = (body: string, series = SERIES): AdapterStep =>
  kaganeAdapter().read(
    { url: 'https://kagane.to/api/v2/series/3fA9-x_Q', status: 200, contentType: 'application/json', body },
    new URL(series),
  )

const book = (b: Record<string, unknown>) => ({ page_count: 20, groups: [], ...b })

describe('Kagane', () => {
  it('the series_id is the id of /series/{id}; a reader page is no Series', () => {
    const rules = seriesRules(KAGANE_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('3fA9-x_Q')
    expect(rules.seriesIdOf(new URL('https://kagane.to/series/77/'))).toBe('77')
    expect(rules.seriesIdOf(new URL('https://kagane.to/series/77/reader/9'))).toBeNull()
    expect(rules.seriesIdOf(new URL('https://kagane.to/search?q=x'))).toBeNull()
    expect(() => kaganeAdapter().request(new URL('https://kagane.to/series/77/reader/9'))).toThrow(AdapterError)
    expect(kaganeAdapter().recipe).toEqual({ family: 'kagane' })
  })

  it("asks the Series API on the Series' own host", () => {
    expect(kaganeAdapter().request(new URL(SERIES))).toEqual({
      url: 'https://kagane.to/api/v2/series/3fA9-x_Q',
      method: 'GET',
      headers: { Accept: 'application/json' },
    })
  })

  it('chapter_no is the number (else the title, else sort_no), the title its name, the reader its page; newest first', () => {
    const body = JSON.stringify({
      title: 'Harbour Lights',
      series_books: [
        book({ book_id: 'b1', title: '', chapter_no: '1', volume_no: '1', sort_no: 1, created_at: '2026-01-02T10:00:00' }),
        book({ book_id: 'b2', title: 'Chapter 2: Fog', chapter_no: '', volume_no: null, sort_no: 2 }),
        book({ book_id: 'b3', title: 'Extra', chapter_no: null, sort_no: 2.5 }),
        book({ book_id: 'b4', title: 'The Storm', chapter_no: '3.5', sort_no: 4, created_at: '2026-03-04T00:00:00' }),
      ],
    })
    expect(read(body)).toEqual({
      kind: 'parsed',
      result: {
        title: 'Harbour Lights',
        chapters: [
          {
            number: 3.5,
            label: 'The Storm',
            url: 'https://kagane.to/series/3fA9-x_Q/reader/b4',
            released: { at: Date.UTC(2026, 2, 4), exact: false },
          },
          { number: 2.5, label: 'Extra', url: 'https://kagane.to/series/3fA9-x_Q/reader/b3' },
          { number: 2, label: 'Chapter 2: Fog', url: 'https://kagane.to/series/3fA9-x_Q/reader/b2' },
          {
            number: 1,
            label: 'Vol.1 Ch.1',
            url: 'https://kagane.to/series/3fA9-x_Q/reader/b1',
            released: { at: Date.UTC(2026, 0, 2), exact: false },
          },
        ],
      },
    })
  })

  it('a row without a number or a safe id is skipped; a repeated number keeps its newest row; bad answers are an AdapterError', () => {
    const odd = read(
      JSON.stringify({
        title: 'T',
        series_books: [
          book({ book_id: 'old', chapter_no: '5' }),
          book({ book_id: '../x', chapter_no: '6' }),
          book({ book_id: 'n', title: 'Notice' }),
          null,
          book({ book_id: 'new', chapter_no: '5' }),
        ],
      }),
    )
    expect(odd.kind === 'parsed' && odd.result.chapters.map((c) => c.url)).toEqual(['https://kagane.to/series/3fA9-x_Q/reader/new'])
    expect(read(JSON.stringify({ title: 'No books' }))).toEqual({ kind: 'parsed', result: { title: 'No books', chapters: [] } })
    expect(() => read(JSON.stringify({ series_books: {} }))).toThrow(AdapterError)
    expect(() => read('[]')).toThrow(AdapterError)
    expect(() => read('<html>Just a moment...</html>')).toThrow(AdapterError)
  })
})
