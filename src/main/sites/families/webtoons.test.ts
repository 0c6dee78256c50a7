/** Webtoons list pages, new layout and old, as small pages: where each part of an episode row is read from. */
import { describe, expect, it } from 'vitest'
import { seriesRules, type AdapterStep, type ParsedSeries } from '../site'
import { WEBTOONS_ID_PATTERN, webtoonsAdapter } from './webtoons'

const SERIES = 'https://www.webtoons.com/en/fantasy/tower/list?title_no=95'

function read(body: string): ParsedSeries {
  const step: AdapterStep = webtoonsAdapter().read({ url: SERIES, status: 200, contentType: 'text/html', body }, new URL(SERIES))
  if (step.kind !== 'parsed') throw new Error('expected parsed')
  return step.result
}

const row = (inner: string, attrs = '') => `<ul id="_listUl"><li ${attrs}>${inner}</li></ul>`

describe('Webtoons', () => {
  it('the series_id is the title_no of the query, all its digits', () => {
    const idOf = seriesRules(WEBTOONS_ID_PATTERN).seriesIdOf
    expect(idOf(new URL(SERIES))).toBe('95')
    expect(idOf(new URL('https://www.webtoons.com/en/fantasy/tower/list?page=2&title_no=1234'))).toBe('1234')
    expect(idOf(new URL('https://www.webtoons.com/en/fantasy/tower/list?subtitle_no=95'))).toBeNull()
    expect(idOf(new URL('https://www.webtoons.com/en/fantasy/tower/list?title_no=abc'))).toBeNull()
  })

  it('asks for the list page with a GET that passes the age gate', () => {
    expect(webtoonsAdapter().request(new URL(SERIES))).toEqual({
      url: SERIES,
      method: 'GET',
      headers: { Cookie: 'ageGatePass=true; needGDPR=false' },
    })
    expect(webtoonsAdapter().recipe).toEqual({ family: 'webtoons' })
  })

  it.each([
    ['h1.subj first', '<div class="info"><h1>Info</h1></div><h1 class="subj">Subject</h1>', 'Subject'],
    ['then .info h1', '<h1>Page</h1><div class="info"><h1>Info</h1></div>', 'Info'],
    ['then any h1', '<h2 class="subj">no</h2><h1>Page</h1>', 'Page'],
  ])('the title: %s', (_name, html, title) => {
    expect(read(html).title).toBe(title)
  })

  it('an episode: its number from data-episode-no, its name from the subject’s span, its link and its date', () => {
    const html = row(
      '<a href="/en/fantasy/tower/ep-88/viewer?title_no=95&episode_no=88"><span class="subj"><span>Episode 87 - The Tide</span><em>UP</em></span>' +
        '<span class="tx">#87</span><span class="date">Nov 29, 2026</span></a>',
      'data-episode-no="88"',
    )
    expect(read(html).chapters).toEqual([
      {
        number: 88,
        label: 'Episode 87 - The Tide',
        url: 'https://www.webtoons.com/en/fantasy/tower/ep-88/viewer?title_no=95&episode_no=88',
        released: { at: Date.UTC(2026, 10, 29), exact: false },
      },
    ])
  })

  it('without data-episode-no, the number is the #N of span.tx; a date not in span.date is none', () => {
    const html = row(
      '<a href="/e/12"><span class="subj">Side story</span><em class="tx">#99</em><span class="tx">#12</span><em class="date">Nov 29, 2026</em></a>',
    )
    expect(read(html).chapters).toEqual([{ number: 12, label: 'Side story', url: 'https://www.webtoons.com/e/12' }])
  })

  it('without either, the number is read from the name, with the Series title dropped', () => {
    const html = `<h1 class="subj">Tower 2</h1>${row('<a href="/e/7"><span class="subj">Tower 2 Episode 7</span></a>')}`
    expect(read(html).chapters.map((c) => c.number)).toEqual([7])
  })

  it('a subject with no span of its own is its own name', () => {
    expect(read(row('<a href="/e/5"><span class="subj">Episode 5</span></a>')).chapters[0]?.label).toBe('Episode 5')
  })

  it('with no name, the label is the #N; with neither, "Episode N"', () => {
    expect(read(row('<a href="/e/5"><span class="tx">#5</span></a>')).chapters[0]?.label).toBe('#5')
    expect(read(row('<a href="/e/6"></a>', 'data-episode-no="6"')).chapters[0]?.label).toBe('Episode 6')
  })

  it('a row with no number anywhere is no episode', () => {
    expect(read(row('<a href="/e/x"><span class="subj">Notice</span></a>')).chapters).toEqual([])
  })

  it('a row with no link has no URL', () => {
    expect(read(row('<span class="subj">Episode 3</span>', 'data-episode-no="3"')).chapters[0]?.url).toBe('')
  })

  it('the first link of the row is the episode’s, whatever its place', () => {
    const html = row(
      '<span class="subj">Episode 4</span><div><a href="/e/4">read</a></div><a href="/e/4/comments">comments</a>',
      'data-episode-no="4"',
    )
    expect(read(html).chapters[0]?.url).toBe('https://www.webtoons.com/e/4')
  })

  it('the older layout: div.detail_lst rows, read only when the new list is absent', () => {
    const old =
      '<div class="detail_lst"><ul><li><a href="/e/41"><span class="subj"><span>Old 41</span></span><span class="tx">#41</span></a></li></ul></div>'
    expect(read(old).chapters.map((c) => [c.number, c.label])).toEqual([[41, 'Old 41']])
    expect(read(`${row('<a href="/e/42"><span class="tx">#42</span></a>')}${old}`).chapters.map((c) => c.number)).toEqual([42])
  })
})
