/** MangaThemesia chapter rows as small pages: where each part of a row is read from. */
import { describe, expect, it } from 'vitest'
import { seriesRules, type AdapterStep, type ParsedSeries } from '../site'
import { MANGATHEMESIA_ID_PATTERN, mangaThemesiaAdapter } from './mangathemesia'

const SERIES = 'https://bloom.example/manga/iron-bloom/'

function read(body: string): ParsedSeries {
  const step: AdapterStep = mangaThemesiaAdapter().read({ url: SERIES, status: 200, contentType: 'text/html', body }, new URL(SERIES))
  if (step.kind !== 'parsed') throw new Error('expected parsed')
  return step.result
}

const list = (rows: string) => `<div id="chapterlist"><ul>${rows}</ul></div>`

describe('MangaThemesia', () => {
  it('the series_id is the whole slug after a leading /manga/', () => {
    const idOf = seriesRules(MANGATHEMESIA_ID_PATTERN).seriesIdOf
    expect(idOf(new URL(SERIES))).toBe('iron-bloom')
    expect(idOf(new URL('https://bloom.example/read/manga/iron-bloom/'))).toBeNull()
    expect(idOf(new URL('https://bloom.example/manga/'))).toBeNull()
  })

  it.each([
    ['/comics/iron-bloom/', 'iron-bloom'],
    ['/comic/iron-bloom', 'iron-bloom'],
    ['/series/iron-bloom/', 'iron-bloom'],
    ['/komik/iron-bloom/', 'iron-bloom'],
    ['/manhwa/iron-bloom/', 'iron-bloom'],
    ['/catalogue/iron-bloom/', 'iron-bloom'],
    ['/library/iron-bloom/', 'iron-bloom'],
  ])('every Site of the family reads the directory its install keeps Series under: %s', (path, id) => {
    const rules = seriesRules(MANGATHEMESIA_ID_PATTERN)
    const url = new URL(path, 'https://bloom.example')
    expect(rules.seriesIdOf(url)).toBe(id)
    expect(rules.canonicalUrl!(url)).toBe(url.href)
  })

  it.each(['/iron-bloom-chapter-61/', '/comicsx/iron-bloom/', '/genres/action/', '/x/comics/iron-bloom/'])(
    '%s is no Series (a chapter at the root names none)',
    (path) => {
      expect(seriesRules(MANGATHEMESIA_ID_PATTERN).seriesIdOf(new URL(path, 'https://bloom.example'))).toBeNull()
    },
  )

  it('asks for the Series page itself', () => {
    expect(mangaThemesiaAdapter().request(new URL(SERIES))).toEqual({ url: SERIES, method: 'GET' })
    expect(mangaThemesiaAdapter().recipe).toEqual({ family: 'mangathemesia' })
  })

  it.each([
    ['h1.entry-title first', '<div class="seriestuheader"><h1>Header</h1></div><h1 class="entry-title">Entry</h1>', 'Entry'],
    ['then the series header’s h1', '<h1>Page</h1><div class="seriestuheader"><h1>Header</h1></div>', 'Header'],
  ])('the title: %s', (_name, html, title) => {
    expect(read(html).title).toBe(title)
  })

  it('a row: data-num is the number, .chapternum the name, the first link the URL, .chapterdate the date', () => {
    const html = list(
      '<li data-num="🔒 61"><a href="/iron-bloom-chapter-61/"><span class="chapternum">Chapter 61 - Rust</span>' +
        '<span class="chapterdate">November 20, 2026</span></a><a href="/comments">comments</a></li>',
    )
    expect(read(html).chapters).toEqual([
      {
        number: 61,
        label: 'Chapter 61 - Rust',
        url: 'https://bloom.example/iron-bloom-chapter-61/',
        released: { at: Date.UTC(2026, 10, 20), exact: false },
      },
    ])
  })

  it('a data-num with no number: the number is read from the name, with the Series title dropped', () => {
    const html = `<h1 class="entry-title">Bloom 2</h1>${list('<li data-num="new"><a href="/c/7"><span class="chapternum">Bloom 2 Chapter 7</span></a></li>')}`
    expect(read(html).chapters.map((c) => c.number)).toEqual([7])
  })

  it('with no .chapternum, the name is the link inside .lch, else the first link', () => {
    const lch = list('<li data-num="8"><a href="/c/8">cover</a><div class="lch"><a href="/c/8">Chapter 8 - Lch</a></div></li>')
    expect(read(lch).chapters[0]?.label).toBe('Chapter 8 - Lch')
    const first = list('<li data-num="9"><span>new</span><a href="/c/9">Chapter 9 - First</a></li>')
    expect(read(first).chapters[0]?.label).toBe('Chapter 9 - First')
  })

  it('a row with no name is labelled by its number; one with no link has no URL', () => {
    expect(read(list('<li data-num="10"><span>10</span></li>')).chapters).toEqual([{ number: 10, label: 'Chapter 10', url: '' }])
  })

  it('a row with no number anywhere is no chapter; rows outside the list are not read', () => {
    const html = `${list('<li data-num="soon"><a href="/c/x">Coming soon</a></li>')}<ul class="comments"><li data-num="99"><a href="/c/99">Chapter 99</a></li></ul>`
    expect(read(html).chapters).toEqual([])
  })

  it('the rows of div.eplister count where there is no #chapterlist', () => {
    expect(
      read('<div class="eplister"><ul><li data-num="250"><a href="/c/250">Chapter 250</a></li></ul></div>').chapters.map((c) => c.number),
    ).toEqual([250])
  })
})
