/**
 * A chapter link leaves the host pin: the Latest Chapter is recorded, but the link a Reader's card gets is the
 * Series URL, never the other host. A real Madara page on a loopback server, the HTTP fetcher, a real SQLite
 * file, and the sync endpoint the Reader reads.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttpFetcher } from '../fetch/http-fetcher'
import { silentLog } from '../log'
import { FAMILIES } from '../sites/families'
import { DEFAULT_PACE, seriesRules, type Site } from '../sites/site'
import { requireSeries } from '../store/series'
import { seedSeries } from '../testing/store'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'
import { checkSeries } from './check'

let sync: TestSyncServer
let server: Server
let host: string

/** A Madara page whose rows link where the test says; the newest row first. */
function madaraPage(links: string[]): string {
  const rows = links.map((href, i) => `<li class="wp-manga-chapter"><a href="${href}">Chapter ${links.length - i}</a></li>`).join('')
  return `<!DOCTYPE html><html><body><div class="post-title"><h1>Tower</h1></div><ul class="main">${rows}</ul></body></html>`
}

const pages = new Map<string, string>()

beforeAll(async () => {
  sync = await startTestSyncServer()
  server = createServer((req, res) => {
    const body = pages.get(req.url ?? '')
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html' }).end(body ?? 'no')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await sync.close()
})

function madaraSite(): Site {
  return {
    key: 'links',
    name: 'Link Scans',
    hosts: [host],
    fetcher: 'http',
    fallback: 'none',
    adapter: FAMILIES.madara.adapter(),
    ...seriesRules(FAMILIES.madara.idPattern),
    pace: { ...DEFAULT_PACE },
    origin: 'sites.json',
  }
}

async function check(slug: string, links: (origin: string) => string[]) {
  const path = `/manga/${slug}/`
  const seriesUrl = `http://${host}${path}`
  pages.set(path, madaraPage(links(`http://${host}`)))
  await seedSeries(sync.store.db, { site: 'links', id: slug, url: seriesUrl, readers: [sync.alice.id] })
  const report = await checkSeries(
    { db: sync.store.db, clock: sync.clock, log: silentLog },
    madaraSite(),
    createHttpFetcher({ timeoutMs: 5_000 }),
    { site: 'links', series_id: slug, series_url: seriesUrl },
  )
  expect(report.outcome).toBe('chapter')
  const row = await requireSeries(sync.store.db, { site: 'links', seriesId: slug })
  const card = (await sync.call(sync.alice.token, 'GET', '/api/v1/bookmarks')).json.bookmarks.find((b: any) => b.seriesId === slug)
  return { seriesUrl, row, card }
}

describe('the link a Latest Chapter gets', () => {
  it('a chapter linked to another host: the Reader’s card links the Series URL instead', async () => {
    const { seriesUrl, row, card } = await check('leaves', () => ['https://phish.example/tower/chapter-2/', '/manga/leaves/chapter-2/'])
    expect(row.latest_chapter).toBe(2)
    expect(row.latest_chapter_url).toBe(seriesUrl)
    expect(card.series.latestChapterUrl).toBe(seriesUrl)
  })

  it('a chapter linked to the same host name on another port is off the pin too', async () => {
    const { seriesUrl, row } = await check('port', () => ['http://127.0.0.1:1/manga/port/chapter-2/', '/manga/port/chapter-1/'])
    expect(row.latest_chapter_url).toBe(seriesUrl)
  })

  it('a chapter linked on the pin keeps its own link', async () => {
    const { row, card } = await check('stays', (origin) => [`${origin}/manga/stays/chapter-2/`, '/manga/stays/chapter-1/'])
    expect(row.latest_chapter_url).toBe(`http://${host}/manga/stays/chapter-2/`)
    expect(card.series.latestChapterUrl).toBe(`http://${host}/manga/stays/chapter-2/`)
  })
})
