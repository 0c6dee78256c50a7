/** Grouple (ReadManga and its kin) on a page of our own: the tenfold number, the day-first date, announced rows out. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seriesRules, type ParsedSeries } from '../site'
import { GROUPLE_ID_PATTERN, groupleAdapter } from './grouple'

const SERIES = 'https://read.example/severnyi_veter'
const stored = (name: string) => readFileSync(join(__dirname, '..', 'testdata', name), 'utf8')

function read(body: string): ParsedSeries {
  const step = groupleAdapter().read({ url: SERIES, status: 200, contentType: 'text/html', body }, new URL(SERIES))
  if (step.kind !== 'parsed') throw new Error('expected parsed')
  return step.result
}

describe('Grouple', () => {
  it('the series_id is the first segment; a chapter URL names its Series; the page itself is asked for', () => {
    const rules = seriesRules(GROUPLE_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('severnyi_veter')
    expect(rules.canonicalUrl!(new URL(`${SERIES}/vol3/12?mtr=true`))).toBe(`${SERIES}/`)
    expect(groupleAdapter().request(new URL(SERIES))).toEqual({ url: SERIES, method: 'GET' })
  })

  it('reads the rows: data-num over ten, the link text, the last date; an announced row and a row with no date not', () => {
    expect(read(stored('grouple.html'))).toEqual({
      title: 'Северный ветер',
      chapters: [
        {
          number: 12.5,
          label: '3 - 12.5 Экстра новое',
          url: 'https://read.example/severnyi_veter/vol3/12.5',
          released: { at: Date.UTC(2026, 10, 28), exact: false },
        },
        {
          number: 12,
          label: '3 - 12 Гавань',
          url: 'https://read.example/severnyi_veter/vol3/12',
          released: { at: Date.UTC(2026, 10, 21), exact: false },
        },
        {
          number: 1,
          label: '1 - 1 Начало',
          url: 'https://read.example/severnyi_veter/vol1/1',
          released: { at: Date.UTC(2025, 1, 1), exact: false },
        },
      ],
    })
  })

  it('an older page: the title from meta[itemprop=name]; a huge data-num read from the label instead', () => {
    const html =
      '<meta itemprop="name" content="Старый дом"><table><tr class="item-row"><td class="item-title" data-num="99999999999999"><a class="chapter-link" href="/dom/vol1/4">Том 1 Глава 4</a></td><td class="date d-none">bad</td></tr></table>'
    expect(read(html)).toEqual({
      title: 'Старый дом',
      chapters: [{ number: 4, label: 'Том 1 Глава 4', url: 'https://read.example/dom/vol1/4' }],
    })
  })
})
