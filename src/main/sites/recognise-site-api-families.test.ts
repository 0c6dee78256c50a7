/**
 * Add a Site on a Known host of the families read through the Site's own answer (HentaiHand, a gallery page,
 * Kagane, MangaToon): over real HTTP on loopback, the family's first request is asked, read, and the Known Site
 * proposed; an answer without a chapter is not. The Known Site is the table's, moved to the loopback host.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import { createHttpFetcher } from '../fetch/http-fetcher'
import { KNOWN_SITES, knownSiteByHost, type KnownSite } from './known-sites'
import { proposeSite, type FetchPage } from './recognise-site'
import { DEFAULT_PACE, seriesRules } from './site'

type Routes = Record<string, { type: string; body: string }>

async function propose(known: KnownSite, path: string, routes: Routes) {
  const server = createServer((req, res) => {
    const route = routes[req.url ?? '']
    if (!route) return res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
    res.writeHead(200, { 'content-type': route.type }).end(route.body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`
  try {
    const onLoopback: KnownSite = { ...known, baseUrl: `http://${host}`, mirrors: [] }
    const probe = { key: 'probe', name: 'probe', hosts: [host], fetcher: 'http' as const, fallback: 'none' as const }
    const adapter = {
      request: (u: URL) => ({ url: u.href, method: 'GET' as const }),
      read: () => ({ kind: 'parsed' as const, result: { chapters: [] } }),
    }
    const fetchPage: FetchPage = (request) =>
      createHttpFetcher({ timeoutMs: 2_000 }).fetch(request, {
        ...probe,
        pace: { ...DEFAULT_PACE },
        origin: 'sites.json' as const,
        adapter,
        ...seriesRules(undefined),
      })
    return await proposeSite(fetchPage, `http://${host}${path}`, { sites: [], knownSite: () => onLoopback })
  } finally {
    await new Promise((resolve) => server.close(resolve))
  }
}

const json = (value: unknown) => ({ type: 'application/json', body: JSON.stringify(value) })
const html = (body: string) => ({ type: 'text/html', body })
const known = (host: string, family: string): KnownSite => {
  const site = knownSiteByHost(host)
  expect(site?.family, host).toBe(family)
  return site!
}

describe('Add a Site, the families read through their own answer', () => {
  it('the Known Sites hold them: HentaiHand and NHentai.com, 20 gallery Sites (7 Masonry), Kagane, MangaToon', () => {
    const byFamily = (f: string) => KNOWN_SITES.sites.filter((s) => s.family === f).map((s) => new URL(s.baseUrl).host)
    expect(byFamily('hentaihand').sort()).toEqual(['hentaihand.com', 'nhentai.com'])
    expect(byFamily('gallerypage')).toEqual(expect.arrayContaining(['www.elitebabes.com', 'akuma.moe', '3hentai.net', 'panda.chaika.moe']))
    expect(byFamily('gallerypage')).toHaveLength(20)
    expect(byFamily('kagane')).toEqual(['kagane.to'])
    expect(byFamily('mangatoon')).toEqual(['mangatoon.mobi'])
    // One Site, every language's source on it (the import names each by its own id).
    expect(KNOWN_SITES.sources.filter((r) => r.site === knownSiteByHost('kagane.to')!.key)).toHaveLength(18)
    expect(KNOWN_SITES.sources.filter((r) => r.site === knownSiteByHost('mangatoon.mobi')!.key)).toHaveLength(9)
  })

  it('HentaiHand: its comic API answers the comic, the gallery its one chapter', async () => {
    const site = known('hentaihand.com', 'hentaihand')
    const proposal = await propose(site, '/en/comic/tide-1', { '/api/comics/tide-1': json({ slug: 'tide-1', title: 'Tide' }) })
    if (!proposal.ok) throw new Error(proposal.reason)
    expect(proposal.entry).toMatchObject({ key: site.key, family: 'hentaihand' })
    expect(proposal.recognisedBy).toMatch(/^HentaiHand: its answer for this Series read 1 chapters/)
    expect(proposal.preview.title).toBe('Tide')
  })

  it('a gallery page: the page itself, a title and an image, is its one chapter', async () => {
    const site = known('akuma.moe', 'gallerypage')
    const page = html('<html><body><h1 class="entry-title">Rain</h1><img src="/c.jpg"></body></html>')
    const proposal = await propose(site, '/g/AbC12', { '/g/AbC12': page })
    if (!proposal.ok) throw new Error(proposal.reason)
    expect(proposal.entry).toMatchObject({ key: site.key, family: 'gallerypage' })
    expect(proposal.seriesUrl).toMatch(/\/g\/AbC12$/)
  })

  it('Kagane: its Series API; MangaToon: its episodes page', async () => {
    const kagane = known('kagane.to', 'kagane')
    const books = [
      { book_id: 'b1', title: '', chapter_no: '1' },
      { book_id: 'b2', title: 'Fog', chapter_no: '2' },
    ]
    const k = await propose(kagane, '/series/abc', { '/api/v2/series/abc': json({ title: 'Harbour', series_books: books }) })
    if (!k.ok) throw new Error(k.reason)
    expect(k.recognisedBy).toMatch(/^Kagane: its answer for this Series read 2 chapters/)
    const toon = known('mangatoon.mobi', 'mangatoon')
    const episodes = html(
      '<h1>Đèn Biển</h1><a class="episode-item-new" href="/vi/watch/7/1"><div class="episode-number">1</div><div class="episode-title-new">Một</div></a>',
    )
    const m = await propose(toon, '/vi/detail/7', { '/vi/detail/7/episodes': episodes })
    if (!m.ok) throw new Error(m.reason)
    expect(m.entry).toMatchObject({ key: toon.key, family: 'mangatoon' })
    expect(m.preview.title).toBe('Đèn Biển')
  })

  it("a paged post: the post's pages are its parts", async () => {
    const site = known('myreadingmanga.info', 'pagedpost')
    const post = html('<h1>Letters</h1><a class="page-numbers" href="/letters/2/">2</a><a class="page-numbers" href="/letters/3/">3</a>')
    const proposal = await propose(site, '/letters/', { '/letters/': post })
    if (!proposal.ok) throw new Error(proposal.reason)
    expect(proposal.recognisedBy).toMatch(/^Paged post: its answer for this Series read 3 chapters/)
  })

  it('an answer without a chapter, or no answer, proposes nothing', async () => {
    const other = await propose(known('nhentai.com', 'hentaihand'), '/en/comic/a', { '/api/comics/a': json({ slug: 'b', title: 'B' }) })
    expect(other.ok).toBe(false)
    const missing = await propose(known('kagane.to', 'kagane'), '/series/none', {})
    expect(missing.ok).toBe(false)
  })
})
