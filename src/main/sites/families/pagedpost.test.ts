/** A paged post on pages of our own (MyReadingManga's path pages, XiuTaku's ?page= pages): its pages are its parts. */
import { describe, expect, it } from 'vitest'
import { seriesRules, type AdapterStep } from '../site'
import { PAGEDPOST_ID_PATTERN, pagedPostAdapter } from './pagedpost'

const read = (body: string, series: string): AdapterStep =>
  pagedPostAdapter().read({ url: series, status: 200, contentType: 'text/html', body }, new URL(series))

const MRM = `<html><body><h1 class="entry-title">Summer Letters [English]</h1><div class="entry-content"><img src="/1.jpg">
  <p class="chapter-class">Pages:</p><a class="page-numbers" href="https://myreadingmanga.info/summer-letters/2/">2</a>
  <a class="page-numbers" href="https://myreadingmanga.info/summer-letters/3/">3</a>
  <a class="page-numbers" href="/summer-letters/7/">7</a><a href="/summer-letters/2/">Next</a>
  <a href="/other-post/9/">9</a><a href="https://elsewhere.example/summer-letters/50/">50</a></div></body></html>`

const XIU = `<html><head><title>Beach Day | XiuTaku</title></head><body><div class="pagination-list">
  <span><a href="?page=1">1</a></span><span><a href="/beach-day-123?page=2">2</a></span><span><a href="/beach-day-123?page=4">4</a></span>
</div></body></html>`

describe('a paged post', () => {
  it('the series_id is the whole path; the home page is no Series', () => {
    const rules = seriesRules(PAGEDPOST_ID_PATTERN)
    expect(rules.seriesIdOf(new URL('https://myreadingmanga.info/summer-letters/'))).toBe('summer-letters')
    expect(rules.seriesIdOf(new URL('https://xiutaku.com/beach-day-123?page=2'))).toBe('beach-day-123')
    expect(rules.seriesIdOf(new URL('https://xiutaku.com/'))).toBeNull()
    expect(pagedPostAdapter().recipe).toEqual({ family: 'pagedpost' })
  })

  it("path pages: part 1 is the post, part n its page n, up to the highest page the post links (other posts' not)", () => {
    const step = read(MRM, 'https://myreadingmanga.info/summer-letters/')
    expect(step.kind === 'parsed' && step.result.title).toBe('Summer Letters [English]')
    const chapters = step.kind === 'parsed' ? step.result.chapters : []
    expect(chapters.map((c) => c.number)).toEqual([7, 6, 5, 4, 3, 2, 1])
    expect(chapters[0]).toEqual({ number: 7, label: 'Part 7', url: 'https://myreadingmanga.info/summer-letters/7/' })
    expect(chapters[6]).toEqual({ number: 1, label: 'Part 1', url: 'https://myreadingmanga.info/summer-letters/' })
  })

  it('query pages: part n is {post}?page=n; a post without pages is one part', () => {
    const step = read(XIU, 'https://xiutaku.com/beach-day-123')
    expect(step.kind === 'parsed' && step.result.chapters.map((c) => c.url)).toEqual([
      'https://xiutaku.com/beach-day-123?page=4',
      'https://xiutaku.com/beach-day-123?page=3',
      'https://xiutaku.com/beach-day-123?page=2',
      'https://xiutaku.com/beach-day-123',
    ])
    const single = read('<html><body><h1>Lone Post</h1><p>One page.</p></body></html>', 'https://misskon.com/lone-post/')
    expect(single).toEqual({
      kind: 'parsed',
      result: { title: 'Lone Post', chapters: [{ number: 1, label: 'Part 1', url: 'https://misskon.com/lone-post/' }] },
    })
  })

  it('no title is no post; a hostile page number is cut at 500 parts', () => {
    expect(read('<html><body><a href="/x/2/">2</a></body></html>', 'https://misskon.com/x/')).toEqual({
      kind: 'parsed',
      result: { chapters: [] },
    })
    const huge = read('<h1>Big</h1><a href="/big/9999/">9999</a>', 'https://misskon.com/big/')
    expect(huge.kind === 'parsed' && huge.result.chapters.length).toBe(500)
  })
})
