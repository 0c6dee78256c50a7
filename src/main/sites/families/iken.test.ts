/** Iken through its Site's own `api.` host, on answers of our own: the requests, and where each part is read from. */
import { describe, expect, it } from 'vitest'
import { backupSeriesPath } from '../../../shared/site-families'
import { knownSiteByHost, knownSiteEntry, type KnownSite } from '../known-sites'
import { proposeSite, type FetchPage } from '../recognise-site'
import { AdapterError, seriesRules, type AdapterStep } from '../site'
import { IKEN_ID_PATTERN, ikenAdapter } from './iken'

const SERIES = 'https://vortexscans.org/series/solo-leveling'
const POST = 'https://api.vortexscans.org/api/post?postSlug=solo-leveling'
const read = (body: unknown, url = POST, series = SERIES): AdapterStep =>
  ikenAdapter().read(
    { url, status: 200, contentType: 'application/json', body: typeof body === 'string' ? body : JSON.stringify(body) },
    new URL(series),
  )

const chapter = (number: unknown, slug: string, more: Record<string, unknown> = {}) => ({
  id: 100 + Number(number),
  slug,
  number,
  title: null,
  createdAt: '2026-11-28T10:15:00.000Z',
  isLocked: false,
  price: 0,
  chapterPurchased: false,
  ...more,
})
const numbers = (step: AdapterStep) => (step.kind === 'parsed' ? step.result.chapters.map((c) => c.number) : step)

describe('Iken', () => {
  it('the series_id is the slug of /series/{slug}; a chapter page is no Series', () => {
    const rules = seriesRules(IKEN_ID_PATTERN)
    expect(rules.seriesIdOf(new URL(SERIES))).toBe('solo-leveling')
    expect(rules.seriesIdOf(new URL('https://hivetoons.org/series/a_b-2/'))).toBe('a_b-2')
    expect(rules.seriesIdOf(new URL('https://vortexscans.org/series/solo-leveling/chapter-1'))).toBeNull()
    expect(rules.seriesIdOf(new URL('https://vortexscans.org/manga/solo-leveling'))).toBeNull()
    expect(ikenAdapter().recipe).toEqual({ family: 'iken' })
  })

  it("asks the Site's api. host (without www.) for the post by its slug", () => {
    expect(ikenAdapter().request(new URL(SERIES))).toEqual({ url: POST, method: 'GET', headers: { Accept: 'application/json' } })
    expect(ikenAdapter().request(new URL('https://www.azorafly.com/series/x')).url).toBe('https://api.azorafly.com/api/post?postSlug=x')
    expect(() => ikenAdapter().request(new URL('https://vortexscans.org/series/'))).toThrow(AdapterError)
  })

  it('the number (a JSON number or a string) makes the name, the title follows; the page and the date', () => {
    const step = read({
      post: {
        id: 7,
        slug: 'solo-leveling',
        postTitle: 'Solo  Leveling',
        chapters: [
          chapter(12, 'chapter-12', { title: 'The End' }),
          chapter('11.5', 'chapter-11-5'),
          chapter(1, 'chapter-1', { createdAt: 'x' }),
        ],
      },
    })
    expect(step).toEqual({
      kind: 'parsed',
      result: {
        title: 'Solo Leveling',
        chapters: [
          {
            number: 12,
            label: 'Chapter 12 - The End',
            url: 'https://vortexscans.org/series/solo-leveling/chapter-12',
            released: { at: Date.parse('2026-11-28T10:15:00Z'), exact: true },
          },
          {
            number: 11.5,
            label: 'Chapter 11.5',
            url: 'https://vortexscans.org/series/solo-leveling/chapter-11-5',
            released: { at: Date.parse('2026-11-28T10:15:00Z'), exact: true },
          },
          { number: 1, label: 'Chapter 1', url: 'https://vortexscans.org/series/solo-leveling/chapter-1' },
        ],
      },
    })
  })

  it('a locked, time-locked or priced and not bought chapter is left out, as the extension does; a bought one stays', () => {
    const step = read({
      post: {
        id: 7,
        chapters: [
          chapter(9, 'c9', { isLocked: true }),
          chapter(8, 'c8', { isTimeLocked: true }),
          chapter(7, 'c7', { price: 30 }),
          chapter(6, 'c6', { price: 30, chapterPurchased: true }),
          chapter(5, 'c5', { isLocked: null, isTimeLocked: null, price: null, chapterPurchased: null }),
          chapter('../4', 'c4'),
          chapter(3, '../x'),
          chapter(true, 'c2'),
          null,
        ],
      },
    })
    expect(numbers(step)).toEqual([6, 5])
  })

  it('a post carrying fewer chapters than its total is followed to the chapters API by its id, keeping the title', () => {
    const step = read({ totalChapterCount: 3, post: { id: 7, postTitle: 'Solo Leveling', chapters: [chapter(3, 'c3')] } })
    expect(step).toEqual({
      kind: 'follow',
      request: { url: 'https://api.vortexscans.org/api/chapters?postId=7', method: 'GET', headers: { Accept: 'application/json' } },
      partial: { title: 'Solo Leveling' },
    })
    const all = { post: { chapters: [chapter(3, 'c3'), chapter(2, 'c2'), chapter(1, 'c1', { price: 5 })] } }
    expect(numbers(read(all, 'https://api.vortexscans.org/api/chapters?postId=7'))).toEqual([3, 2])
    // All of them carried (or no total): read as it is.
    expect(numbers(read({ totalChapterCount: 1, post: { id: 7, chapters: [chapter(3, 'c3')] } }))).toEqual([3])
  })

  it('a novel, an answer without a post or with chapters not a list is an AdapterError; no chapters is an empty list', () => {
    expect(() => read({ post: { id: 1, isNovel: true, chapters: [] } })).toThrow(/novel/)
    expect(() => read({ post: { id: 1, seriesType: 'NOVEL', chapters: [] } })).toThrow(/novel/)
    expect(() => read('<html>')).toThrow(/not JSON/)
    expect(() => read({ posts: [] })).toThrow(/no post/)
    expect(() => read({ post: { chapters: {} } })).toThrow(/no chapters array/)
    expect(read({ post: { id: 1 } })).toEqual({ kind: 'parsed', result: { chapters: [] } })
  })

  it("an Iken Known Site's entry pins its own hosts and its own api. host; a backup's {slug}#{id} is its Series path", () => {
    const known: KnownSite = { key: 'vortex', name: 'Vortex Scans', lang: 'en', family: 'iken', baseUrl: 'https://vortexscans.org' }
    expect(knownSiteEntry(known, new Set()).hosts).toEqual(['vortexscans.org', 'www.vortexscans.org', 'api.vortexscans.org'])
    expect(backupSeriesPath('iken', 'solo-leveling#123')).toBe('/series/solo-leveling')
    expect(backupSeriesPath('iken', 'solo-leveling')).toBe('/series/solo-leveling')
    expect(backupSeriesPath('iken', 'solo#leveling')).toBe('solo#leveling')
    expect(backupSeriesPath('madara', 'solo-leveling#123')).toBe('solo-leveling#123')
  })

  it('Add a Site on a Known Iken host asks its api. host for the post and proposes the Site pinned to it', async () => {
    const known = knownSiteByHost('vortexscans.org')
    expect(known?.family).toBe('iken')
    const asked: string[] = []
    // The answers of the Site's API by URL (a pass-level fetcher: Add a Site's reading, not the network, is tried).
    const fetchPage: FetchPage = (request) => {
      asked.push(request.url)
      const body = JSON.stringify({ post: { id: 7, postTitle: 'Harbour', chapters: [chapter(2, 'c2'), chapter(1, 'c1')] } })
      return Promise.resolve(
        request.url === POST
          ? { kind: 'page', page: { url: request.url, status: 200, contentType: 'application/json', body } }
          : { kind: 'unreachable', reason: 'not found' },
      )
    }
    const proposal = await proposeSite(fetchPage, SERIES, { sites: [] })
    if (!proposal.ok) throw new Error(proposal.reason)
    expect(asked).toEqual([POST])
    expect(proposal.recognisedBy).toMatch(/^Iken: its answer for this Series read 2 chapters/)
    expect(proposal.entry).toMatchObject({ key: known!.key, family: 'iken' })
    expect(proposal.entry.hosts).toContain('api.vortexscans.org')
    expect(proposal.preview.title).toBe('Harbour')
  })
})
