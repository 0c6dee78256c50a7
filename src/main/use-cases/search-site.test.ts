/**
 * A title search is a request on the Site's Lane (docs/adr/0145-…): the fixture site's Madara search over real
 * HTTP, a real SQLite store, the shared pacer on a fake clock.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AppError } from '../../shared/errors'
import { SEARCHES_PER_READER_PER_MINUTE, type SearchResponse } from '../../shared/search'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { fixtureSites } from '../demo/fixture-sites'
import { fixtureDeps } from '../testing/fixture-deps'
import { createRegistry } from '../sites/registry'
import type { Site } from '../sites/site'
import { laneRow, pauseLane, recordRefusal } from '../store/lanes'
import { FakeClock } from '../testing/clock'
import { openTestStore, seedReader, type TestStore } from '../testing/store'
import { bookmarkByUrl } from './acquire'
import { searchableSites, searchSite, type SearchDeps } from './search-site'

let store: TestStore
let fixture: FixtureSite
let deps: SearchDeps
let alice: number
let searched: string[]
const clock = new FakeClock()

/** Runs a search to its end, moving the fake clock through any turn it waits for. */
async function run(input: { site: string; query: string; readerId?: number }): Promise<SearchResponse> {
  let outcome: { ok: SearchResponse } | { error: unknown } | undefined
  searchSite(deps, input).then(
    (ok) => (outcome = { ok }),
    (error: unknown) => (outcome = { error }),
  )
  await clock.runUntil(() => outcome !== undefined)
  if ('error' in outcome!) throw outcome.error
  return outcome!.ok
}

const searchHits = () => fixture.hits.filter((h) => h.path.startsWith('/madara/?s='))

beforeEach(async () => {
  store = openTestStore()
  fixture = await startFixtureSite({ now: () => clock.now() })
  searched = []
  deps = {
    ...fixtureDeps(store.db, fixture, clock),
    onSearch: (site) => searched.push(site),
  }
  alice = await seedReader(store.db, 'alice')
})
afterEach(async () => {
  await fixture.close()
  await store.dispose()
})

describe('searching a Site by title', () => {
  it("answers the Site's results: title, Series URL, cover and latest chapter, each followable", async () => {
    const answer = await run({ site: 'fixture-madara', query: 'lantern', readerId: alice })
    expect(answer).toEqual({
      site: 'fixture-madara',
      query: 'lantern',
      results: [
        {
          title: 'Solo Lantern',
          url: `${fixture.origin}/madara/manga/solo-lantern/`,
          seriesId: 'solo-lantern',
          coverUrl: `${fixture.origin}/covers/solo-lantern.png`,
          latest: `Chapter ${fixture.series('/madara/manga/solo-lantern/').latest}`,
          following: false,
        },
      ],
    })
    expect(searchHits().map((h) => h.path)).toEqual(['/madara/?s=lantern&post_type=wp-manga'])
    expect(searched).toEqual(['fixture-madara'])
    // Followed with the bookmark-by-URL path, the next search says so.
    await bookmarkByUrl(deps, { readerId: alice, url: answer.results[0]!.url })
    const again = await run({ site: 'fixture-madara', query: 'Solo', readerId: alice })
    expect(again.results.map((r) => [r.seriesId, r.following])).toEqual([['solo-lantern', true]])
  })

  it("takes its turn with the Lane's requests: a gap after the Site's last request, whoever sent it", async () => {
    const gap = deps.registry.get('fixture-madara')!.pace.minGapMs
    const added = await bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}/madara/manga/first/` })
    await added.acquired
    await run({ site: 'fixture-madara', query: 'tower', readerId: alice })
    await run({ site: 'fixture-madara', query: 'garden', readerId: alice })
    const times = fixture.hits.map((h) => h.at)
    expect(fixture.hits.map((h) => h.path)).toEqual([
      '/madara/manga/first/',
      '/madara/?s=tower&post_type=wp-manga',
      '/madara/?s=garden&post_type=wp-manga',
    ])
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(gap)
    expect(times[2]! - times[1]!).toBeGreaterThanOrEqual(gap)
  })

  it("measures the next turn from when its request went out, after a leased fetcher's wait for a check still in it", async () => {
    const site = deps.registry.get('fixture-madara')!
    const http = deps.fetchers.http!
    let free!: () => void
    const busy = new Promise<void>((resolve) => (free = resolve))
    // The browser's one tab, still held by a Lane's check: the search's request waits for it.
    deps.fetchers.http = { ...http, lease: async (work) => (await busy, work(http)) }
    let done = false
    void searchSite(deps, { site: site.key, query: 'lantern', readerId: alice }).then(() => (done = true))
    await clock.runFor(20_000)
    expect(searchHits()).toEqual([])
    free()
    await clock.runUntil(() => done)
    expect(searchHits()).toHaveLength(1)
    // Whoever asks next waits a whole gap from the request, not from the turn granted 20 s before it.
    expect(deps.pacer.waitFor(site.key, 60_000)).toBeGreaterThan(60_000 - 1_000)
  })

  it('sends nothing while the Lane is paused or refusing, and says so', async () => {
    await pauseLane(store.db, 'fixture-madara', clock.now() + 60_000, clock.now())
    await expect(run({ site: 'fixture-madara', query: 'lantern' })).rejects.toThrow(/Fixture Scans \(Madara\) is paused/)
    await recordRefusal(store.db, 'fixture-themesia', clock.now() + 60_000)
    await expect(run({ site: 'fixture-themesia', query: 'lantern' })).rejects.toThrow(/refused requests lately/)
    expect(fixture.hits).toEqual([])
  })

  it("a refusal it meets closes the Lane as a check's would", async () => {
    const site = deps.registry.get('fixture-refusing')!
    // The always-refusing Site, searched at a path it refuses like every other.
    deps.registry = createRegistry([
      ...fixtureSites(fixture.host).filter((s) => s.key !== site.key),
      { ...site, searchBase: `${fixture.origin}/never-clears/manga/x/` },
    ])
    await expect(run({ site: 'fixture-refusing', query: 'lantern' })).rejects.toThrow(/refused the search/)
    expect((await laneRow(store.db, 'fixture-refusing')).refuse_until).toBeGreaterThan(clock.now())
  })

  it(`bounds a Reader to ${SEARCHES_PER_READER_PER_MINUTE} searches a minute, in words, with no request past it`, async () => {
    for (let i = 0; i < SEARCHES_PER_READER_PER_MINUTE; i++) await run({ site: 'fixture-madara', query: `q${i}`, readerId: alice })
    const error = await run({ site: 'fixture-madara', query: 'one more', readerId: alice }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AppError)
    expect(error).toMatchObject({
      code: 'rate-limited',
      message: expect.stringMatching(/searched 6 times in the last minute.*search again in \d+ s/),
    })
    expect(searchHits()).toHaveLength(SEARCHES_PER_READER_PER_MINUTE)
    // Another Reader, and the owner, are not bounded by Alice's minute; after the minute Alice may again.
    await run({ site: 'fixture-madara', query: 'bob', readerId: await seedReader(store.db, 'bob') })
    await run({ site: 'fixture-madara', query: 'owner' })
    await clock.advance(60_000)
    await run({ site: 'fixture-madara', query: 'later', readerId: alice })
  })

  it('a Site whose family cannot search says so, and sends nothing', async () => {
    await expect(run({ site: 'fixture-mangadex', query: 'lantern' })).rejects.toThrow(/Fixture Dex cannot be searched by title here/)
    expect(searchableSites(deps.registry.sites).find((s) => s.key === 'fixture-mangadex')).toMatchObject({
      search: false,
      why: expect.stringMatching(/paste its URL/),
    })
    expect(searchableSites(deps.registry.sites).find((s) => s.key === 'fixture-madara')).toEqual({
      key: 'fixture-madara',
      name: 'Fixture Scans (Madara)',
      search: true,
    })
    expect(fixture.hits).toEqual([])
  })

  it("keeps only the Site's own Series: off the pin, or not a Series URL, is left out; each Series once", async () => {
    const madara = deps.registry.get('fixture-madara')!
    const liar: Site = {
      ...madara,
      adapter: {
        ...madara.adapter,
        search: {
          request: ({ base }) => ({ url: `${base.href}?s=x&post_type=wp-manga`, method: 'GET' }),
          read: () => [
            { title: 'Off pin', url: 'https://evil.example/madara/manga/off/' },
            { title: 'Not a Series', url: `${fixture.origin}/about/` },
            { title: 'Twice \u202Eevil', url: `${fixture.origin}/madara/manga/twice/`, coverUrl: 'javascript:alert(1)' },
            { title: 'Twice again', url: `${fixture.origin}/madara/manga/twice/?ref=2`, coverUrl: '/c.png' },
          ],
        },
      },
    }
    deps.registry = createRegistry([liar])
    const answer = await run({ site: 'fixture-madara', query: 'x' })
    expect(answer.results).toEqual([
      {
        title: 'Twice evil',
        url: `${fixture.origin}/madara/manga/twice/`,
        seriesId: 'twice',
        coverUrl: `${fixture.origin}/c.png`,
        following: false,
      },
    ])
  })
})
