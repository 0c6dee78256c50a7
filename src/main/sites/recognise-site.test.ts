import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpFetcher } from '../fetch/http-fetcher'
import { tempDir } from '../testing/store'
import { proposeKey, proposeSite, recogniseSite, type FetchPage, type SiteProposal } from './recognise-site'
import { BUILT_IN_SITES } from './builtin'
import { createRegistry } from './registry'
import { DEFAULT_PACE, seriesRules, type Page, type Site } from './site'
import { checkSiteEntry, loadSites } from './sites-file'
import { addSiteEntry } from './sites-writer'

const stored = (name: string) => readFileSync(join(__dirname, 'testdata', name), 'utf8')
const page = (url: string, body: string, status = 200, contentType = 'text/html'): Page => ({ url, status, contentType, body })

/** A real loopback server: path → [status, content type, body, headers]. Records every request. */
let server: Server
let origin: string
let host: string
const hits: string[] = []
const routes = new Map<string, [number, string, string, Record<string, string>?]>()

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`)
    const route = routes.get(`${req.method} ${req.url}`) ?? routes.get(req.url ?? '')
    if (!route) return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>')
    const [status, type, body, headers] = route
    res.writeHead(status, { 'content-type': type, ...headers }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`
  origin = `http://${host}`
  const at = (path: string, file: string) =>
    routes.set(path, [200, 'text/html; charset=utf-8', stored(file).replaceAll('https://scans.example', origin)])
  at('/manga/the-tower-climber/', 'madara-inline.html')
  at('/manga/iron-bloom/', 'mangathemesia.html')
  at('/comic/moth-garden', 'generic-list.html')
  at('/about', 'no-chapters.html')
  at('/series/moth-lantern/', 'keyoapp.html')
  routes.set('/manga/paper-crane', [200, 'text/html', stored('mangabox-nelo.html').replaceAll('https://box.example', origin)])
  at('/night-orchard', 'madtheme.html')
  routes.set('/read-oa392319', [200, 'text/html', stored('mangabox-mangabat.html').replaceAll('https://readmangabat.com', origin)])
  routes.set('/manga/iron-tide/', [200, 'text/html', stored('mangacatalog.html').replaceAll('https://tide.example', origin)])
  routes.set('/api/episodes?seriesHash=5f3a9c&episodeFrom=1&episodeTo=9999', [
    200,
    'application/json',
    stored('comiciviewer-episodes.json'),
  ])
  routes.set('/api/comics/la-torre-di-sale', [200, 'application/json', stored('pizzareader-comic.json')])
  at('/2026/01/luz-de-invierno.html', 'zeistmanga-clwd.html')
  routes.set('/feeds/posts/default/-/Chapter/Luz%20de%20Invierno?alt=json&start-index=1&max-results=500', [
    200,
    'application/json; charset=UTF-8',
    stored('zeistmanga-feed.json').replaceAll('https://bruma.example', origin),
  ])
  routes.set('/x/manga/glass-harbor/', [
    200,
    'text/html',
    stored('madara-subfolder.html').replaceAll('https:\\/\\/harbor.example', origin.replaceAll('/', '\\/')),
  ])
  routes.set('POST /x/manga/glass-harbor/ajax/chapters/', [400, 'text/html', '0'])
  routes.set('POST /x/wp-admin/admin-ajax.php', [200, 'text/html', stored('madara-ajax.html')])
  routes.set('/api/feed', [200, 'application/json', '{"data":[]}'])
  routes.set('/manga/cloudy/', [403, 'text/html', '<title>Just a moment...</title>', { 'cf-mitigated': 'challenge' }])
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

/** The real HTTP fetcher, pinned to the pasted URL's host, as the admin operation will call it. */
const fetchPage: FetchPage = (request) => createHttpFetcher({ timeoutMs: 2_000 }).fetch(request, provisional(new URL(request.url).host))

function provisional(pinned: string): Site {
  return {
    key: 'probe',
    name: 'probe',
    hosts: [pinned],
    fetcher: 'http',
    fallback: 'none',
    adapter: { request: (u) => ({ url: u.href, method: 'GET' }), read: () => ({ kind: 'parsed', result: { chapters: [] } }) },
    ...seriesRules(undefined),
    pace: { ...DEFAULT_PACE },
    origin: 'sites.json',
  }
}

function ok(proposal: SiteProposal): Extract<SiteProposal, { ok: true }> {
  if (!proposal.ok) throw new Error(proposal.reason)
  return proposal
}

describe('recogniseSite (one page, pure)', () => {
  it('recognises Madara and proposes key, name, host pin, family; the preview is the chapters highest first', () => {
    const url = new URL('https://scans.example/manga/the-tower-climber/')
    const recognition = recogniseSite(page(url.href, stored('madara-inline.html')), url)
    expect(recognition).toMatchObject({
      ok: true,
      entry: { key: 'scans', name: 'Toon Scans', hosts: ['scans.example'], fetcher: 'http', family: 'madara' },
      recognisedBy: 'Madara markup: 5 .wp-manga-chapter rows',
      seriesUrl: url.href,
    })
    const proposal = ok(recognition)
    expect(proposal.entry).not.toHaveProperty('idPattern')
    expect(proposal.preview.title).toBe('The Tower Climber')
    expect(proposal.preview.chapters.map((c) => c.number)).toEqual([153, 152, 151.5, 1])
    expect(proposal.preview.chapterCount).toBe(4)
  })

  it('recognises MangaThemesia by its li[data-num] rows', () => {
    const url = new URL('https://bloom.example/manga/iron-bloom/')
    const proposal = ok(recogniseSite(page(url.href, stored('mangathemesia.html')), url))
    expect(proposal.entry).toMatchObject({ key: 'bloom', family: 'mangathemesia', hosts: ['bloom.example'] })
    expect(proposal.preview.chapters.map((c) => c.number)).toEqual([61, 60, 59.5])
  })

  it('a Madara page that loads its list by XHR proposes the entry and says which request reads the chapters', () => {
    const url = new URL('https://harbor.example/x/manga/glass-harbor/')
    const recognition = recogniseSite(page(url.href, stored('madara-subfolder.html')), url)
    expect(recognition).toMatchObject({
      ok: true,
      entry: { key: 'harbor', name: 'Harbor Scans', family: 'madara' },
      preview: { title: 'Glass Harbor', chapters: [] },
      pending: { request: { url: 'https://harbor.example/x/manga/glass-harbor/ajax/chapters/' } },
    })
  })

  it('describes a generic chapter list with selectors: the Series rows, not the sidebar or the pager', () => {
    const url = new URL('https://lantern.example/comic/moth-garden')
    const proposal = ok(recogniseSite(page(url.href, stored('generic-list.html')), url))
    expect(proposal.entry).toEqual({
      key: 'lantern',
      name: 'Paper Lantern Comics',
      hosts: ['lantern.example'],
      fetcher: 'http',
      selectors: { chapter: '#episodes > div.episode-row > a', number: 'text' },
      idPattern: '^/comic/([^/?#]+)',
    })
    expect(proposal.preview).toMatchObject({ title: 'Moth Garden', chapterCount: 5 })
    expect(proposal.preview.chapters.map((c) => [c.number, c.label])).toEqual([
      [14, 'Episode 14 - Cocoon'],
      [13, 'Episode 13'],
      [12.5, 'Episode 12.5 (bonus)'],
      [12, 'Episode 12'],
      [1, 'Episode 1'],
    ])
    expect(proposal.recognisedBy).toMatch(/^a list of 5 links whose text reads as chapter numbers/)
  })

  it('what the owner confirms is a Site the registry accepts, reading the same chapters as the preview', () => {
    const url = new URL('https://lantern.example/comic/moth-garden')
    const proposal = ok(recogniseSite(page(url.href, stored('generic-list.html')), url))
    const checked = checkSiteEntry(proposal.entry, new Map())
    if ('problems' in checked) throw new Error(checked.problems.join())
    const registry = createRegistry([...BUILT_IN_SITES, checked.site])
    expect(registry.resolve(proposal.seriesUrl)).toMatchObject({
      seriesId: 'moth-garden',
      seriesUrl: 'https://lantern.example/comic/moth-garden',
    })
    expect(registry.resolve('https://lantern.example/comic/moth-garden/ep-13')?.seriesId).toBe('moth-garden')
    const step = checked.site.adapter.read(page(url.href, stored('generic-list.html')), url)
    expect(step.kind === 'parsed' && step.result.chapters.length).toBe(5)
  })

  it.each([
    ['a page with no chapter list', page('https://quiet.example/about', stored('no-chapters.html')), /found no chapter list/],
    ['a 404', page('https://quiet.example/x', '<h1>gone</h1>', 404), /answered HTTP 404, not a Series page/],
    ['JSON', page('https://quiet.example/x', '{"data":[]}', 200, 'application/json'), /the page is JSON/],
    [
      'a Madara page without a chapter list',
      page('https://scans.example/manga/', '<link href="https://scans.example/wp-content/themes/madara/style.css"><h1>Manga</h1>'),
      /runs the Madara theme, but this page shows no chapter list/,
    ],
  ])('says why it cannot read %s', (_name, given, reason) => {
    const recognition = recogniseSite(given, new URL(given.url))
    expect(recognition.ok === false && recognition.reason).toMatch(reason)
  })

  it.each([
    ['https://www.reaperscans.com/series/x/', [], 'reaperscans'],
    ['https://live.mangabooth.com/x/manga/y/', [], 'mangabooth'],
    ['https://toons.co.uk/manga/y/', [], 'toons'],
    ['http://127.0.0.1:4000/manga/y/', [], '127-0-0-1-4000'],
    ['https://localhost/manga/y/', [], 'localhost'],
    ['https://scans.example/manga/y/', ['scans', 'scans-2'], 'scans-3'],
  ])('proposes a key from the host: %s', (url, taken, key) => {
    expect(proposeKey(new URL(url), taken)).toBe(key)
  })
})

describe('proposeSite (fetching through the real HTTP fetcher)', () => {
  it('fetches the page, recognises Madara and previews the chapters', async () => {
    const proposal = ok(await proposeSite(fetchPage, `${origin}/manga/the-tower-climber/`, { sites: BUILT_IN_SITES }))
    expect(proposal.entry).toMatchObject({ key: `127-0-0-1-${new URL(origin).port}`, hosts: [host], family: 'madara' })
    expect(proposal.preview.chapters[0]).toMatchObject({ number: 153, url: `${origin}/manga/the-tower-climber/chapter-153-preview/` })
  })

  it("follows a Madara XHR list, falling back to the page's own ajax_url in its subfolder", async () => {
    hits.length = 0
    const proposal = ok(await proposeSite(fetchPage, `${origin}/x/manga/glass-harbor/`, { sites: BUILT_IN_SITES }))
    expect(hits).toEqual(['GET /x/manga/glass-harbor/', 'POST /x/manga/glass-harbor/ajax/chapters/', 'POST /x/wp-admin/admin-ajax.php'])
    expect(proposal.preview).toMatchObject({ title: 'Glass Harbor', chapterCount: 2 })
    expect(proposal.preview.chapters.map((c) => c.number)).toEqual([38, 37])
  })

  it.each([
    ['MangaBox', '/manga/paper-crane', 'mangabox', 'MangaBox markup: 2 chapter-list rows', 1074],
    ['MadTheme', '/night-orchard', 'madtheme', 'MadTheme markup: 2 #chapter-list rows', 31],
    ['MangaCatalog', '/manga/iron-tide/', 'mangacatalog', 'MangaCatalog markup: 2 chapter rows', 140],
  ])('recognises %s from one Series URL and previews its chapters', async (_name, path, family, how, highest) => {
    const proposal = ok(await proposeSite(fetchPage, `${origin}${path}`, { sites: BUILT_IN_SITES }))
    expect(proposal.entry).toMatchObject({ family, hosts: [host] })
    expect(proposal.entry.idPattern).toBeUndefined()
    expect(proposal.recognisedBy).toBe(how)
    expect(proposal.preview.chapters[0]?.number).toBe(highest)
  })

  it("recognises MangaBox on Mangabat's older shape, from its page under an unknown host, and a chapter URL of it", async () => {
    for (const pasted of ['/read-oa392319', '/read-oa392319-chap-42']) {
      const proposal = ok(await proposeSite(fetchPage, `${origin}${pasted}`, { sites: BUILT_IN_SITES }))
      expect(proposal.entry).toMatchObject({ family: 'mangabox', hosts: [host] })
      expect(proposal.entry.idPattern).toBeUndefined()
      expect(proposal.seriesUrl).toBe(`${origin}/read-oa392319`)
      expect(proposal.preview).toMatchObject({ title: 'Lantern Moth', chapterCount: 3 })
    }
  })

  it('recognises Keyoapp from one Series URL and previews its chapters', async () => {
    const proposal = ok(await proposeSite(fetchPage, `${origin}/series/moth-lantern/`, { sites: BUILT_IN_SITES }))
    expect(proposal.entry).toMatchObject({ family: 'keyoapp', hosts: [host] })
    expect(proposal.entry.idPattern).toBeUndefined()
    expect(proposal.recognisedBy).toBe('Keyoapp markup: 4 #chapters > a rows')
    expect(proposal.preview).toMatchObject({ title: 'Moth Lantern', chapterCount: 3 })
  })

  it('recognises ZeistManga from one Series URL, follows its Blogger feed and previews the chapters', async () => {
    hits.length = 0
    const proposal = ok(await proposeSite(fetchPage, `${origin}/2026/01/luz-de-invierno.html`, { sites: BUILT_IN_SITES }))
    expect(proposal.entry).toMatchObject({ family: 'zeistmanga', hosts: [host] })
    expect(proposal.entry.idPattern).toBeUndefined()
    expect(hits).toEqual([
      'GET /2026/01/luz-de-invierno.html',
      'GET /feeds/posts/default/-/Chapter/Luz%20de%20Invierno?alt=json&start-index=1&max-results=500',
    ])
    expect(proposal.preview).toMatchObject({ title: 'Luz de Invierno', chapterCount: 2 })
    expect(proposal.preview.chapters.map((c) => c.number)).toEqual([12, 11.5])
  })

  it('a pasted chapter URL reads the Series page one segment up', async () => {
    const proposal = ok(await proposeSite(fetchPage, `${origin}/manga/iron-bloom/chapter-61/`, { sites: BUILT_IN_SITES }))
    expect(proposal.seriesUrl).toBe(`${origin}/manga/iron-bloom/`)
    expect(proposal.entry.family).toBe('mangathemesia')
  })

  it.each([
    ['a challenge that holds', '/manga/cloudy/', /answered with an anti-bot challenge that did not clear/],
    ['a page with no chapters', '/about', /found no chapter list/],
    ['a missing page', '/nowhere', /answered HTTP 404/],
    ['JSON', '/api/feed', /the page is JSON/],
  ])('says why it cannot read %s', async (_name, path, reason) => {
    const proposal = await proposeSite(fetchPage, `${origin}${path}`, { sites: BUILT_IN_SITES })
    expect(proposal.ok === false && proposal.reason).toMatch(reason)
  })

  it.each([
    [
      'a URL a running Site pins',
      'https://mangadex.org/title/a96676e5-8ae2-425e-b549-7f15dd34a6d8',
      /belongs to the Site "MangaDex" already/,
    ],
    ['not a URL', 'mangadex', /not a URL/],
    ['another scheme', 'ftp://scans.example/manga/x/', /an ftp: URL cannot be a Site/],
  ])('refuses %s without fetching', async (_name, url, reason) => {
    hits.length = 0
    const proposal = await proposeSite(fetchPage, url, { sites: BUILT_IN_SITES })
    expect(proposal.ok === false && proposal.reason).toMatch(reason)
    expect(hits).toEqual([])
  })

  it("a host of the Known Sites table is recognised from its page's markup; the table only names it", async () => {
    hits.length = 0
    const known = { key: 'asura-scans', name: 'Asura Scans', lang: 'en', family: 'madara' as const, baseUrl: origin }
    const knownSite = (h: string) => (h === host ? known : undefined)
    const proposal = ok(await proposeSite(fetchPage, `${origin}/manga/the-tower-climber/chapter-3/`, { sites: BUILT_IN_SITES, knownSite }))
    expect(proposal.recognisedBy).toBe('Madara markup: 5 .wp-manga-chapter rows; named by the Known Sites table: Asura Scans')
    expect(proposal.entry).toMatchObject({ key: 'asura-scans', name: 'Asura Scans', family: 'madara', hosts: [host, `www.${host}`] })
    expect(proposal.seriesUrl).toBe(`${origin}/manga/the-tower-climber/`)
    expect(proposal.preview.chapters[0]?.number).toBe(153)
    // The chapter page first (no such page here), then its Series one segment up.
    expect(hits).toEqual(['GET /manga/the-tower-climber/chapter-3/', 'GET /manga/the-tower-climber/'])
  })

  it("a Known host whose row names another family is read as its page's markup says", async () => {
    const known = { key: 'box-scans', name: 'Box Scans', lang: 'en', family: 'madara' as const, baseUrl: origin }
    const knownSite = (h: string) => (h === host ? known : undefined)
    const proposal = ok(await proposeSite(fetchPage, `${origin}/manga/paper-crane`, { sites: BUILT_IN_SITES, knownSite }))
    expect(proposal.entry).toMatchObject({ key: 'box-scans', name: 'Box Scans', family: 'mangabox' })
    expect(proposal.recognisedBy).toBe(
      "MangaBox markup: 2 chapter-list rows; named by the Known Sites table: Box Scans, which says Madara — the page's markup decides",
    )
    expect(proposal.preview.chapters[0]?.number).toBe(1074)
  })

  it("a Known host whose page shows no family's markup is offered as the chapter list it shows, and says so", async () => {
    const known = { key: 'moth', name: 'Moth Garden', lang: 'en', family: 'mangathemesia' as const, baseUrl: origin }
    const knownSite = (h: string) => (h === host ? known : undefined)
    const proposal = ok(await proposeSite(fetchPage, `${origin}/comic/moth-garden`, { sites: BUILT_IN_SITES, knownSite }))
    expect(proposal.entry.family).toBeUndefined()
    expect(proposal.entry.selectors).toBeDefined()
    expect(proposal.entry).toMatchObject({ key: 'moth', name: 'Moth Garden' })
    expect(proposal.recognisedBy).toMatch(/^no family's markup on the page \(the Known Sites table says MangaThemesia\): a list of 5 links/)
  })

  it("a Known ComiciViewer host is recognised from one Series URL, its preview read from the family's own API", async () => {
    hits.length = 0
    const known = { key: 'comic-garden', name: 'Comic Garden', lang: 'ja', family: 'comiciviewer' as const, baseUrl: origin }
    const knownSite = (h: string) => (h === host ? known : undefined)
    const proposal = ok(await proposeSite(fetchPage, `${origin}/series/5f3a9c`, { sites: BUILT_IN_SITES, knownSite }))
    expect(proposal.entry).toMatchObject({ key: 'comic-garden', family: 'comiciviewer' })
    expect(hits).toEqual(['GET /api/episodes?seriesHash=5f3a9c&episodeFrom=1&episodeTo=9999'])
    expect(proposal.preview).toMatchObject({ title: '星の庭', chapterCount: 4 })
    expect(proposal.preview.chapters[0]).toMatchObject({ number: 3, url: `${origin}/episodes/j0k1l2` })
  })

  it('a Known PizzaReader host is recognised from one Series URL, its preview read from the comic API', async () => {
    hits.length = 0
    const known = { key: 'pizza', name: 'Pizza Scans', lang: 'it', family: 'pizzareader' as const, baseUrl: origin }
    const knownSite = (h: string) => (h === host ? known : undefined)
    const proposal = ok(await proposeSite(fetchPage, `${origin}/comics/la-torre-di-sale`, { sites: BUILT_IN_SITES, knownSite }))
    expect(proposal.entry).toMatchObject({ key: 'pizza', family: 'pizzareader' })
    expect(hits).toEqual(['GET /api/comics/la-torre-di-sale'])
    expect(proposal.preview).toMatchObject({ title: 'La Torre di Sale', chapterCount: 3 })
  })

  it('a Known Site whose page cannot be read is not proposed: the family cannot be told without it', async () => {
    const known = { key: 'cloudy', name: 'Cloudy', lang: 'en', family: 'mangathemesia' as const, baseUrl: origin }
    const knownSite = (h: string) => (h === host ? known : undefined)
    const challenged = await proposeSite(fetchPage, `${origin}/manga/cloudy/`, { sites: BUILT_IN_SITES, knownSite })
    expect(challenged.ok === false && challenged.reason).toMatch(/anti-bot challenge that did not clear/)
    const about = await proposeSite(fetchPage, `${origin}/about`, { sites: BUILT_IN_SITES, knownSite })
    expect(about.ok === false && about.reason).toMatch(/could not tell the Site's family from the page/)
  })

  it('the real table does not recognise a known host whose Series page is unreachable', async () => {
    const proposal = await proposeSite(async () => ({ kind: 'unreachable', reason: 'offline' }), 'https://comicasura.net/manga/solo/', {
      sites: BUILT_IN_SITES,
    })
    expect(proposal.ok === false && proposal.reason).toMatch(/comicasura\.net could not be fetched: offline/)
  })

  it("a Known row of an API family whose API answers nothing: the page's markup still tells", async () => {
    const known = { key: 'pizza-box', name: 'Pizza Box', lang: 'it', family: 'pizzareader' as const, baseUrl: origin }
    const knownSite = (h: string) => (h === host ? known : undefined)
    const proposal = ok(await proposeSite(fetchPage, `${origin}/manga/paper-crane`, { sites: BUILT_IN_SITES, knownSite }))
    expect(proposal.entry).toMatchObject({ key: 'pizza-box', name: 'Pizza Box', family: 'mangabox' })
    expect(proposal.recognisedBy).toMatch(/^MangaBox markup: .*which says PizzaReader — the page's markup decides$/)
  })

  it('a Known API host whose answer holds no chapter: could not tell', async () => {
    const known = { key: 'pizza', name: 'Pizza Scans', lang: 'it', family: 'pizzareader' as const, baseUrl: origin }
    const knownSite = (h: string) => (h === host ? known : undefined)
    const proposal = await proposeSite(fetchPage, `${origin}/comics/unknown-comic`, { sites: BUILT_IN_SITES, knownSite })
    expect(proposal.ok === false && proposal.reason).toMatch(/^could not tell whether 127\.0\.0\.1:\d+ is a PizzaReader Site: .*HTTP 404/)
  })

  it('confirming writes sites.json; loading it runs the Site, which resolves the pasted Series', async () => {
    const d = tempDir()
    try {
      const proposal = ok(await proposeSite(fetchPage, `${origin}/comic/moth-garden`, { sites: BUILT_IN_SITES }))
      const written = await addSiteEntry(d.dir, proposal.entry, BUILT_IN_SITES)
      expect(written.ok).toBe(true)
      const report = loadSites(d.dir, BUILT_IN_SITES)
      expect(report.problems).toEqual([])
      expect(createRegistry(report.sites).resolve(proposal.seriesUrl)).toMatchObject({
        site: { key: proposal.entry.key },
        seriesId: 'moth-garden',
      })
    } finally {
      d.remove()
    }
  })
})
