/** FoolSlide on a page of our own: the POST that passes the adult notice, the grouped rows, the dotted date. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seriesRules, type ParsedSeries } from '../site'
import { FOOLSLIDE_ID_PATTERN, foolSlideAdapter } from './foolslide'

const SERIES = 'https://fool.example/series/iron-lantern/'
const stored = (name: string) => readFileSync(join(__dirname, '..', 'testdata', name), 'utf8')

function read(body: string): ParsedSeries {
  const step = foolSlideAdapter().read({ url: SERIES, status: 200, contentType: 'text/html', body }, new URL(SERIES))
  if (step.kind !== 'parsed') throw new Error('expected parsed')
  return step.result
}

describe('FoolSlide', () => {
  it('the series_id is the slug after /series/, under one folder too; a reader URL is no Series', () => {
    const rules = seriesRules(FOOLSLIDE_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('iron-lantern')
    expect(rules.seriesIdOf(new URL('https://menudo.example/slide/series/gato/'))).toBe('gato')
    expect(rules.canonicalUrl!(new URL('https://menudo.example/slide/series/gato/page/2'))).toBe(
      'https://menudo.example/slide/series/gato/',
    )
    expect(rules.seriesIdOf(new URL('https://fool.example/read/iron-lantern/en/1/1/'))).toBeNull()
  })

  it('asks for the Series page by POST with adult=true', () => {
    expect(foolSlideAdapter().request(new URL(SERIES))).toEqual({
      url: SERIES,
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'adult=true',
    })
  })

  it('reads the rows of every volume: the a[title] link, the date after the team; "Today" and a link with no title not read', () => {
    expect(read(stored('foolslide.html'))).toEqual({
      title: 'Iron Lantern',
      chapters: [
        {
          number: 14,
          label: 'Chapter 14: Ashes',
          url: 'https://fool.example/read/iron-lantern/en/2/14/',
          released: { at: Date.UTC(2026, 10, 28), exact: false },
        },
        { number: 13.5, label: 'Chapter 13.5', url: 'https://fool.example/read/iron-lantern/en/2/13/5/' },
        {
          number: 1,
          label: 'Chapter 1',
          url: 'https://fool.example/read/iron-lantern/en/1/1/',
          released: { at: Date.UTC(2025, 0, 3), exact: false },
        },
      ],
    })
  })

  it('a date the other sites print ("Nov 28, 2026") is read whole', () => {
    const html =
      '<div class="list"><div class="element"><a href="/r/x/2/" title="c">Chapter 2</a><div class="meta_r">Nov 28, 2026</div></div></div>'
    expect(read(html).chapters[0]?.released).toEqual({ at: Date.UTC(2026, 10, 28), exact: false })
  })
})
