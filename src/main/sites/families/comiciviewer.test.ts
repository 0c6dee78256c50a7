/** ComiciViewer through its episode API, on an answer of our own: the request, and where each part is read from. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AdapterError, seriesRules, type AdapterStep } from '../site'
import { COMICIVIEWER_ID_PATTERN, comiciViewerAdapter } from './comiciviewer'

const SERIES = 'https://comic.example/series/5f3a9c'
const stored = readFileSync(join(__dirname, '..', 'testdata', 'comiciviewer-episodes.json'), 'utf8')
const read = (body: string): AdapterStep =>
  comiciViewerAdapter().read(
    { url: `https://comic.example/api/episodes`, status: 200, contentType: 'application/json', body },
    new URL(SERIES),
  )

describe('ComiciViewer', () => {
  it('the series_id is the hash after /series/; an episode URL is no Series', () => {
    const rules = seriesRules(COMICIVIEWER_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('5f3a9c')
    expect(rules.seriesIdOf(new URL('https://comic.example/episodes/a1b2c3'))).toBeNull()
    expect(rules.seriesIdOf(new URL('https://comic.example/series/list/up'))).toBe('list')
  })

  it('asks the episode API on the Series’ own host for every episode', () => {
    expect(comiciViewerAdapter().request(new URL(SERIES))).toEqual({
      url: 'https://comic.example/api/episodes?seriesHash=5f3a9c&episodeFrom=1&episodeTo=9999',
      method: 'GET',
      headers: { Accept: 'application/json' },
    })
    expect(() => comiciViewerAdapter().request(new URL('https://comic.example/about'))).toThrow(AdapterError)
  })

  it('reads the name and the episodes: Japanese labels, Han numerals, the publish time; a notice and a bad id are none', () => {
    const step = read(stored)
    expect(step.kind === 'parsed' && step.result.title).toBe('星の庭')
    expect(step.kind === 'parsed' && step.result.chapters).toEqual([
      { number: 1, label: '第1話 はじまり', url: 'https://comic.example/episodes/a1b2c3', released: { at: 1764201600_000, exact: true } },
      { number: 2, label: '第2話', url: 'https://comic.example/episodes/d4e5f6', released: { at: 1764806400_000, exact: true } },
      { number: 2.5, label: '第2.5話 番外編', url: 'https://comic.example/episodes/g7h8i9', released: { at: 1765065600_000, exact: true } },
      { number: 3, label: '第三話 夜', url: 'https://comic.example/episodes/j0k1l2', released: { at: 1765411200_000, exact: true } },
    ])
  })

  it('an answer that is not JSON, or has no episodes array, is an AdapterError; no episodes is an empty list', () => {
    expect(() => read('<html>')).toThrow(/not JSON/)
    expect(() => read('{"series":{"episodes":{}}}')).toThrow(/no episodes array/)
    expect(read('{"series":{}}')).toEqual({ kind: 'parsed', result: { chapters: [] } })
  })
})
