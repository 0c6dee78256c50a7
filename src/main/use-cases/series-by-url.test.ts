/**
 * A moved Series is one Series (docs/adr/0233-a-moved-series-is-one-series.md): once the owner accepts that a gone
 * Series was found again at another URL, a follow, an add, an import, a Sighting or a search result naming its new
 * URL or its old one is that Series — never a second. Real SQLite file, the fixture site over real HTTP (its Series
 * vanishes and lives on at `<slug>-2`).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { checkSeries } from '../lanes/check'
import { readLibrary } from '../library/read'
import { silentLog } from '../log'
import { fixtureDeps } from '../testing/fixture-deps'
import { getBookmark, updateBookmark } from '../store/bookmarks'
import { addSeries, requireSeries } from '../store/series'
import { aliasesOf } from '../store/series-aliases'
import { recordFoundAgain } from '../store/search'
import { FakeClock } from '../testing/clock'
import { openTestStore, seedReader, type TestStore } from '../testing/store'
import { bookmarkByUrl } from './acquire'
import { acceptFoundAgain, findAgainAfterCheck } from './found-again'
import { applyPlan, planLibrary } from './library-import'
import { searchSite, type SearchDeps } from './search-site'
import { moveSeriesUrl, seriesOfUrl } from './series-by-url'

let store: TestStore
let fixture: FixtureSite
let deps: SearchDeps
let alice: number
let bob: number
const clock = new FakeClock()
const key = { site: 'fixture-madara', seriesId: 'solo-lantern' }
const path = '/madara/manga/solo-lantern/'
let oldUrl: string
let newUrl: string

async function settle<T>(work: Promise<T>): Promise<T> {
  let done: { value: T } | undefined
  void work.then((value) => (done = { value }))
  await clock.runUntil(() => done !== undefined)
  return done!.value
}

/** The Site moves the Series; the Lane finds it gone three times, searches, and the owner accepts the move. */
async function moveAndAccept(): Promise<void> {
  newUrl = `${fixture.origin}${fixture.vanish(path)}`
  for (let i = 0; i < 3; i++) {
    await clock.advance(3_600_000)
    const series = await requireSeries(store.db, key)
    const report = await checkSeries({ db: store.db, clock, log: silentLog }, deps.registry.get(key.site)!, deps.fetchers.http, {
      site: key.site,
      series_id: key.seriesId,
      series_url: series.series_url,
    })
    await settle(findAgainAfterCheck(deps, key, report))
  }
  await acceptFoundAgain(deps, key)
  expect((await requireSeries(store.db, key)).series_url).toBe(newUrl)
}

const seriesCount = async () => (await store.db.selectFrom('series').select('series_id').execute()).map((r) => r.series_id)

beforeEach(async () => {
  store = openTestStore()
  fixture = await startFixtureSite({ now: () => clock.now() })
  deps = fixtureDeps(store.db, fixture, clock)
  alice = await seedReader(store.db, 'alice')
  bob = await seedReader(store.db, 'bob')
  oldUrl = `${fixture.origin}${path}`
  await settle(bookmarkByUrl(deps, { readerId: alice, url: oldUrl }).then((r) => r.acquired))
  await updateBookmark(store.db, alice, key, { progress: 5 }, clock.now())
})
afterEach(async () => {
  await fixture.close()
  await store.dispose()
})

describe('a Series the Site moved and the owner moved after it', () => {
  it('is the one Series a follow of its new URL or its old one lands on', async () => {
    await moveAndAccept()
    expect(await aliasesOf(store.db, key)).toEqual(['solo-lantern-2'])
    const byNew = await bookmarkByUrl(deps, { readerId: bob, url: newUrl })
    expect(byNew).toMatchObject({ created: true, bookmark: { site: key.site, series_id: key.seriesId } })
    expect(byNew.acquisition).toBeUndefined() // a Series the app knows: no read of a new one
    const again = await bookmarkByUrl(deps, { readerId: alice, url: newUrl })
    expect(again).toMatchObject({ created: false, bookmark: { series_id: key.seriesId, progress: 5 } })
    expect(await bookmarkByUrl(deps, { readerId: bob, url: oldUrl })).toMatchObject({
      created: false,
      bookmark: { series_id: key.seriesId },
    })
    // A chapter URL at the new place is the Series too.
    expect((await seriesOfUrl(store.db, deps.registry, `${newUrl}chapter-3/`))?.key).toEqual(key)
    expect(await seriesCount()).toEqual(['solo-lantern'])
    expect((await requireSeries(store.db, key)).series_url).toBe(newUrl)
  })

  it('is the one Series an import naming its new and its old URL lands on: one bookmark, the later Progress', async () => {
    await moveAndAccept()
    const parsed = await readLibrary(Buffer.from(`${newUrl}\n${oldUrl}\n`), 'list.txt')
    const plan = await planLibrary({ db: store.db, registry: deps.registry, clock }, parsed, { id: bob, name: 'bob' })
    expect(plan.series).toEqual([expect.objectContaining({ ...key })])
    expect(plan.bookmarks).toEqual([expect.objectContaining({ reader: 'bob', ...key })])
    const result = await applyPlan({ db: store.db, registry: deps.registry, clock }, plan)
    expect(result).toMatchObject({ seriesAdded: 0, bookmarksAdded: 1 })
    expect(await getBookmark(store.db, bob, key)).toBeDefined()
    expect(await seriesCount()).toEqual(['solo-lantern'])
  })

  it('is the Series a search result at its new URL is, followed', async () => {
    await moveAndAccept()
    const answer = await settle(searchSite(deps, { site: key.site, query: 'Solo Lantern', readerId: alice }))
    expect(answer.results.find((r) => r.url === newUrl)).toMatchObject({ following: true })
  })

  it('moved twice, each of its URLs names it', async () => {
    await moveAndAccept()
    const site = deps.registry.get(key.site)!
    const third = `${fixture.origin}/madara/manga/solo-lantern-3/`
    await moveSeriesUrl(store.db, site, key, { url: third, found: true, now: clock.now() })
    for (const url of [oldUrl, newUrl, third]) expect((await seriesOfUrl(store.db, deps.registry, url))?.key).toEqual(key)
  })
})

describe("the owner's own edit of a Series' URL", () => {
  it('names the Series by the new URL; an edit that corrects it takes the replaced URL back', async () => {
    const site = deps.registry.get(key.site)!
    const wrong = `${fixture.origin}/madara/manga/tower-climber/`
    const right = `${fixture.origin}/madara/manga/solo-lantern-moved/`
    await moveSeriesUrl(store.db, site, key, { url: wrong, found: false, now: clock.now() })
    expect((await seriesOfUrl(store.db, deps.registry, wrong))?.key).toEqual(key)
    await moveSeriesUrl(store.db, site, key, { url: right, found: false, now: clock.now() })
    expect(await aliasesOf(store.db, key)).toEqual(['solo-lantern-moved'])
    // The URL it was wrongly given is its own Series again; the key's URL still names this one.
    expect((await seriesOfUrl(store.db, deps.registry, wrong))?.key).toEqual({ site: key.site, seriesId: 'tower-climber' })
    expect((await seriesOfUrl(store.db, deps.registry, oldUrl))?.key).toEqual(key)
  })

  it('refuses a URL off the Site’s host pin, changing nothing', async () => {
    const site = deps.registry.get(key.site)!
    await expect(moveSeriesUrl(store.db, site, key, { url: 'https://elsewhere.example/manga/x/', found: false, now: 1 })).rejects.toThrow(
      /host pin/,
    )
    expect(await aliasesOf(store.db, key)).toEqual([])
    expect((await requireSeries(store.db, key)).series_url).toBe(oldUrl)
  })
})

describe('a move accepted before the aliases were kept', () => {
  it('is learned from the found-again record: its new URL names it', async () => {
    // As an earlier version left a store: the URL moved, a series_found row, no alias; then the app starts again.
    const earlier = openTestStore()
    try {
      const moved = `${fixture.origin}/madara/manga/solo-lantern-2/`
      await addSeries(earlier.db, { ...key, seriesUrl: moved, now: 1 })
      await recordFoundAgain(earlier.db, key, 1, null)
      expect(await aliasesOf(earlier.db, key)).toEqual([])
      expect((await seriesOfUrl(earlier.db, deps.registry, moved))?.key).toEqual(key)
      expect(await aliasesOf(earlier.db, key)).toEqual(['solo-lantern-2'])
    } finally {
      await earlier.dispose()
    }
  })
})
