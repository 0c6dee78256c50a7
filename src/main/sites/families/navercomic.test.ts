/** Naver Webtoon through its episode list API, on answers of our own: the request, and where each part is read from. */
import { describe, expect, it } from 'vitest'
import { AdapterError, seriesRules, type AdapterStep } from '../site'
import { NAVERCOMIC_ID_PATTERN, naverComicAdapter } from './navercomic'

const SERIES = 'https://comic.naver.com/webtoon/list?titleId=812354'
const read = (body: string, series = SERIES): AdapterStep =>
  naverComicAdapter().read(
    { url: 'https://comic.naver.com/api/article/list', status: 200, contentType: 'application/json', body },
    new URL(series),
  )

const answer = (articles: unknown[], nextPage = 2) => JSON.stringify({ titleId: 812354, pageInfo: { nextPage }, articleList: articles })

describe('Naver Webtoon', () => {
  it('the series_id is the titleId of a Webtoon, Challenge or Best Challenge list; an episode page is no Series', () => {
    const rules = seriesRules(NAVERCOMIC_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('812354')
    expect(rules.seriesIdOf(new URL('https://comic.naver.com/challenge/list?titleId=77&page=3'))).toBe('77')
    expect(rules.seriesIdOf(new URL('https://comic.naver.com/bestChallenge/list?tab=x&titleId=901'))).toBe('901')
    expect(rules.seriesIdOf(new URL('https://comic.naver.com/webtoon/detail?titleId=812354&no=40'))).toBeNull()
    expect(naverComicAdapter().recipe).toEqual({ family: 'navercomic' })
  })

  it('asks the episode list API on the Series’ own host, newest first', () => {
    expect(naverComicAdapter().request(new URL(SERIES))).toEqual({
      url: 'https://comic.naver.com/api/article/list?titleId=812354&page=1&sort=DESC',
      method: 'GET',
      headers: { Accept: 'application/json' },
    })
    expect(() => naverComicAdapter().request(new URL('https://comic.naver.com/webtoon/weekday'))).toThrow(AdapterError)
  })

  it('`no` is the chapter, `subtitle` its name; the episode page is of the same list kind', () => {
    const body = answer([
      { no: 41, subtitle: '41화 바다로', serviceDateDescription: '26.11.28' },
      { no: 40, subtitle: '40화', serviceDateDescription: '26.11.21' },
      { no: 39, subtitle: '', serviceDateDescription: '26.11.14' },
    ])
    expect(read(body)).toEqual({
      kind: 'parsed',
      result: {
        chapters: [
          { number: 41, label: '41화 바다로', url: 'https://comic.naver.com/webtoon/detail?titleId=812354&no=41' },
          { number: 40, label: '40화', url: 'https://comic.naver.com/webtoon/detail?titleId=812354&no=40' },
          { number: 39, label: 'Episode 39', url: 'https://comic.naver.com/webtoon/detail?titleId=812354&no=39' },
        ],
      },
    })
    const challenge = read(answer([{ no: 3, subtitle: '3' }], 0), 'https://comic.naver.com/challenge/list?titleId=77')
    expect(challenge.kind === 'parsed' && challenge.result.chapters[0]!.url).toBe(
      'https://comic.naver.com/challenge/detail?titleId=77&no=3',
    )
  })

  it('an episode without a whole number is skipped; a bad answer is an AdapterError; no list is no chapter', () => {
    const odd = read(answer([{ no: '7', subtitle: '7화' }, { no: -1 }, { no: 2.5 }, { subtitle: 'x' }, { no: 6, subtitle: '6화' }]))
    expect(odd.kind === 'parsed' && odd.result.chapters.map((c) => c.number)).toEqual([6])
    expect(() => read('<html>')).toThrow(/not JSON/)
    expect(() => read('{"articleList":{}}')).toThrow(/no articleList array/)
    expect(read('{}')).toEqual({ kind: 'parsed', result: { chapters: [] } })
  })
})
