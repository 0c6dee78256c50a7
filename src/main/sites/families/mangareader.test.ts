/** MangaReader on a page of our own: the rows of the language's list, the .name of each, the title. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seriesRules, type ParsedSeries } from '../site'
import { MANGAREADER_ID_PATTERN, mangaReaderAdapter } from './mangareader'

const SERIES = 'https://raw.example/tsuki-no-niwa-raw-501'
const stored = (name: string) => readFileSync(join(__dirname, '..', 'testdata', name), 'utf8')

function read(body: string): ParsedSeries {
  const step = mangaReaderAdapter().read({ url: SERIES, status: 200, contentType: 'text/html', body }, new URL(SERIES))
  if (step.kind !== 'parsed') throw new Error('expected parsed')
  return step.result
}

describe('MangaReader', () => {
  it('the series_id is the first segment (the one after /read/ on a chapter URL); the page itself is asked for', () => {
    const rules = seriesRules(MANGAREADER_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('tsuki-no-niwa-raw-501')
    expect(rules.seriesIdOf(new URL('https://raw.example/read/tsuki-no-niwa-raw-501/ja/chapter-24'))).toBe('tsuki-no-niwa-raw-501')
    expect(mangaReaderAdapter().request(new URL(SERIES))).toEqual({ url: SERIES, method: 'GET' })
  })

  it('the Japanese list (#ja-chaps): the .name or the link text, Japanese labels; a sidebar row is no chapter', () => {
    expect(read(stored('mangareader.html'))).toEqual({
      title: '月の庭',
      chapters: [
        { number: 24, label: '第24話 満月', url: 'https://raw.example/read/tsuki-no-niwa-raw-501/ja/chapter-24' },
        { number: 23.5, label: '第23.5話', url: 'https://raw.example/read/tsuki-no-niwa-raw-501/ja/chapter-23-5' },
        { number: 1, label: '第1話', url: 'https://raw.example/read/tsuki-no-niwa-raw-501/ja/chapter-1' },
      ],
    })
  })

  it('the English list (#en-chapters)', () => {
    const html =
      '<h2 class="manga-name">Moon Garden</h2><ul id="en-chapters"><li class="chapter-item" data-id="1"><a href="/read/moon-garden-7/en/chapter-3"><span class="name">Chapter 3: Dusk</span></a></li></ul>'
    expect(read(html)).toEqual({
      title: 'Moon Garden',
      chapters: [{ number: 3, label: 'Chapter 3: Dusk', url: 'https://raw.example/read/moon-garden-7/en/chapter-3' }],
    })
  })
})
