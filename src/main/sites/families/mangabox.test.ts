/** MangaBox as small pages of our own, one per layout (Manganato rows, Mangakakalot rows). */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seriesRules, type ParsedSeries } from '../site'
import { MANGABOX_ID_PATTERN, mangaBoxAdapter } from './mangabox'

const stored = (name: string) => readFileSync(join(__dirname, '..', 'testdata', name), 'utf8')

function read(body: string, url = 'https://box.example/manga/paper-crane'): ParsedSeries {
  const step = mangaBoxAdapter().read({ url, status: 200, contentType: 'text/html', body }, new URL(url))
  if (step.kind !== 'parsed') throw new Error('expected parsed')
  return step.result
}

describe('MangaBox', () => {
  it('the series_id is the slug after /manga/ (or /manga-); a chapter URL names its Series', () => {
    const rules = seriesRules(MANGABOX_ID_PATTERN)
    expect(rules.seriesIdOf(new URL('https://box.example/manga/paper-crane'))).toBe('paper-crane')
    expect(rules.seriesIdOf(new URL('https://box.example/manga-ab123456'))).toBe('ab123456')
    expect(rules.canonicalUrl!(new URL('https://box.example/manga/paper-crane/chapter-1074'))).toBe(
      'https://box.example/manga/paper-crane/',
    )
    expect(rules.seriesIdOf(new URL('https://box.example/genre/action'))).toBeNull()
    expect(mangaBoxAdapter().recipe).toEqual({ family: 'mangabox' })
  })

  it('Manganato rows: the link is the chapter, a thousands separator read whole, the view count never a number', () => {
    expect(read(stored('mangabox-nelo.html'))).toEqual({
      title: 'Paper Crane',
      chapters: [
        { number: 1074, label: 'Chapter 1,074: Folded', url: 'https://box.example/manga/paper-crane/chapter-1074' },
        { number: 1073.5, label: 'Vol.54 Chapter 1073.5', url: 'https://box.example/manga/paper-crane/chapter-1073-5' },
      ],
    })
  })

  it('Mangakakalot rows: relative links made absolute, a year in parentheses never the chapter', () => {
    const series = read(stored('mangabox-kakalot.html'), 'https://kakalot.example/manga/iron-lotus')
    expect(series.title).toBe('Iron Lotus')
    expect(series.chapters).toEqual([
      { number: 88, label: 'Chapter 88', url: 'https://kakalot.example/chapter/iron-lotus/chapter_88' },
      { number: 87, label: 'Chapter 87 (2019)', url: 'https://kakalot.example/chapter/iron-lotus/chapter_87' },
    ])
  })

  it('links outside the chapter list are not read', () => {
    expect(read('<div class="comments"><a href="/c/9">Chapter 9</a></div>').chapters).toEqual([])
  })
})
