import { describe, expect, it } from 'vitest'
import { parseReleaseDate } from './dates'

const day = (y: number, m: number, d: number) => ({ at: Date.UTC(y, m - 1, d), exact: false })

describe('release dates as pages print them', () => {
  it.each([
    ['Madara and MangaThemesia: "November 29, 2026"', 'November 29, 2026', day(2026, 11, 29)],
    ['Webtoons: "Nov 29, 2026"', 'Nov 29, 2026', day(2026, 11, 29)],
    ['a dotted month: "Sept. 3, 2026"', 'Sept. 3, 2026', day(2026, 9, 3)],
    ['day first: "29 November 2026"', '29 November 2026', day(2026, 11, 29)],
    ['an ISO day', '2026-11-29', day(2026, 11, 29)],
    ['white space around it', '  November   29,\n 2026 ', day(2026, 11, 29)],
    ['MangaDex publishAt: exact', '2026-11-29T15:04:05+00:00', { at: Date.UTC(2026, 10, 29, 15, 4, 5), exact: true }],
    ['an ISO time in Z', '2026-11-29T15:04:05.123Z', { at: Date.UTC(2026, 10, 29, 15, 4, 5, 123), exact: true }],
  ])('%s', (_name, text, expected) => {
    expect(parseReleaseDate(text)).toEqual(expected)
  })

  it.each([
    ['a relative date (the page does not say when it was fetched)', '2 hours ago'],
    ['"new"', 'new'],
    ['31 February', 'February 31, 2026'],
    ['a month that is not one', 'Smarch 3, 2026'],
    ['a year out of range', 'November 29, 1900'],
    ['empty', ''],
    ['a long hostile string', `November ${'9'.repeat(5000)}, 2026`],
  ])('%s is not a date', (_name, text) => {
    expect(parseReleaseDate(text)).toBeNull()
  })
})
