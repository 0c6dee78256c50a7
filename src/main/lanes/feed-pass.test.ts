/**
 * An adaptive Site's updates page on its Lane (docs/adr/0165-site-feeds.md): read on the Lane's turn, it plans
 * a Sighting from the Site now (judged by the check, never written as a Latest Chapter), a Series it shows
 * unchanged or covers later, keeps every Series within its safety ceiling, and falls back to the cadence when it
 * stops parsing. A real SQLite file, the Madara family's updates page, a fake clock and fetcher.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FetchResult } from '../fetch/fetcher'
import { silentLog } from '../log'
import { madaraFeed } from '../sites/feeds'
import type { PageRequest, Site } from '../sites/site'
import { pauseLane } from '../store/lanes'
import { requireSeries } from '../store/series'
import { FakeClock } from '../testing/clock'
import { FakeFetcher, chapterPage, testSite } from '../testing/fakes'
import { passOnClock } from '../testing/pass'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { FeedWatch, feedWords, holdCovered, readFeed, safetyCeilingMs } from './feed'
import { WallWatch, type PassResult } from './pass'

const MIN = 60_000
const HOUR = 60 * MIN

let store: TestStore
let clock: FakeClock
let http: FakeFetcher
let alice: number
let watch: FeedWatch
/** What the updates page lists now, newest first: [series id, chapter label]. */
let lines: Array<[string, string]>
/** The chapter each Series' own page shows. */
let pages: Record<string, number>
let feedBody: (() => string) | null
/** The Site's clock, as the updates page's `Date` tells it (null: the page sends none). */
let siteDate: (() => number) | null

const site: Site = testSite('a', {
  pace: { cadence: 'adaptive', maxPassMs: 24 * HOUR },
  adapter: { ...testSite('a').adapter, latest: madaraFeed },
})

const updatesPage = (): string =>
  `<html><body>${lines
    .map(
      ([id, label]) =>
        `<div class="page-item-detail"><div class="post-title"><h3><a href="https://a.example/manga/${id}">${id}</a></h3></div>` +
        `<div class="chapter-item"><span class="chapter"><a href="#">${label}</a></span></div></div>`,
    )
    .join('')}</body></html>`

function respond(request: PageRequest): FetchResult {
  if (request.url.endsWith('?m_orderby=latest'))
    return {
      kind: 'page',
      page: {
        url: request.url,
        status: 200,
        contentType: 'text/html',
        body: feedBody ? feedBody() : updatesPage(),
        ...(siteDate ? { date: siteDate() } : {}),
      },
    }
  const id = request.url.split('/').at(-1)!
  return chapterPage(pages[id] ?? 1)
}

beforeEach(async () => {
  store = openTestStore()
  clock = new FakeClock()
  http = new FakeFetcher('http', clock, respond)
  alice = await seedReader(store.db, 'alice')
  watch = new FeedWatch(site.pace)
  lines = []
  pages = {}
  feedBody = null
  siteDate = null
})
afterEach(() => store.dispose())

/** A Series with Latest Chapter `latest`, checked at `checkedAt`, planned at `plannedAt`. */
async function seed(id: string, latest: number, checkedAt: number, plannedAt: number): Promise<void> {
  await seedSeries(store.db, { id, latest, checkedAt, readers: [alice] })
  await store.db
    .updateTable('series')
    .set({ next_check_at: plannedAt, last_outcome: 'chapter', last_outcome_at: checkedAt })
    .where('series_id', '=', id)
    .execute()
  pages[id] = latest
}
const series = (id: string) => requireSeries(store.db, { site: 'a', seriesId: id })

/** The page read alone, as the pass does before its checks. */
async function readOnly(): Promise<string> {
  const read = await readFeed({ db: store.db, site, fetcher: http, log: silentLog, watch, now: () => clock.now() })
  return read.outcome
}

async function pass(): Promise<PassResult & { requested: string[] }> {
  const before = http.calls.length
  const result = await passOnClock({ db: store.db, site, clock, fetchers: { http }, feed: watch })
  return { ...result, requested: http.calls.slice(before).map((c) => c.url.split('/').at(-1)!) }
}

describe('a Sighting from the Site', () => {
  it('a chapter above the Latest Chapter plans a check in this pass; the check writes what the page shows', async () => {
    await seed('x', 5, clock.now() - 10 * MIN, clock.now() + 5 * HOUR)
    lines = [['x', 'Chapter 6']]
    pages.x = 6
    const result = await pass()
    expect(result.requested).toEqual(['?m_orderby=latest', 'x'])
    expect(await series('x')).toMatchObject({ latest_chapter: 6, latest_source: 'check' })
  })

  it('is never written as a Latest Chapter: a page that lies is judged by the check', async () => {
    await seed('x', 5, clock.now() - 10 * MIN, clock.now() + 5 * HOUR)
    lines = [['x', 'Chapter 9']]
    const result = await pass()
    expect(result.requested).toEqual(['?m_orderby=latest', 'x'])
    expect(await series('x')).toMatchObject({ latest_chapter: 5 })
  })
})

describe('no check needed', () => {
  it('a Series shown unchanged is not checked when its plan comes; its plan moves after the next read', async () => {
    const t0 = clock.now()
    await seed('y', 5, t0 - 20 * MIN, t0)
    lines = [['y', 'Chapter 5']]
    const result = await pass()
    expect(result.requested).toEqual(['?m_orderby=latest'])
    const planned = (await series('y')).next_check_at
    expect(planned).toBeGreaterThan(watch.status.nextReadAt)
    expect(planned).toBeLessThanOrEqual(t0 - 20 * MIN + safetyCeilingMs(site.pace))
  })

  it('a Series not shown is covered once a later read still shows the previous newest line; not before', async () => {
    const t0 = clock.now()
    lines = [['other', 'Chapter 3']]
    await seed('quiet', 5, t0 - 2 * HOUR, t0 + 10 * MIN)
    await pass()
    // The first read covers only Series checked from then on: quiet was checked before it.
    expect((await series('quiet')).next_check_at).toBe(t0 + 10 * MIN)
    // Its plan comes before the page's next read: the cadence checks it.
    expect(watch.status.nextReadAt).toBeGreaterThan(t0 + 10 * MIN)
    await clock.advance(10 * MIN)
    expect((await pass()).requested).toEqual(['quiet'])
    const checkedAt = (await series('quiet')).latest_checked_at
    // A line moved on top; the previous newest line is still there: the page covers quiet now.
    lines = [['another', 'Chapter 1'], ...lines]
    await clock.advance(watch.status.nextReadAt - clock.now())
    expect((await pass()).requested).toEqual(['?m_orderby=latest'])
    expect(watch.status.coveredSince).toBeLessThanOrEqual(checkedAt)
    expect((await series('quiet')).next_check_at).toBeGreaterThan(watch.status.nextReadAt)
  })
})

describe('the safety ceiling', () => {
  it('a Series the page never shows is still checked within its ceiling, however long the page keeps covering it', async () => {
    const t0 = clock.now()
    const ceiling = safetyCeilingMs(site.pace)
    lines = [['busy', 'Chapter 1']]
    await seed('hidden', 5, t0 - 5 * MIN, t0 + 30 * MIN)
    const checks: number[] = [t0 - 5 * MIN]
    let n = 1
    while (clock.now() < t0 + 3 * 86_400_000) {
      // The page moves now and then, always keeping the previous newest line: it covers `hidden` throughout.
      if (++n % 3 === 0) lines = [[`busy${n}`, 'Chapter 1'] as [string, string], ...lines].slice(0, 20)
      const result = await pass()
      if (result.requested.includes('hidden')) checks.push(clock.now())
      await clock.advance(15 * MIN)
    }
    const gaps = checks.slice(1).map((at, i) => at - checks[i]!)
    expect(Math.max(...gaps, clock.now() - checks.at(-1)!)).toBeLessThanOrEqual(ceiling + 30 * MIN)
    // And the page saves checks: far fewer than one a rest.
    expect(checks.length).toBeGreaterThanOrEqual(3)
    expect(checks.length).toBeLessThan((3 * 24 * HOUR) / site.pace.restMs / 3)
  })
})

describe('a Series whose last check failed', () => {
  it('is not put off by the page: its cadence tries it again, so a failed check never doubles the ceiling', async () => {
    const t0 = clock.now()
    await seed('failed', 5, t0 - 20 * MIN, t0 + 40 * MIN)
    await store.db.updateTable('series').set({ last_outcome: 'error', last_error: 'HTTP 503' }).where('series_id', '=', 'failed').execute()
    await seed('fine', 5, t0 - 20 * MIN, t0 + 40 * MIN)
    lines = [
      ['failed', 'Chapter 5'],
      ['fine', 'Chapter 5'],
    ]
    expect((await pass()).requested).toEqual(['?m_orderby=latest'])
    expect((await series('failed')).next_check_at).toBe(t0 + 40 * MIN)
    expect((await series('fine')).next_check_at).toBeGreaterThan(t0 + 40 * MIN)
  })
})

describe('a page that stops parsing', () => {
  it('leaves the plans to the cadence and says so on the Lane', async () => {
    const t0 = clock.now()
    await seed('y', 5, t0 - 20 * MIN, t0)
    lines = [['y', 'Chapter 5']]
    feedBody = () => '<html><body><p>Maintenance</p></body></html>'
    const result = await pass()
    expect(result.requested).toEqual(['?m_orderby=latest', 'y'])
    expect(watch.status.state).toBe('broken')
    expect(feedWords(watch.status)).toMatch(/^updates page not read \(.+\): each Series keeps its own cadence$/)
    // Tried again after a rest, not at every pass.
    await clock.advance(10 * MIN)
    expect((await pass()).requested).not.toContain('?m_orderby=latest')
  })
})

describe('the Lane gates the page as any request', () => {
  it('a paused Lane does not read it', async () => {
    await seed('x', 5, clock.now() - 10 * MIN, clock.now() + 5 * HOUR)
    await pauseLane(store.db, 'a', clock.now() + HOUR, clock.now())
    const result = await pass()
    expect(result.requested).toEqual([])
    expect(result.row?.skip).toBe('paused')
  })

  it('the page and the check it plans are a gap apart', async () => {
    await seed('x', 5, clock.now() - 10 * MIN, clock.now() + 5 * HOUR)
    lines = [['x', 'Chapter 6']]
    await pass()
    const [feed, check] = http.calls
    expect(check!.at - feed!.at).toBeGreaterThanOrEqual(site.pace.minGapMs)
  })

  it('a fixed Site never reads it', async () => {
    await seed('x', 5, clock.now() - 2 * HOUR, 0)
    const fixed = { ...site, pace: { ...site.pace, cadence: 'fixed' as const } }
    await passOnClock({ db: store.db, site: fixed, clock, fetchers: { http }, feed: watch })
    expect(http.calls.map((c) => c.url.split('/').at(-1))).toEqual(['x'])
  })
})

describe('a wall clock set back', () => {
  it('moves the page with it: read when planned, the Series it showed unchanged still need no check', async () => {
    const t0 = clock.now()
    const wallWatch = new WallWatch()
    const run = async () => {
      const before = http.calls.length
      await passOnClock({ db: store.db, site, clock, fetchers: { http }, feed: watch, wallWatch })
      return http.calls.slice(before).map((c) => c.url.split('/').at(-1)!)
    }
    await seed('y', 5, t0 - 20 * MIN, t0)
    lines = [['y', 'Chapter 5']]
    expect(await run()).toEqual(['?m_orderby=latest'])
    const wait = watch.status.nextReadAt - clock.now()
    clock.stepWall(-5 * HOUR)
    await clock.advance(wait)
    // Without following the step the page would wait five more hours.
    expect(await run()).toEqual(['?m_orderby=latest'])
    expect((await series('y')).next_check_at).toBeGreaterThan(clock.now())
  })
})

describe('a wall clock set forward (ADR 0238)', () => {
  /** y, checked 20 hours ago and shown unchanged, then the wall clock set six hours forward: what the next pass asks. */
  async function setForward(): Promise<{ t0: number; requested: string[] }> {
    const t0 = clock.now()
    lines = [['y', 'Chapter 5']]
    await seed('y', 5, t0 - 20 * HOUR, t0 + 10 * MIN)
    expect((await pass()).requested).toEqual(['?m_orderby=latest'])
    clock.stepWall(6 * HOUR)
    await clock.advance(MIN)
    return { t0, requested: (await pass()).requested }
  }

  it("told by the Site's clock: the stamps move with the wall, and the ceiling is kept on the time that truly passed", async () => {
    siteDate = () => clock.monotonic()
    const { t0, requested } = await setForward()
    expect(requested).toEqual(['?m_orderby=latest'])
    expect((await series('y')).latest_checked_at).toBe(t0 - 14 * HOUR)
    // Checked by its ceiling: 24 hours after its last check on the Site's clock, not later.
    let checkedAt = 0
    while (!checkedAt && clock.monotonic() < t0 + 6 * HOUR) {
      await clock.advance(15 * MIN)
      if ((await pass()).requested.includes('y')) checkedAt = clock.monotonic()
    }
    expect(checkedAt).toBeGreaterThan(t0 + 3 * HOUR)
    expect(checkedAt).toBeLessThanOrEqual(t0 + 4 * HOUR + 30 * MIN)
  })

  it("without the Site's clock a step is no different from a machine that slept: the ceiling comes by the wall", async () => {
    const { requested } = await setForward()
    expect(requested).toEqual(['?m_orderby=latest', 'y'])
  })
})

describe('between reads', () => {
  it('a Series checked since the coverage began, planned before the next read, is moved past it; not one checked before', async () => {
    const t0 = clock.now()
    lines = [['other', 'Chapter 3']]
    // w's last check came before the coverage began; z, checked after it, had its cadence plan it soon.
    await seed('w', 5, t0 - HOUR, t0 + 10 * MIN)
    expect((await pass()).requested).toEqual(['?m_orderby=latest'])
    expect(watch.status.coveredSince).toBe(t0)
    await seed('z', 5, t0 + MIN, t0 + 10 * MIN)
    await clock.advance(10 * MIN)
    const result = await pass()
    expect(result.requested).toEqual(['w'])
    const z = await series('z')
    expect(z.next_check_at).toBe(watch.status.nextReadAt + watch.status.intervalMs)
    expect(z.next_check_at).toBeLessThanOrEqual(t0 + MIN + safetyCeilingMs(site.pace))
  })

  it('a Sighting the read planned is not held, however long it waits for its check', async () => {
    const t0 = clock.now()
    await seed('other', 3, t0 - 10 * MIN, t0 + 5 * HOUR)
    lines = [['other', 'Chapter 3']]
    expect(await readOnly()).toBe('read')
    // s was checked after the coverage began; the next read shows it moved and plans it now.
    await seed('s', 5, t0 + MIN, t0 + 5 * HOUR)
    await clock.advance(watch.status.nextReadAt - clock.now())
    lines = [
      ['s', 'Chapter 6'],
      ['other', 'Chapter 3'],
    ]
    expect(await readOnly()).toBe('read')
    const sighted = clock.now()
    expect((await series('s')).next_check_at).toBe(sighted)
    // Its check has not come yet (a backlog on a crowded Lane): the hold leaves it due.
    await clock.advance(MIN)
    await holdCovered(store.db, site, watch, clock.now())
    expect((await series('s')).next_check_at).toBe(sighted)
  })
})
