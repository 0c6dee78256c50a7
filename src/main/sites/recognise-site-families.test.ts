/**
 * Add a Site recognises GigaViewer, WPComics, Grouple, FoolSlide, MMRCMS, MangaReader and GalleryAdults from one Series URL, on a real
 * loopback server serving our own pages: the family from the page's markup, the preview as the Lane will read
 * it (through the family's API where the page lists none), and a page of another family is not taken for one.
 */
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpFetcher } from '../fetch/http-fetcher'
import { familyOfPage, proposeSite, type FetchPage, type SiteProposal } from './recognise-site'
import { BUILT_IN_SITES } from './builtin'
import { DEFAULT_PACE, seriesRules, type Site } from './site'

const stored = (name: string) => readFileSync(join(__dirname, 'testdata', name), 'utf8')

let server: Server
let origin: string
let host: string
const hits: string[] = []
const routes = new Map<string, [string, string]>()

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`)
    const route = routes.get(req.url ?? '')
    if (!route) return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>')
    res.writeHead(200, { 'content-type': route[0] }).end(route[1])
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`
  origin = `http://${host}`
  const html = (path: string, file: string, from: string) =>
    routes.set(path, ['text/html; charset=utf-8', stored(file).replaceAll(from, origin)])
  html('/episode/3269754496647404999', 'gigaviewer-episode.html', 'https://giga.example')
  routes.set('/api/viewer/pagination_readable_products?type=episode&aggregate_id=3269754496647404210&sort_order=desc&offset=0', [
    'application/json',
    stored('gigaviewer-episodes.json'),
  ])
  html('/truyen-tranh/hoa-sen-do', 'wpcomics.html', 'https://truyen.example')
  html('/truyen-tranh/may-trang', 'wpcomics-script-list.html', 'https://net.example')
  routes.set('/Comic/Services/ComicService.asmx/ChapterList?slug=may-trang', ['application/json', stored('wpcomics-chapters.json')])
  html('/severnyi_veter', 'grouple.html', 'https://read.example')
  html('/series/iron-lantern/', 'foolslide.html', 'https://fool.example')
  html('/manga/le-phare-noir', 'mmrcms.html', 'https://cms.example')
  html('/tsuki-no-niwa-raw-501', 'mangareader.html', 'https://raw.example')
  html('/gallery/1234567/', 'galleryadults.html', 'https://gallery.example')
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

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

describe('Add a Site, the newer families', () => {
  it.each([
    [
      'GigaViewer',
      '/episode/3269754496647404999',
      'gigaviewer',
      'GigaViewer markup: the episode page names its series (data-giga_series)',
      '港の灯',
      [3, 2.5, 2, 1],
    ],
    ['WPComics', '/truyen-tranh/hoa-sen-do', 'wpcomics', 'WPComics markup: 4 div.list-chapter rows', 'Hoa Sen Đỏ', [12, 11.5, 11, 1]],
    [
      'WPComics, its list by script',
      '/truyen-tranh/may-trang',
      'wpcomics',
      'WPComics markup: #item-detail with a chapter list loaded by script',
      'Mây Trắng',
      [42, 41.5, 1],
    ],
    ['Grouple', '/severnyi_veter', 'grouple', 'Grouple markup: 4 tr.item-row rows', 'Северный ветер', [12.5, 12, 1]],
    ['FoolSlide', '/series/iron-lantern/', 'foolslide', 'FoolSlide markup: 4 div.element rows', 'Iron Lantern', [14, 13.5, 1]],
    ['MMRCMS', '/manga/le-phare-noir', 'mmrcms', 'MMRCMS markup: 3 ul.chapters rows', 'Le Phare Noir', [21, 20.5, 1]],
    [
      'GalleryAdults',
      '/gallery/1234567/',
      'galleryadults',
      'GalleryAdults markup: a gallery (its pages loader, input#load_pages)',
      'Summer Lanterns',
      [1],
    ],
    ['MangaReader', '/tsuki-no-niwa-raw-501', 'mangareader', 'MangaReader markup: 3 li.chapter-item rows', '月の庭', [24, 23.5, 1]],
  ])('recognises %s from one Series URL and previews its chapters', async (_name, path, family, how, title, numbers) => {
    const proposal = ok(await proposeSite(fetchPage, `${origin}${path}`, { sites: BUILT_IN_SITES }))
    expect(proposal.entry).toMatchObject({ family, hosts: [host] })
    expect(proposal.entry.idPattern).toBeUndefined()
    expect(proposal.recognisedBy).toBe(how)
    expect(proposal.preview).toMatchObject({ title, chapterCount: numbers.length })
    expect(proposal.preview.chapters.map((c) => c.number)).toEqual(numbers)
  })

  it("the new families' markup is not read into another family's page, nor another's into theirs", () => {
    const url = new URL('https://x.example/manga/y/')
    expect(familyOfPage({ body: stored('madara-inline.html') }, url)).toMatchObject({ family: 'madara' })
    expect(familyOfPage({ body: stored('mangathemesia.html') }, url)).toMatchObject({ family: 'mangathemesia' })
    expect(familyOfPage({ body: stored('generic-list.html') }, url)).toHaveProperty('unknown')
    for (const [file, family] of [
      ['gigaviewer-episode.html', 'gigaviewer'],
      ['wpcomics.html', 'wpcomics'],
      ['grouple.html', 'grouple'],
      ['foolslide.html', 'foolslide'],
      ['mmrcms.html', 'mmrcms'],
      ['mangareader.html', 'mangareader'],
      ['galleryadults.html', 'galleryadults'],
      ['manhwaz.html', 'madara'],
    ])
      expect(familyOfPage({ body: stored(file!) }, url)).toMatchObject({ family })
  })
})
