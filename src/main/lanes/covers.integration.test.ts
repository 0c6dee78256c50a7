/**
 * Covers on the Lane (docs/adr/0151-a-cover-is-one-paced-request.md), against the real fixture site over HTTP,
 * the real store and a real covers folder; only the clock is fake.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { coverPng } from '../demo/cover-images'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { fixtureSites } from '../demo/fixture-sites'
import { BrowserHealth } from '../fetch/browser-health'
import { createHttpFetcher } from '../fetch/http-fetcher'
import type { ImageResult } from '../fetch/image-fetcher'
import { silentLog } from '../log'
import type { Site } from '../sites/site'
import { addBookmark, removeBookmark } from '../store/bookmarks'
import { CoverStore, MAX_COVER_BYTES, sniffImage } from '../store/covers'
import { pauseLane } from '../store/lanes'
import { addSeries } from '../store/series'
import { FakeClock } from '../testing/clock'
import { openTestStore, seedReader, type TestStore } from '../testing/store'
import { pruneCovers } from './lane'
import { SitePacer } from './pacer'
import { runPass, type PassResult } from './pass'

let store: TestStore
let clock: FakeClock
let fixture: FixtureSite
let sites: Map<string, Site>
let covers: CoverStore
let pacer: SitePacer
let alice: number
const coverRequests: ImageResult[] = []
const http = createHttpFetcher({ timeoutMs: 400, maxBodyBytes: 512 * 1024 })

beforeEach(async () => {
  store = openTestStore()
  clock = new FakeClock()
  fixture = await startFixtureSite({ now: () => clock.now() })
  sites = new Map(fixtureSites(fixture.host).map((s) => [s.key, s]))
  covers = new CoverStore(join(store.dir, 'covers'))
  pacer = new SitePacer(clock)
  alice = await seedReader(store.db, 'alice')
  coverRequests.length = 0
})
afterEach(async () => {
  await fixture.close()
  await store.dispose()
})

async function bookmark(siteKey: string, path: string) {
  const url = `${fixture.origin}${path}`
  const seriesId = sites.get(siteKey)!.seriesIdOf(new URL(url))!
  await addSeries(store.db, { site: siteKey, seriesId, seriesUrl: url, now: 1 })
  await addBookmark(store.db, { site: siteKey, seriesId, readerId: alice, now: 1 })
  return { site: siteKey, seriesId }
}

/** A Series checked once (its fixture cover kept), then `url` noted as its cover, as a later check would. */
async function withCoverWanted(site: Site, path: string, url: string) {
  const series = await bookmark('fixture-madara', path)
  await passes(site, 15)
  coverRequests.length = 0
  await clock.advance(site.pace.maxGapMs)
  covers.note(series, url, clock.now())
  return series
}

/** Passes one after the other, as the Lane runs them (a cover waits for the pass after its check when the gap fills a pass). */
async function passes(site: Site, n: number): Promise<void> {
  for (let i = 0; i < n; i++) await clock.advance((await onePass(site)).sleepMs || site.pace.idleRequeryMs)
}

async function onePass(site: Site): Promise<PassResult> {
  let result: PassResult | undefined
  const running = runPass(
    {
      db: store.db,
      site,
      fetchers: { http },
      health: new BrowserHealth(clock),
      pacer,
      clock,
      log: silentLog,
      covers,
      onCover: (_key, r) => coverRequests.push(r),
    },
    new AbortController().signal,
  ).then((r) => (result = r))
  await clock.runUntil(() => result !== undefined)
  await running
  return result!
}

const hitsOf = (suffix: string) => fixture.hits.filter((h) => h.path.endsWith(suffix))

describe('a cover, read from the Series page and fetched on the Lane', () => {
  it.each([
    ['fixture-madara', '/madara/manga/tower-climber/'],
    ['fixture-themesia', '/themesia/manga/iron-bloom/'],
  ])('%s: one request after the check, a gap after it; kept as a PNG; not fetched again', async (key, path) => {
    const site = sites.get(key)!
    const series = await bookmark(key, path)
    await passes(site, 15)
    expect(hitsOf(`${path}cover.png`)).toHaveLength(1)
    const page = fixture.hits.find((h) => h.path === path)!
    const cover = hitsOf('cover.png')[0]!
    // The cover waited the pass's gap after the check, like any request of the Lane.
    expect(cover.at - page.at).toBeGreaterThanOrEqual(site.pace.minGapMs)
    const image = covers.image(series)!
    expect(image.type).toBe('image/png')
    expect(image.bytes.equals(coverPng(`${path.split('/')[1]}:${series.seriesId}`))).toBe(true)

    // The next check reads the same cover URL: no second request for it.
    await clock.advance(site.pace.restMs + 1)
    await passes(site, 15)
    expect(fixture.hits.filter((h) => h.path === path)).toHaveLength(2)
    expect(hitsOf('cover.png')).toHaveLength(1)
  })

  it('a paused Lane sends no cover; it is fetched once the pause ends', async () => {
    const site = sites.get('fixture-madara')!
    const series = await bookmark('fixture-madara', '/madara/manga/solo-lantern/')
    // The check reads the cover URL; then the owner pauses before the Lane's turn for it.
    covers.note(series, `${fixture.origin}/madara/manga/solo-lantern/cover.png`, clock.now())
    await pauseLane(store.db, site.key, clock.now() + 3_600_000, clock.now())
    await onePass(site)
    expect(fixture.hits).toHaveLength(0)
    await clock.advance(3_600_001)
    await passes(site, 15)
    expect(hitsOf('cover.png')).toHaveLength(1)
    expect(covers.has(series)).toBe(true)
  })

  it("a cover off the Site's hosts is never fetched, and not wanted again", async () => {
    const site = sites.get('fixture-madara')!
    const series = await withCoverWanted(site, '/madara/manga/far-cover/', 'http://localhost:1/cover.png')
    const before = fixture.hits.length
    await onePass(site)
    expect(coverRequests).toHaveLength(0)
    expect(fixture.hits.length).toBe(before)
    expect(covers.record(series)).toMatchObject({ url: 'http://localhost:1/cover.png', type: '' })
    expect(covers.note(series, 'http://localhost:1/cover.png', clock.now())).toBe(false)
  })

  it('a Series no Reader holds any more gets no cover request; its cover is pruned with it', async () => {
    const site = sites.get('fixture-madara')!
    const kept = await bookmark('fixture-madara', '/madara/manga/kept/')
    const dropped = await bookmark('fixture-madara', '/madara/manga/dropped/')
    await passes(site, 60)
    expect(covers.has(kept) && covers.has(dropped)).toBe(true)
    covers.note(dropped, `${fixture.origin}/madara/manga/dropped/other.png`, clock.now())
    await removeBookmark(store.db, alice, dropped, clock.now())
    const before = fixture.hits.length
    await clock.advance(site.pace.minGapMs)
    await onePass(site)
    expect(fixture.hits.length).toBe(before)
    // The Series goes (retention, or the owner deletes it): its cover goes at the next retention run.
    await store.db.deleteFrom('series').where('site', '=', dropped.site).where('series_id', '=', dropped.seriesId).execute()
    expect(await pruneCovers(store.db, covers)).toBe(1)
    expect(covers.has(dropped)).toBe(false)
    expect(covers.has(kept)).toBe(true)
  })
})

describe('the hourly prune', () => {
  it('asks the library about the covers on disk alone, past one batch of ids, and keeps what it still holds', async () => {
    // 1,203 covers kept on disk, every third of whose Series the library let go; Series with no cover are not read.
    const keys = Array.from({ length: 1_203 }, (_, i) => ({ site: i % 2 ? 'fixture-madara' : 'fixture-mangadex', seriesId: `s-${i}` }))
    for (const [i, key] of keys.entries()) {
      covers.save(key, `http://localhost:1/${i}.png`, { reason: 'no image' }, clock.now())
      if (i % 3) await addSeries(store.db, { ...key, now: 1 })
    }
    expect(covers.keys()).toHaveLength(1_203)
    expect(await pruneCovers(store.db, covers)).toBe(401)
    expect(keys.filter((key) => covers.record(key)).map((key) => Number(key.seriesId.slice(2)) % 3)).not.toContain(0)
    expect(covers.keys()).toHaveLength(802)
  })
})

describe('a busy Lane', () => {
  it('still fetches every cover, with the gap kept between all its requests', async () => {
    // Four Series at the shortest gap take longer than a rest: something is always due.
    const pace = { restMs: 10_000, minGapMs: 3_000, maxGapMs: 20_000, maxPassMs: 10_000, ceilingMs: 30_000 }
    const site = fixtureSites(fixture.host, pace).find((s) => s.key === 'fixture-madara')!
    for (const slug of ['a-one', 'b-two', 'c-three', 'd-four']) await bookmark('fixture-madara', `/madara/manga/${slug}/`)
    await passes(site, 30)
    expect(hitsOf('cover.png')).toHaveLength(4)
    const times = fixture.hits.map((h) => h.at)
    for (let i = 1; i < times.length; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(site.pace.minGapMs)
  })
})

describe('what a cover request keeps', () => {
  let server: Server
  let origin: string
  const bodies: Record<string, { type: string; body: Buffer; status?: number }> = {
    '/big.png': { type: 'image/png', body: Buffer.concat([coverPng('x'), Buffer.alloc(MAX_COVER_BYTES)]) },
    '/page.png': { type: 'image/png', body: Buffer.from('<html><script>alert(1)</script></html>') },
    '/svg.png': { type: 'image/svg+xml', body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>') },
    '/slow.png': { type: 'image/png', body: Buffer.alloc(0), status: 429 },
  }
  beforeEach(async () => {
    server = createServer((req, res) => {
      const b = bodies[req.url ?? ''] ?? { type: 'text/plain', body: Buffer.from('no'), status: 404 }
      res.writeHead(b.status ?? 200, { 'content-type': b.type, ...(b.status === 429 ? { 'retry-after': '60' } : {}) })
      res.end(b.body)
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterEach(() => new Promise<void>((r) => server.close(() => r())))

  it.each(['/big.png', '/page.png', '/svg.png'])('%s: no image kept, and the URL is not asked for again this week', async (path) => {
    const base = sites.get('fixture-madara')!
    const site: Site = { ...base, imageHosts: [new URL(origin).host] }
    const series = await withCoverWanted(site, '/madara/manga/odd-cover/', `${origin}${path}`)
    await onePass(site)
    expect(coverRequests.map((r) => r.kind)).toContain('error')
    expect(covers.has(series)).toBe(false)
    expect(covers.image(series)).toBeUndefined()
    expect(covers.note(series, `${origin}${path}`, clock.now())).toBe(false)
  })

  it('a 429 for a cover is a refusal: the Lane backs off', async () => {
    const base = sites.get('fixture-madara')!
    const site: Site = { ...base, imageHosts: [new URL(origin).host] }
    await withCoverWanted(site, '/madara/manga/slow-cover/', `${origin}/slow.png`)
    await onePass(site)
    expect(coverRequests.map((r) => r.kind)).toEqual(['refused'])
    const lane = await store.db.selectFrom('poll_lanes').selectAll().where('site', '=', site.key).executeTakeFirst()
    expect(lane!.refuse_until).toBeGreaterThan(clock.now())
  })
})

describe('sniffImage', () => {
  it('tells images by their bytes, never SVG or HTML', () => {
    expect(sniffImage(coverPng('a'))).toBe('image/png')
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg')
    expect(sniffImage(Buffer.from('GIF89a....'))).toBe('image/gif')
    expect(sniffImage(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('image/webp')
    expect(sniffImage(Buffer.from('\0\0\0\x1cftypavif'))).toBe('image/avif')
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull()
    expect(sniffImage(Buffer.from('<!DOCTYPE html>'))).toBeNull()
  })
})
