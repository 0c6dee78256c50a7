/**
 * Add a Site on a Known GoDa host, over real HTTP on loopback: the family's first request (the Series page) and its
 * follow-up (the same host's chapter list) are fetched and read, and the proposed entry pins the Site's hosts and
 * exactly the family's API host.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpFetcher } from '../../fetch/http-fetcher'
import { BUILT_IN_SITES } from '../builtin'
import type { KnownSite } from '../known-sites'
import { proposeSite, type FetchPage } from '../recognise-site'
import { DEFAULT_PACE, seriesRules, type Site } from '../site'

const SERIES = `<!doctype html><html><body><main><div><div><h1>星之海 <span>連載中</span></h1></div></div>
  <div id="mangachapters" data-mid="5150"></div></main></body></html>`
const LIST = `<div class="chapteritem"><a href="/manga/xingzhihai/di-2-hua" data-ct="第2话 归来">第2话</a></div>
  <div class="chapteritem"><a href="/manga/xingzhihai/di-1-hua" data-ct="第1话">第1话</a></div>`

let server: Server
let origin: string
let host: string
const hits: string[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`)
    const body = req.url === '/manga/xingzhihai' ? SERIES : req.url === '/manga/get?mid=5150&mode=all' ? LIST : null
    if (body === null) return res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not found</h1>')
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`
  origin = `http://${host}`
})
afterAll(() => new Promise((resolve) => server.close(resolve)))

const probe = (pinned: string): Site => ({
  key: 'probe',
  name: 'probe',
  hosts: [pinned],
  fetcher: 'http',
  fallback: 'none',
  pace: { ...DEFAULT_PACE },
  origin: 'sites.json',
  adapter: { request: (u) => ({ url: u.href, method: 'GET' }), read: () => ({ kind: 'parsed', result: { chapters: [] } }) },
  ...seriesRules(undefined),
})
const fetchPage: FetchPage = (request) => createHttpFetcher({ timeoutMs: 2_000 }).fetch(request, probe(new URL(request.url).host))

describe('Add a Site on a Known GoDa host', () => {
  it('reads the Series page, then its list by the id the page names; the entry pins the API host too', async () => {
    const known: KnownSite = { key: '18mh', name: '18漫画', lang: 'zh', family: 'goda', baseUrl: origin }
    const proposal = await proposeSite(fetchPage, `${origin}/manga/xingzhihai`, {
      sites: BUILT_IN_SITES,
      knownSite: (h) => (h === host ? known : undefined),
    })
    if (!proposal.ok) throw new Error(proposal.reason)
    expect(hits).toEqual(['GET /manga/xingzhihai', 'GET /manga/get?mid=5150&mode=all'])
    expect(proposal.entry).toMatchObject({ key: '18mh', name: '18漫画', family: 'goda' })
    expect(proposal.entry.hosts).toContain('api-get-v3.mgsearcher.com')
    expect(proposal.recognisedBy).toMatch(/^GoDa: its answer for this Series read 2 chapters/)
    expect(proposal.preview).toMatchObject({ title: '星之海', chapterCount: 2 })
    expect(proposal.preview.chapters[0]).toMatchObject({ number: 2, url: `${origin}/manga/xingzhihai/di-2-hua` })
  })
})
