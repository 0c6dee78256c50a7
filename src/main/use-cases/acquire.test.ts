import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { fixtureDeps } from '../testing/fixture-deps'
import { pauseLane, recordRefusal, laneRow } from '../store/lanes'
import { requireSeries } from '../store/series'
import { dueSeries } from '../store/due'
import { FakeClock } from '../testing/clock'
import { openTestStore, seedReader, type TestStore } from '../testing/store'
import { bookmarkByUrl, NEW_SERIES_PER_READER_PER_HOUR, type AcquireDeps, type AcquireResult } from './acquire'

let store: TestStore
let fixture: FixtureSite
let deps: AcquireDeps
let alice: number
let bob: number
let stop: AbortController
const clock = new FakeClock()

/** Lets a background acquisition run to its end, moving the fake clock through its turn. */
async function settled(result: AcquireResult) {
  let report: Awaited<AcquireResult['acquired']>
  let done = false
  void result.acquired?.then((r) => {
    report = r
    done = true
  })
  if (result.acquired) await clock.runUntil(() => done)
  return report
}

beforeEach(async () => {
  store = openTestStore()
  fixture = await startFixtureSite({ now: () => clock.now() })
  deps = {
    ...fixtureDeps(store.db, fixture, clock),
    signal: (stop = new AbortController()).signal,
  }
  alice = await seedReader(store.db, 'alice')
  bob = await seedReader(store.db, 'bob')
})
afterEach(async () => {
  await fixture.close()
  await store.dispose()
})

describe('Acquisition', () => {
  it('answers at once, then reads the new Series: its title and Latest Chapter fill in', async () => {
    const path = '/themesia/manga/iron-bloom/'
    const result = await bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}${path}` })
    expect(result).toMatchObject({ created: true, acquisition: { state: 'reading' } })
    expect(result.bookmark).toMatchObject({ site: 'fixture-themesia', series_id: 'iron-bloom', status: 'reading' })
    expect((await settled(result))?.outcome).toBe('chapter')
    expect(await requireSeries(store.db, { site: 'fixture-themesia', seriesId: 'iron-bloom' })).toMatchObject({
      title: 'Iron Bloom',
      latest_chapter: fixture.series(path).latest,
      last_outcome: 'chapter',
    })
  })

  it('is a check like any other: the acquired Series is not due again until its rest has passed', async () => {
    await settled(await bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}/madara/manga/rested/` }))
    const now = clock.now()
    expect(await dueSeries(store.db, 'fixture-madara', { restCutoff: now - 3_600_000, ceilingCutoff: now - 86_400_000 })).toEqual([])
  })

  it("takes its turn in the Site's pace: a burst of new bookmarks is one request per minGapMs", async () => {
    const results = await Promise.all(
      ['a', 'b', 'c', 'd'].map((id) => bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}/madara/manga/burst-${id}/` })),
    )
    let done = 0
    for (const r of results) void r.acquired?.then(() => done++)
    await clock.runUntil(() => done === 4)
    const times = fixture.hits.map((h) => h.at)
    expect(times).toHaveLength(4)
    const gaps = times.slice(1).map((t, i) => t - times[i]!)
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(deps.registry.get('fixture-madara')!.pace.minGapMs)
  })

  it('on a paused Lane the Series waits for its Lane: no request, and the answer says so', async () => {
    await pauseLane(store.db, 'fixture-madara', clock.now() + 3_600_000, clock.now())
    const result = await bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}/madara/manga/paused-site/` })
    expect(result.acquisition).toMatchObject({ state: 'waiting', message: expect.stringMatching(/paused/) })
    expect(result.acquired).toBeUndefined()
    expect(fixture.hits).toEqual([])
    expect(await dueSeries(store.db, 'fixture-madara', { restCutoff: clock.now() - 3_600_000, ceilingCutoff: 0 })).toHaveLength(1)
  })

  it('respects a current refusal: no request, the Series waits for the Lane', async () => {
    await recordRefusal(store.db, 'fixture-madara', clock.now() + 60_000)
    const result = await bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}/madara/manga/later/` })
    expect(result.acquisition).toMatchObject({ state: 'waiting', message: expect.stringMatching(/refusing/) })
    expect(result.bookmark.series.latest_checked_at).toBe(0)
    expect(fixture.hits).toEqual([])
  })

  it('a pause pressed while an acquisition waits for its turn stops it before its request', async () => {
    const first = await bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}/madara/manga/one/` })
    const second = await bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}/madara/manga/two/` })
    await settled(first)
    await pauseLane(store.db, 'fixture-madara', clock.now() + 3_600_000, clock.now())
    expect(await settled(second)).toBeUndefined()
    expect(fixture.hits.map((h) => h.path)).toEqual(['/madara/manga/one/'])
  })

  it(`a Reader's new Series past ${NEW_SERIES_PER_READER_PER_HOUR} an hour wait for the Lane, with a clear answer`, async () => {
    const plans = []
    for (let i = 0; i <= NEW_SERIES_PER_READER_PER_HOUR; i++) {
      const result = await bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}/madara/manga/many-${i}/` })
      plans.push(result.acquisition?.state)
    }
    expect(plans.filter((p) => p === 'reading')).toHaveLength(NEW_SERIES_PER_READER_PER_HOUR)
    expect(plans.at(-1)).toBe('waiting')
    // Another Reader still has a budget of their own.
    expect((await bookmarkByUrl(deps, { readerId: bob, url: `${fixture.origin}/madara/manga/bobs/` })).acquisition?.state).toBe('reading')
    stop.abort()
  })

  it('a stop ends queued acquisitions without a request', async () => {
    const results = await Promise.all(
      ['a', 'b', 'c'].map((id) => bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}/madara/manga/stop-${id}/` })),
    )
    await settled(results[0]!)
    stop.abort()
    expect(await Promise.all(results.slice(1).map((r) => r.acquired))).toEqual([undefined, undefined])
    expect(fixture.hits).toHaveLength(1)
  })

  it('a refusal met while acquiring closes the Lane durably', async () => {
    const result = await bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}/never-clears/manga/grumpy/` })
    expect((await settled(result))?.outcome).toBe('refused')
    expect((await laneRow(store.db, 'fixture-refusing')).refuse_until).toBeGreaterThan(clock.now())
  })

  it('a second Reader bookmarking a known Series makes no request', async () => {
    const url = `${fixture.origin}/madara/manga/shared/`
    await settled(await bookmarkByUrl(deps, { readerId: alice, url }))
    const second = await bookmarkByUrl(deps, { readerId: bob, url, status: 'planned' })
    expect(second).toMatchObject({ created: true, bookmark: { status: 'planned' } })
    expect(second.acquisition).toBeUndefined()
    expect(fixture.hits).toHaveLength(1)
  })

  it('bookmarking twice keeps the first bookmark', async () => {
    const url = `${fixture.origin}/madara/manga/twice/`
    await settled(await bookmarkByUrl(deps, { readerId: alice, url }))
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
    expect((await settled(result))?.outcome).toBe('chapter')
    expect((await requireSeries(store.db, { site: 'fixture-madara', seriesId: 'pasted' })).series_url).toBe(
      `${fixture.origin}/madara/manga/pasted/`,
    )
  })

  it('keeps the stored URL host-pinned: the Series keeps the URL it was added with', async () => {
    const url = `${fixture.origin}/madara/manga/pinned/`
    await settled(await bookmarkByUrl(deps, { readerId: alice, url }))
    expect((await requireSeries(store.db, { site: 'fixture-madara', seriesId: 'pinned' })).series_url).toBe(url)
  })
})
