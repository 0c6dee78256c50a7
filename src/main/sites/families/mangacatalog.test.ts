/** MangaCatalog as a small page of our own: where each part of a row is read from. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seriesRules, type ParsedSeries } from '../site'
import { MANGACATALOG_ID_PATTERN, mangaCatalogAdapter } from './mangacatalog'

const SERIES = 'https://tide.example/manga/iron-tide/'
const stored = readFileSync(join(__dirname, '..', 'testdata', 'mangacatalog.html'), 'utf8')

function read(body: string): ParsedSeries {
  const step = mangaCatalogAdapter().read({ url: SERIES, status: 200, contentType: 'text/html', body }, new URL(SERIES))
  if (step.kind !== 'parsed') throw new Error('expected parsed')
  return step.result
}

describe('MangaCatalog', () => {
  it('the series_id is the slug after /manga/; a chapter URL is no Series', () => {
    const rules = seriesRules(MANGACATALOG_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('iron-tide')
    expect(rules.seriesIdOf(new URL('https://tide.example/chapter/iron-tide-chapter-140/'))).toBeNull()
    expect(mangaCatalogAdapter().recipe).toEqual({ family: 'mangacatalog' })
  })

  it('reads the title and the rows: the .col-span-4 link is the chapter, the Series title in its name dropped', () => {
    expect(read(stored)).toEqual({
      title: 'Iron Tide',
      chapters: [
        { number: 140, label: 'Iron Tide, Chapter 140', url: 'https://tide.example/chapter/iron-tide-chapter-140/' },
        { number: 139.5, label: 'Iron Tide, Chapter 139.5', url: 'https://tide.example/chapter/iron-tide-chapter-139-5/' },
      ],
    })
  })

  it('rows outside the list are not read', () => {
    expect(read('<div class="grid"><div class="col-span-4"><a href="/c/1">Chapter 1</a></div></div>').chapters).toEqual([])
  })
})
