/** GigaViewer on pages and answers of our own: the episode page names the series, the API lists the episodes. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AdapterError, seriesRules, type AdapterStep } from '../site'
import { GIGAVIEWER_ID_PATTERN, gigaViewerAdapter } from './gigaviewer'

const SERIES = 'https://giga.example/episode/3269754496647404999'
const stored = (name: string) => readFileSync(join(__dirname, '..', 'testdata', name), 'utf8')
const read = (body: string, url = SERIES): AdapterStep =>
  gigaViewerAdapter().read({ url, status: 200, contentType: 'text/html', body }, new URL(SERIES))

describe('GigaViewer', () => {
  it('the series_id is the episode id; another path is no Series', () => {
    const rules = seriesRules(GIGAVIEWER_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('3269754496647404999')
    expect(rules.seriesIdOf(new URL('https://giga.example/series'))).toBeNull()
    expect(rules.seriesIdOf(new URL('https://giga.example/episode/abc'))).toBeNull()
    expect(gigaViewerAdapter().request(new URL(SERIES))).toEqual({ url: SERIES, method: 'GET' })
  })

  it('the episode page: follows to the episode API for the series it names, newest first, with its title', () => {
    expect(read(stored('gigaviewer-episode.html'))).toEqual({
      kind: 'follow',
      request: {
        url: 'https://giga.example/api/viewer/pagination_readable_products?type=episode&aggregate_id=3269754496647404210&sort_order=desc&offset=0',
        method: 'GET',
        headers: { Accept: 'application/json', Referer: SERIES },
      },
      partial: { title: '港の灯' },
    })
  })

  it('an older page names its series in .js-readable-products-pagination; a page naming none is an AdapterError', () => {
    const older = '<h1 class="series-header-title">Old</h1><div class="js-readable-products-pagination" data-aggregate-id="1398"></div>'
    const step = read(older)
    expect(step.kind === 'follow' && new URL(step.request.url).searchParams.get('aggregate_id')).toBe('1398')
    expect(() => read('<h1>nothing</h1>')).toThrow(AdapterError)
    expect(() => read('<script class="js-valve" data-giga_series="../x"></script>')).toThrow(/names no series/)
  })

  it('the API answer: Japanese labels, Han numerals, the open time; paid kept, unpublished, a notice and a bad id not', () => {
    const step = read(stored('gigaviewer-episodes.json'), 'https://giga.example/api/viewer/pagination_readable_products')
    expect(step).toEqual({
      kind: 'parsed',
      result: {
        chapters: [
          {
            number: 3,
            label: '第3話 夜の港',
            url: 'https://giga.example/episode/3269754496647404999',
            released: { at: Date.UTC(2026, 10, 30, 15), exact: true },
          },
          {
            number: 2.5,
            label: '第2.5話 番外編',
            url: 'https://giga.example/episode/3269754496647404888',
            released: { at: Date.UTC(2026, 10, 27, 15), exact: true },
          },
          {
            number: 2,
            label: '第二話',
            url: 'https://giga.example/episode/3269754496647404777',
            released: { at: Date.UTC(2026, 10, 23, 15), exact: true },
          },
          {
            number: 1,
            label: '[第1話]はじまり',
            url: 'https://giga.example/episode/3269754496647404555',
            released: { at: Date.UTC(2026, 10, 16, 15), exact: true },
          },
        ],
      },
    })
  })

  it('an answer that is a broken or non-array JSON is an AdapterError; an empty one no chapters', () => {
    expect(() => read('[{"title":')).toThrow(/not JSON/)
    expect(read('[]')).toEqual({ kind: 'parsed', result: { chapters: [] } })
    expect(read('[null, 3, "x"]')).toEqual({ kind: 'parsed', result: { chapters: [] } })
  })
})
