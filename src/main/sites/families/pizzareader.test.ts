/** PizzaReader through its comic API, on an answer of our own: the request, and where each part is read from. */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { AdapterError, seriesRules, type AdapterStep } from '../site'
import { PIZZAREADER_ID_PATTERN, pizzaReaderAdapter } from './pizzareader'

const SERIES = 'https://pizza.example/comics/la-torre-di-sale'
const stored = readFileSync(join(__dirname, '..', 'testdata', 'pizzareader-comic.json'), 'utf8')
const read = (body: string): AdapterStep =>
  pizzaReaderAdapter().read(
    { url: 'https://pizza.example/api/comics/x', status: 200, contentType: 'application/json', body },
    new URL(SERIES),
  )

describe('PizzaReader', () => {
  it('the series_id is the slug after /comics/; a chapter URL is no Series', () => {
    const rules = seriesRules(PIZZAREADER_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('la-torre-di-sale')
    expect(rules.seriesIdOf(new URL('https://pizza.example/read/la-torre-di-sale/it/vol/3/ch/21'))).toBeNull()
    expect(pizzaReaderAdapter().recipe).toEqual({ family: 'pizzareader' })
  })

  it('asks the comic API on the Series’ own host', () => {
    expect(pizzaReaderAdapter().request(new URL(SERIES))).toEqual({
      url: 'https://pizza.example/api/comics/la-torre-di-sale',
      method: 'GET',
      headers: { Accept: 'application/json' },
    })
    expect(() => pizzaReaderAdapter().request(new URL('https://pizza.example/'))).toThrow(AdapterError)
  })

  it('chapter and subchapter are the number; without them the name is read; no URL, no chapter', () => {
    expect(read(stored)).toEqual({
      kind: 'parsed',
      result: {
        title: 'La Torre di Sale',
        chapters: [
          {
            number: 21,
            label: 'Vol.3 Ch.21 - Il faro',
            url: 'https://pizza.example/read/la-torre-di-sale/it/vol/3/ch/21',
            released: { at: Date.UTC(2026, 10, 28), exact: false },
          },
          {
            number: 20.5,
            label: 'Vol.3 Ch.20.5 - Intermezzo',
            url: 'https://pizza.example/read/la-torre-di-sale/it/vol/3/ch/20/sub/5',
            released: { at: Date.UTC(2026, 10, 20), exact: false },
          },
          { number: 19, label: 'Capitolo 19', url: 'https://pizza.example/read/la-torre-di-sale/it/ch/19' },
        ],
      },
    })
  })

  it('an answer that is not JSON or has no chapters array is an AdapterError; no comic is no chapter', () => {
    expect(() => read('<html>')).toThrow(/not JSON/)
    expect(() => read('{"comic":{"chapters":"x"}}')).toThrow(/no chapters array/)
    expect(read('{}')).toEqual({ kind: 'parsed', result: { chapters: [] } })
  })
})
