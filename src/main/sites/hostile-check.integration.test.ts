import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HTTP_DEFAULTS, createHttpFetcher } from '../fetch/http-fetcher'
import { checkSeries } from '../lanes/check'
import { silentLog } from '../log'
import { requireSeries } from '../store/series'
import { seedReader, seedSeries } from '../testing/store'
import { startTestSyncServer, type TestSyncServer } from '../testing/sync-server'
import { FAMILIES } from './families'
import { DEFAULT_PACE, seriesRules, type Site } from './site'
import { HOSTILE_LATEST, hostilePage } from './tools/hostile-pages'

let sync: TestSyncServer
let hostile: Server
let host: string
// Just under the HTTP fetcher's body cap, so the page is read, not refused as oversized.
const body = hostilePage('mangathemesia', HTTP_DEFAULTS.maxBodyBytes - 600_000)

beforeAll(async () => {
  sync = await startTestSyncServer()
  hostile = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(body))
  await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve))
  host = `127.0.0.1:${(hostile.address() as AddressInfo).port}`
})
afterAll(async () => {
  await new Promise((resolve) => hostile.close(resolve))
  await sync.close()
})

describe('a check of a page of hostile labels', () => {
  it('records the honest Latest Chapter while /api/v1/health keeps answering within a second', async () => {
    expect(body.length).toBeGreaterThan(4 * 1024 * 1024)
    expect(body.length).toBeLessThanOrEqual(HTTP_DEFAULTS.maxBodyBytes)
    const site: Site = {
      key: 'hostile',
      name: 'Hostile Scans',
      hosts: [host],
      fetcher: 'http',
      fallback: 'none',
      adapter: FAMILIES.mangathemesia.adapter(),
      ...seriesRules(FAMILIES.mangathemesia.idPattern),
      pace: { ...DEFAULT_PACE },
      origin: 'sites.json',
    }
    const reader = await seedReader(sync.store.db, 'owner')
    await seedSeries(sync.store.db, { site: 'hostile', id: 'soup', url: `http://${host}/manga/soup/`, readers: [reader] })

    let done = false
    let slowest = 0
    const probe = (async () => {
      while (!done) {
        const started = performance.now()
        const answer = await sync.call(null, 'GET', '/api/v1/health')
        expect(answer.json).toEqual({ ok: true })
        slowest = Math.max(slowest, performance.now() - started)
        await new Promise((resolve) => setTimeout(resolve, 10))
      }
    })()
    const check = checkSeries({ db: sync.store.db, clock: sync.clock, log: silentLog }, site, createHttpFetcher({ timeoutMs: 10_000 }), {
      site: 'hostile',
      series_id: 'soup',
      series_url: `http://${host}/manga/soup/`,
    }).finally(() => (done = true))
    const report = await check
    await probe

    expect(report.outcome).toBe('chapter')
    expect((await requireSeries(sync.store.db, { site: 'hostile', seriesId: 'soup' })).latest_chapter).toBe(HOSTILE_LATEST)
    expect(slowest).toBeLessThan(1_000)
  })
})
