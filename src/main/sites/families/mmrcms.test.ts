/** MMRCMS on a page of our own: the rows of ul.chapters, the Series' name dropped from the label before the number. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seriesRules, type ParsedSeries } from '../site'
import { MMRCMS_ID_PATTERN, mmrcmsAdapter } from './mmrcms'

const SERIES = 'https://cms.example/manga/le-phare-noir'
const stored = (name: string) => readFileSync(join(__dirname, '..', 'testdata', name), 'utf8')

function read(body: string): ParsedSeries {
  const step = mmrcmsAdapter().read({ url: SERIES, status: 200, contentType: 'text/html', body }, new URL(SERIES))
  if (step.kind !== 'parsed') throw new Error('expected parsed')
  return step.result
}

describe('MMRCMS', () => {
  it('the series_id is the slug after /manga/ or /comic/, or the first segment; a chapter URL names its Series', () => {
    const rules = seriesRules(MMRCMS_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('le-phare-noir')
    expect(rules.seriesIdOf(new URL('https://comics.example/comic/iron-saint-2026'))).toBe('iron-saint-2026')
    expect(rules.seriesIdOf(new URL('https://vf.example/le-phare-noir'))).toBe('le-phare-noir')
    expect(rules.canonicalUrl!(new URL(`${SERIES}/21`))).toBe(`${SERIES}/`)
    expect(mmrcmsAdapter().request(new URL(SERIES))).toEqual({ url: SERIES, method: 'GET' })
  })

  it('reads the rows (the volume button not), the title, the dates; a sidebar link is no chapter', () => {
    expect(read(stored('mmrcms.html'))).toEqual({
      title: 'Le Phare Noir',
      chapters: [
        {
          number: 21,
          label: 'Le Phare Noir 21 : La tempête',
          url: 'https://cms.example/manga/le-phare-noir/21',
          released: { at: Date.UTC(2026, 10, 28), exact: false },
        },
        {
          number: 20.5,
          label: 'Le Phare Noir 20.5',
          url: 'https://cms.example/manga/le-phare-noir/20.5',
          released: { at: Date.UTC(2026, 10, 21), exact: false },
        },
        { number: 1, label: 'Le Phare Noir 1 : Le gardien', url: 'https://cms.example/manga/le-phare-noir/1' },
      ],
    })
  })

  it('an Arabic site: the title in .panel-heading', () => {
    const html =
      '<div class="panel-heading">الفنار</div><ul class="chapters"><li><h5 class="chapter-title-rtl"><a href="/manga/alfanar/7">الفنار 7</a></h5></li></ul>'
    expect(read(html)).toEqual({
      title: 'الفنار',
      chapters: [{ number: 7, label: 'الفنار 7', url: 'https://cms.example/manga/alfanar/7' }],
    })
  })
})
