import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { fixtureSites } from '../demo/fixture-sites'
import { BrowserHealth } from '../fetch/browser-health'
import { createHttpFetcher } from '../fetch/http-fetcher'
import { silentLog } from '../log'
import { createRegistry } from '../sites/registry'
import { pauseLane, recordRefusal, laneRow } from '../store/lanes'
import { requireSeries } from '../store/series'
import { dueSeries } from '../store/due'
import { FakeClock } from '../testing/clock'
import { openTestStore, seedReader, type TestStore } from '../testing/store'
import { bookmarkByUrl, type AcquireDeps } from './acquire'

let store: TestStore
let fixture: FixtureSite
let deps: AcquireDeps
let alice: number
let bob: number
const clock = new FakeClock()

beforeEach(async () => {
  store = openTestStore()
  fixture = await startFixtureSite({ now: () => clock.now() })
  deps = {
    db: store.db,
    registry: createRegistry(fixtureSites(fixture.host)),
    fetchers: { http: createHttpFetcher({ timeoutMs: 2_000 }) },
    health: new BrowserHealth(),
    clock,
    log: silentLog,
  }
  alice = await seedReader(store.db, 'alice')
  bob = await seedReader(store.db, 'bob')
})
afterEach(async () => {
  await fixture.close()
  await store.dispose()
})

describe('Acquisition', () => {
  it('a first bookmark of a new Series reads its title and Latest Chapter at once', async () => {
    const path = '/themesia/manga/iron-bloom/'
    const result = await bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}${path}` })
    expect(result.created).toBe(true)
    expect(result.check?.outcome).toBe('chapter')
    expect(result.bookmark).toMatchObject({
      site: 'fixture-themesia',
      series_id: 'iron-bloom',
      status: 'reading',
      unread: true,
      series: { title: 'Iron Bloom', latest_chapter: fixture.series(path).latest, latest_checked_at: clock.now() },
    })
  })

  it('is a check like any other: the acquired Series is not due again until its rest has passed', async () => {
    await bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}/madara/manga/rested/` })
    const now = clock.now()
    expect(await dueSeries(store.db, 'fixture-madara', { restCutoff: now - 3_600_000, ceilingCutoff: now - 86_400_000 })).toEqual([])
  })

  it("reads the page whatever the Lane's pause", async () => {
    await pauseLane(store.db, 'fixture-madara', clock.now() + 3_600_000, clock.now())
    const result = await bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}/madara/manga/paused-site/` })
    expect(result.check?.outcome).toBe('chapter')
  })

  it('respects a current refusal: no request, the Series waits for the Lane', async () => {
    await recordRefusal(store.db, 'fixture-madara', clock.now() + 60_000)
    const result = await bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}/madara/manga/later/` })
    expect(result.check).toBeUndefined()
    expect(result.bookmark.series.latest_checked_at).toBe(0)
    expect(fixture.hits).toEqual([])
  })

  it('a refusal met while acquiring closes the Lane durably', async () => {
    const result = await bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}/never-clears/manga/grumpy/` })
    expect(result.check?.outcome).toBe('refused')
    expect((await laneRow(store.db, 'fixture-refusing')).refuse_until).toBeGreaterThan(clock.now())
  })

  it('a second Reader bookmarking a known Series makes no request', async () => {
    const url = `${fixture.origin}/madara/manga/shared/`
    await bookmarkByUrl(deps, { readerId: alice, url })
    const second = await bookmarkByUrl(deps, { readerId: bob, url, status: 'planned' })
    expect(second).toMatchObject({ created: true, bookmark: { status: 'planned' } })
    expect(second.check).toBeUndefined()
    expect(fixture.hits).toHaveLength(1)
  })

  it('bookmarking twice keeps the first bookmark', async () => {
    const url = `${fixture.origin}/madara/manga/twice/`
    await bookmarkByUrl(deps, { readerId: alice, url })
    const again = await bookmarkByUrl(deps, { readerId: alice, url, status: 'dropped' })
    expect(again).toMatchObject({ created: false, bookmark: { status: 'reading' } })
  })

  it.each([
    ['a host off every pin', 'https://evil.example/manga/x/'],
    ['a file URL', 'file:///etc/passwd'],
    ['a link-local address', 'http://169.254.169.254/latest/meta-data/'],
    ['not a URL at all', 'not a url'],
  ])('refuses %s, changing nothing', async (_name, url) => {
    await expect(bookmarkByUrl(deps, { readerId: alice, url })).rejects.toMatchObject({ code: 'off-pin' })
    expect(await store.db.selectFrom('series').selectAll().execute()).toEqual([])
    expect(fixture.hits).toEqual([])
  })

  it("a chapter URL pasted instead of the Series' stores the Series page", async () => {
    const result = await bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}/madara/manga/pasted/chapter-3/?style=list` })
    expect(result.check?.outcome).toBe('chapter')
    expect((await requireSeries(store.db, { site: 'fixture-madara', seriesId: 'pasted' })).series_url).toBe(
      `${fixture.origin}/madara/manga/pasted/`,
    )
  })

  it('keeps the stored URL host-pinned: the Series keeps the URL it was added with', async () => {
    const url = `${fixture.origin}/madara/manga/pinned/`
    await bookmarkByUrl(deps, { readerId: alice, url })
    expect((await requireSeries(store.db, { site: 'fixture-madara', seriesId: 'pinned' })).series_url).toBe(url)
  })
})
