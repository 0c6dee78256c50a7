/**
 * Found again (docs/adr/0147-…): a Series whose page is gone is searched by its title on its own Site; a single
 * confident match is a proposal, never a move; accepting moves the URL keeping the key, progress and history.
 * The fixture site's Series vanishes (its page 404s, the Series lives on at `<slug>-2`), real HTTP, real SQLite.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SearchResultView } from '../../shared/search'
import { startFixtureSite, type FixtureSite } from '../demo/fixture-site'
import { checkSeries, type CheckReport } from '../lanes/check'
import { silentLog } from '../log'
import { fixtureDeps } from '../testing/fixture-deps'
import { getBookmark, updateBookmark } from '../store/bookmarks'
import { pendingFoundAgain } from '../store/search'
import { requireSeries } from '../store/series'
import { FakeClock } from '../testing/clock'
import { openTestStore, seedReader, type TestStore } from '../testing/store'
import { bookmarkByUrl } from './acquire'
import { acceptFoundAgain, confidentMatch, dismissFoundAgain, findAgainAfterCheck } from './found-again'
import type { SearchDeps } from './search-site'

let store: TestStore
let fixture: FixtureSite
let deps: SearchDeps
let alice: number
const clock = new FakeClock()
const key = { site: 'fixture-madara', seriesId: 'solo-lantern' }
const path = '/madara/manga/solo-lantern/'

async function settle<T>(work: Promise<T>): Promise<T> {
  let done: { value: T } | undefined
  void work.then((value) => (done = { value }))
  await clock.runUntil(() => done !== undefined)
  return done!.value
}

/** One check of the Series as the Lane makes it, then what the Lane does after it: look for it again when gone. */
async function laneCheck(): Promise<CheckReport> {
  await clock.advance(3_600_000)
  const series = await requireSeries(store.db, key)
  const site = deps.registry.get(key.site)!
  const report = await checkSeries({ db: store.db, clock, log: silentLog }, site, deps.fetchers.http, {
    site: key.site,
    series_id: key.seriesId,
    series_url: series.series_url,
  })
  await settle(findAgainAfterCheck(deps, key, report))
  return report
}

const searches = () => fixture.hits.filter((h) => h.path.startsWith('/madara/?s=')).map((h) => h.path)

beforeEach(async () => {
  store = openTestStore()
  fixture = await startFixtureSite({ now: () => clock.now() })
  deps = fixtureDeps(store.db, fixture, clock)
  alice = await seedReader(store.db, 'alice')
  const added = await bookmarkByUrl(deps, { readerId: alice, url: `${fixture.origin}${path}` })
  await settle(added.acquired!)
  await updateBookmark(store.db, alice, key, { progress: 5 }, clock.now())
})
afterEach(async () => {
  await fixture.close()
  await store.dispose()
})

describe('a gone Series found again', () => {
  it('is searched by its title once its page is gone, offered to the owner, and moved only when accepted', async () => {
    const moved = fixture.vanish(path)
    expect((await laneCheck()).gone).toBe(404)
    expect((await laneCheck()).gone).toBe(404)
    expect(searches()).toEqual([]) // Two 404s are not "gone" yet.
    await laneCheck()
    expect(searches()).toEqual(['/madara/?s=Solo+Lantern&post_type=wp-manga'])
    expect(await pendingFoundAgain(store.db)).toEqual([
      {
        ...key,
        title: 'Solo Lantern',
        fromUrl: `${fixture.origin}${path}`,
        toUrl: `${fixture.origin}${moved}`,
        toTitle: 'Solo Lantern',
        foundAt: expect.any(Number),
      },
    ])
    // Never moved by itself; one search per gone run.
    await laneCheck()
    expect(searches()).toHaveLength(1)
    expect((await requireSeries(store.db, key)).series_url).toBe(`${fixture.origin}${path}`)

    await acceptFoundAgain(deps, key)
    expect(await pendingFoundAgain(store.db)).toEqual([])
    expect((await requireSeries(store.db, key)).series_url).toBe(`${fixture.origin}${moved}`)
    // The same Series (key), the Reader's bookmark and Progress kept; the next check reads it at its new place.
    expect(await getBookmark(store.db, alice, key)).toMatchObject({ progress: 5 })
    const report = await laneCheck()
    expect(report.outcome).toBe('chapter')
    expect(await requireSeries(store.db, key)).toMatchObject({ gone_checks: 0, title: 'Solo Lantern' })
  })

  it('a dismissed place is not offered again', async () => {
    fixture.vanish(path)
    for (let i = 0; i < 3; i++) await laneCheck()
    await dismissFoundAgain(deps, key)
    expect(await pendingFoundAgain(store.db)).toEqual([])
    await expect(acceptFoundAgain(deps, key)).rejects.toThrow(/no place it was found again/)
  })

  it('offers nothing when the search finds no single match of the same title', async () => {
    // Two Series of the same title elsewhere: not confident.
    fixture.series('/madara/manga/solo-lantern-remake/').title = 'Solo Lantern'
    fixture.series('/madara/manga/solo-lantern-again/').title = 'Solo Lantern'
    fixture.vanish(path)
    // The vanished one's own new place makes three; none is offered.
    for (let i = 0; i < 3; i++) await laneCheck()
    expect(searches()).toHaveLength(1)
    expect(await pendingFoundAgain(store.db)).toEqual([])
  })
})

describe('a confident match', () => {
  const result = (title: string, url: string): SearchResultView => ({ title, url, seriesId: url, following: false })
  it('is the one other URL whose title is the same once normalised', () => {
    const found = [
      result('Solo Lantern!', 'https://s/x-2/'),
      result('Solo Lantern Side Story', 'https://s/y/'),
      result('SOLO LANTERN', 'https://s/x/'),
    ]
    expect(confidentMatch('Solo  lantern', 'https://s/x/', found)?.url).toBe('https://s/x-2/')
    expect(confidentMatch('Sólo Lantern', 'https://s/x/', found)?.url).toBe('https://s/x-2/')
  })
  it('is none when two match, or none does, or the Series has no title', () => {
    expect(confidentMatch('A', 'https://s/0/', [result('A', 'https://s/1/'), result('a', 'https://s/2/')])).toBeNull()
    expect(confidentMatch('A', 'https://s/0/', [result('B', 'https://s/1/')])).toBeNull()
    expect(confidentMatch('', 'https://s/0/', [result('', 'https://s/1/')])).toBeNull()
  })
})
