/** MadTheme as small pages of our own: the Series page and the chapter-list fragment its API answers. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seriesRules, type ParsedSeries } from '../site'
import { MADTHEME_ID_PATTERN, madThemeAdapter } from './madtheme'

const SERIES = 'https://buddy.example/night-orchard'
const stored = (name: string) => readFileSync(join(__dirname, '..', 'testdata', name), 'utf8')

function read(body: string, url = SERIES): ParsedSeries {
  const step = madThemeAdapter().read({ url, status: 200, contentType: 'text/html', body }, new URL(SERIES))
  if (step.kind !== 'parsed') throw new Error('expected parsed')
  return step.result
}

describe('MadTheme', () => {
  it('the series_id is the first segment (or the one after /manga/); a chapter URL names its Series', () => {
    const rules = seriesRules(MADTHEME_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('night-orchard')
    expect(rules.seriesIdOf(new URL('https://kali.example/manga/1234-night-orchard/'))).toBe('1234-night-orchard')
    expect(rules.canonicalUrl!(new URL(`${SERIES}/chapter-31`))).toBe(`${SERIES}/`)
  })

  it('asks the chapter API for a /{slug} Series, and the page itself for a /manga/{id}-{slug} one', () => {
    expect(madThemeAdapter().request(new URL(SERIES))).toEqual({
      url: 'https://buddy.example/api/manga/night-orchard/chapters?source=detail',
      method: 'GET',
    })
    const byId = 'https://kali.example/manga/1234-night-orchard/'
    expect(madThemeAdapter().request(new URL(byId))).toEqual({ url: byId, method: 'GET' })
    expect(madThemeAdapter().recipe).toEqual({ family: 'madtheme' })
  })

  it('the API fragment: #chapter-list rows, .chapter-title the name, .chapter-update the date', () => {
    expect(read(stored('madtheme-chapters.html'), `https://buddy.example/api/manga/night-orchard/chapters?source=detail`)).toEqual({
      chapters: [
        {
          number: 31,
          label: 'Chapter 31 - Harvest',
          url: 'https://buddy.example/night-orchard/chapter-31',
          released: { at: Date.UTC(2026, 10, 28), exact: false },
        },
        {
          number: 30,
          label: 'Chapter 30',
          url: 'https://buddy.example/night-orchard/chapter-30',
          released: { at: Date.UTC(2026, 10, 21), exact: false },
        },
        { number: 1, label: 'Chapter 1', url: 'https://buddy.example/night-orchard/chapter-1' },
      ],
    })
  })

  it('the Series page: its title and the rows it shows, a relative date not read', () => {
    const series = read(stored('madtheme.html'))
    expect(series.title).toBe('Night Orchard')
    expect(series.chapters.map((c) => [c.number, c.url, c.released?.at])).toEqual([
      [31, 'https://buddy.example/night-orchard/chapter-31', Date.UTC(2026, 10, 28)],
      [30, 'https://buddy.example/night-orchard/chapter-30', undefined],
    ])
  })
})
