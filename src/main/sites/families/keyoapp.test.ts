/** Keyoapp as a small page of our own: where each part of a row is read from, and what is no chapter. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seriesRules, type AdapterStep, type ParsedSeries } from '../site'
import { KEYOAPP_ID_PATTERN, keyoappAdapter } from './keyoapp'

const SERIES = 'https://scans.example/series/moth-lantern/'
const stored = readFileSync(join(__dirname, '..', 'testdata', 'keyoapp.html'), 'utf8')

function read(body: string): ParsedSeries {
  const step: AdapterStep = keyoappAdapter().read({ url: SERIES, status: 200, contentType: 'text/html', body }, new URL(SERIES))
  if (step.kind !== 'parsed') throw new Error('expected parsed')
  return step.result
}

describe('Keyoapp', () => {
  it('the series_id is the slug after /series/; a chapter URL is no Series', () => {
    const rules = seriesRules(KEYOAPP_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('moth-lantern')
    expect(rules.seriesIdOf(new URL('https://scans.example/chapter/moth-lantern-chapter-42/'))).toBeNull()
    expect(rules.canonicalUrl!(new URL('https://scans.example/series/moth-lantern/?tab=1'))).toBe(SERIES)
  })

  it('asks for the Series page itself', () => {
    expect(keyoappAdapter().request(new URL(SERIES))).toEqual({ url: SERIES, method: 'GET' })
    expect(keyoappAdapter().recipe).toEqual({ family: 'keyoapp' })
  })

  it('reads the title and the #chapters rows: .text-sm the name, .text-xs the date; an Upcoming row is none, a paid one is', () => {
    const series = read(stored)
    expect(series.title).toBe('Moth Lantern')
    expect(series.chapters).toEqual([
      {
        number: 42,
        label: 'Chapter 42 - The Wick',
        url: 'https://scans.example/chapter/moth-lantern-chapter-42/',
        released: { at: Date.UTC(2026, 10, 29), exact: false },
      },
      { number: 41, label: 'Chapter 41', url: 'https://scans.example/chapter/moth-lantern-chapter-41/' },
      {
        number: 40.5,
        label: 'Chapter 40.5 - Side Story',
        url: 'https://scans.example/chapter/moth-lantern-chapter-40-5/',
        released: { at: Date.UTC(2026, 10, 1), exact: false },
      },
    ])
  })

  it('a row with no .text-sm is named by its own text, relative links made absolute', () => {
    expect(read('<div id="chapters"><a href="/chapter/x-7/">Chapter 7</a></div>').chapters).toEqual([
      { number: 7, label: 'Chapter 7', url: 'https://scans.example/chapter/x-7/' },
    ])
  })

  it('a row with no .text-sm is named by its text without its date', () => {
    expect(
      read('<div id="chapters"><a href="/chapter/x-8/">Chapter 8 <span class="text-xs">Nov 2, 2026</span></a></div>').chapters,
    ).toEqual([
      { number: 8, label: 'Chapter 8', url: 'https://scans.example/chapter/x-8/', released: { at: Date.UTC(2026, 10, 2), exact: false } },
    ])
  })

  it('a page without #chapters has no chapters', () => {
    expect(read('<h1>Nothing</h1><ul><li><a href="/chapter/1/">Chapter 1</a></li></ul>').chapters).toEqual([])
  })
})
