/** MangaBox as small pages of our own, one per layout (Manganato rows, Mangakakalot rows). */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createRegistry } from '../registry'
import { seriesRules, type ParsedSeries, type Site } from '../site'
import { checkSiteEntry } from '../sites-file'
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

  it('Mangabat rows on its older host: each /read-<id>-chap-<n> link a chapter of the Series /read-<id>', () => {
    const series = read(stored('mangabox-mangabat.html'), 'https://readmangabat.com/read-oa392319')
    expect(series.title).toBe('Lantern Moth')
    expect(series.chapters.map((c) => [c.number, c.url])).toEqual([
      [42, 'https://readmangabat.com/read-oa392319-chap-42'],
      [41.5, 'https://readmangabat.com/read-oa392319-chap-41.5'],
      [41, 'https://readmangabat.com/read-oa392319-chap-41'],
    ])
  })

  it('links outside the chapter list are not read', () => {
    expect(read('<div class="comments"><a href="/c/9">Chapter 9</a></div>').chapters).toEqual([])
  })
})

/** A MangaBox Site as sites.json makes it (a Known Site's entry names only its family): the URL shapes its hosts use. */
function boxSite(key: string, hosts: string[]): Site {
  const checked = checkSiteEntry({ key, name: key, hosts, family: 'mangabox' }, new Map())
  if ('problems' in checked) throw new Error(checked.problems.join('; '))
  return checked.site
}

describe('MangaBox URL shapes of real Sites', () => {
  const registry = createRegistry([
    boxSite('mangabat', ['www.mangabats.com', 'readmangabat.com']),
    boxSite('manganato', ['www.natomanga.com', 'chapmanganato.com', 'manganato.com']),
  ])
  const resolved = (url: string) => {
    const match = registry.resolve(url)
    return match && [match.site.key, match.seriesId, match.seriesUrl]
  }

  it.each([
    // Mangabat, older host: the Series, a chapter of it, a query.
    ['https://readmangabat.com/read-oa392319', ['mangabat', 'oa392319', 'https://readmangabat.com/read-oa392319']],
    ['https://readmangabat.com/read-oa392319-chap-42', ['mangabat', 'oa392319', 'https://readmangabat.com/read-oa392319']],
    ['https://readmangabat.com/read-oa392319/', ['mangabat', 'oa392319', 'https://readmangabat.com/read-oa392319/']],
    // Mangabat today.
    ['https://www.mangabats.com/manga/lantern-moth', ['mangabat', 'lantern-moth', 'https://www.mangabats.com/manga/lantern-moth']],
    [
      'https://www.mangabats.com/manga/lantern-moth/chapter-42',
      ['mangabat', 'lantern-moth', 'https://www.mangabats.com/manga/lantern-moth/'],
    ],
    // Manganato: its older hosts' /manga-<id>, and today's /manga/<slug>.
    ['https://chapmanganato.com/manga-xx123456', ['manganato', 'xx123456', 'https://chapmanganato.com/manga-xx123456']],
    ['https://chapmanganato.com/manga-xx123456/chapter-7', ['manganato', 'xx123456', 'https://chapmanganato.com/manga-xx123456/']],
    ['https://manganato.com/manga-xx123456?ref=home', ['manganato', 'xx123456', 'https://manganato.com/manga-xx123456']],
    ['https://www.natomanga.com/manga/paper-crane', ['manganato', 'paper-crane', 'https://www.natomanga.com/manga/paper-crane']],
  ])('%s', (url, expected) => {
    expect(resolved(url)).toEqual(expected)
  })

  it.each([
    'https://readmangabat.com/read-',
    'https://readmangabat.com/reader-oa392319',
    'https://readmangabat.com/x/read-oa392319',
    'https://www.mangabats.com/genre/action',
    'https://www.mangabats.com/manga/',
  ])('%s is no Series', (url) => {
    expect(registry.resolve(url)).toBeNull()
  })

  it('the ids older shapes read are the ones they always read', () => {
    const before = seriesRules(/^\/manga[/-]([^/?#]+)/).seriesIdOf
    const now = seriesRules(MANGABOX_ID_PATTERN).seriesIdOf
    for (const path of ['/manga/a-b-c', '/manga-ab123', '/manga-ab123/chapter-1', '/manga/read-x', '/manga--x', '/manga/x?y=1'])
      expect(now(new URL(path, 'https://box.example'))).toBe(before(new URL(path, 'https://box.example')))
  })
})
