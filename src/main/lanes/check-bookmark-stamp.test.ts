/**
 * Who hears of a check's New Chapter, by when their bookmark was made (docs/adr/0074-…): judged against the check
 * BEFORE this one (the stamp the due query read), never against this check's own stamp taken before its fetch. A
 * bookmark made while the fetch runs is one made after the check before: its Reader hears nothing of this one, as
 * a Reader who bookmarked a minute before the fetch does — the page they bookmarked from already showed the chapter.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { FetchResult } from '../fetch/fetcher'
import { silentLog } from '../log'
import { DEFAULT_RULES, tells } from '../notify/digest'
import { holdersWithUnreadOf } from '../notify/unread'
import { addBookmark } from '../store/bookmarks'
import { pendingChapters } from '../store/notify'
import { FakeClock } from '../testing/clock'
import { FakeFetcher, testSite } from '../testing/fakes'
import { openTestStore, seedReader, seedSeries, type TestStore } from '../testing/store'
import { checkSeries } from './check'

const SERIES_URL = 'https://a.example/manga/s'
const key = { site: 'a', seriesId: 's' }
const HOUR = 3_600_000

let store: TestStore
let clock: FakeClock
beforeEach(() => {
  store = openTestStore()
  clock = new FakeClock()
})
afterEach(() => store.dispose())

/** A Site serving chapter 11 whose fetch lasts `fetchMs`, running `during` halfway through it. */
function slowSite(fetchMs: number, during: () => Promise<void>) {
  return new FakeFetcher('http', clock, async (): Promise<FetchResult> => {
    await clock.advance(fetchMs / 2)
    await during()
    await clock.advance(fetchMs / 2)
    return { kind: 'page', page: { url: SERIES_URL, status: 200, contentType: 'text/plain', body: '11' } }
  })
}

describe('a bookmark made during a check', () => {
  it('is judged against the check before, as any bookmark since it: its Reader is not told; one from before is', async () => {
    const alice = await seedReader(store.db, 'alice')
    const bob = await seedReader(store.db, 'bob')
    const carol = await seedReader(store.db, 'carol')
    const before = clock.now() - 2 * HOUR
    await seedSeries(store.db, { id: 's', url: SERIES_URL, latest: 10, checkedAt: before, readers: [alice] })
    // Bob between the two checks, Carol while this check's request is out.
    await addBookmark(store.db, { ...key, readerId: bob, now: clock.now() - HOUR })
    const stampedAt = clock.now()
    const http = slowSite(20_000, () => addBookmark(store.db, { ...key, readerId: carol, now: clock.now() }).then(() => undefined))
    const target = { site: 'a', series_id: 's', series_url: SERIES_URL, previous_checked_at: before }
    const report = await checkSeries({ db: store.db, clock, log: silentLog }, testSite('a'), http, target)
    expect(report).toMatchObject({ outcome: 'chapter', stampedAt, latest: { newChapter: true } })

    const [event] = await pendingChapters(store.db, 'a')
    expect(event).toMatchObject({ chapter: 11, previous_check_at: before })
    const holders = (await holdersWithUnreadOf(store.db, [key])).get('a/s')!
    const told = holders.filter((h) => tells(h, event!, DEFAULT_RULES)).map((h) => h.name)
    expect(holders.map((h) => h.name).sort()).toEqual(['alice', 'bob', 'carol'])
    expect(told).toEqual(['alice'])
  })
})
