import { describe, expect, it } from 'vitest'
import { isCsv, parseUrlList } from './url-list'
import { parseCsv, toCsv } from './csv'

describe('a list of URLs', () => {
  it('one URL a line; blank lines and # comments left out; anything else is unreadable, with its line', () => {
    const parsed = parseUrlList('# my manga\r\nhttps://a.example/manga/one/\n\n  https://a.example/manga/two/  \nnot a url\n')
    expect(parsed.format).toBe('list')
    expect(parsed.entries.map((e) => [e.ref, e.target])).toEqual([
      ['line 2', { kind: 'url', url: 'https://a.example/manga/one/' }],
      ['line 4', { kind: 'url', url: 'https://a.example/manga/two/' }],
    ])
    expect(parsed.unreadable).toEqual([{ ref: 'line 5', detail: 'not a URL: not a url' }])
  })

  it('a 100,000-line list is refused', () => {
    const text = Array.from({ length: 100_000 }, (_, i) => `https://a.example/manga/${i}/`).join('\n')
    expect(() => parseUrlList(text)).toThrow(/^list: 100,000 lines; an import takes at most 50,000$/)
  })
})

describe('a CSV with a URL column', () => {
  it('reads title, status and progress columns, quoted fields and a semicolon delimiter', () => {
    const text =
      '\uFEFFTitle;URL;Status;Progress\n"Tower; the ""Climber""";https://a.example/manga/tower/;On hold;12.5\nBakery;https://a.example/manga/bakery/;;\n;;;\n;nope;;\n'
    expect(isCsv(text.slice(1))).toBe(true)
    const parsed = parseUrlList(text)
    expect(parsed.format).toBe('csv')
    expect(parsed.entries).toEqual([
      {
        ref: 'row 1',
        target: { kind: 'url', url: 'https://a.example/manga/tower/' },
        title: 'Tower; the "Climber"',
        status: 'waiting',
        progress: 12.5,
      },
      { ref: 'row 2', target: { kind: 'url', url: 'https://a.example/manga/bakery/' }, title: 'Bakery' },
    ])
    expect(parsed.unreadable).toEqual([{ ref: 'row 4', detail: 'not a URL: nope' }])
  })

  it("a Reader's own CSV download reads back with its Progress and when it was read", () => {
    const csv = toCsv(
      ['site', 'seriesId', 'title', 'url', 'status', 'progress', 'progressAt', 'latestChapter'],
      [['a', 'tower', '=Tower, 1+1', 'https://a.example/manga/tower/', 'dropped', 7, 1_700_000_000_000, 9]],
    )
    // A spreadsheet shows a leading = as text, not a formula, and the import takes the guard off again.
    expect(parseCsv(csv)[1]).toEqual(['a', 'tower', "'=Tower, 1+1", 'https://a.example/manga/tower/', 'dropped', '7', '1700000000000', '9'])
    expect(parseUrlList(csv).entries).toEqual([
      {
        ref: 'row 1',
        target: { kind: 'url', url: 'https://a.example/manga/tower/' },
        title: '=Tower, 1+1',
        status: 'dropped',
        progress: 7,
        progressAt: 1_700_000_000_000,
      },
    ])
  })
})
