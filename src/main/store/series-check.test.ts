/**
 * What a check writes on its Series, as a Reader syncing with `since` and the owner's list see it: the Latest
 * Chapter, its history and source, the title, the outcome, and which checks touch the Readers' bookmarks.
 */
import { describe, expect, test } from '../testing/fixtures'
import { seedReader, seedSeries, type SeedSeries } from '../testing/store'
import { readerBookmarks } from './bookmarks'
import { recordSighting } from './sightings'
import {
  addSeries,
  finishSeries,
  latestChapterHistory,
  markLatestChecked,
  pruneOrphanSeries,
  recordCheckOutcome,
  recordCheckResult,
  repairFutureStamps,
  requireSeries,
  stillDue,
} from './series'
import { getSeriesListRow } from './series-list'

let alice: number
const key = { site: 'a', seriesId: 'x' }
const found = (chapter: number) => ({ chapter, label: `Chapter ${chapter}`, url: `https://a.example/c/${chapter}` })

/** `seed(over)`: Series x, held by Alice; `synced(since)`: what Alice syncing with `since` receives; `history()`: x's Latest Chapter history. */
const it = test
  .extend(
    'seed',
    ({ store }) =>
      (s: Partial<SeedSeries> = {}) =>
        seedSeries(store.db, { id: 'x', readers: [alice], ...s }),
  )
  .extend(
    'synced',
    ({ store }) =>
      async (since: number) =>
        (await readerBookmarks(store.db, alice, { since })).map((b) => b.series_id),
  )
  .extend(
    'history',
    ({ store }) =>
      async () =>
        (await latestChapterHistory(store.db, key)).map((h) => ({ chapter: h.chapter, source: h.source, at: h.at })),
  )

it.beforeEach(async ({ store }) => {
  alice = await seedReader(store.db, 'alice')
})

describe('a check and the Latest Chapter', () => {
  it('a check that finds a lower chapter than an earlier check changes nothing: no move down, no history, nothing to sync', async ({
    store,
    seed,
    synced,
    history,
  }) => {
    await seed({ latest: 10 })
    const before = await requireSeries(store.db, key)
    const report = await recordCheckResult(store.db, { ...key, found: found(8), title: 'x', now: 500 })
    expect(report).toMatchObject({ move: 'none', newChapter: false, previous: 10 })
    expect(report.series).toEqual(before)
    expect(await requireSeries(store.db, key)).toEqual(before)
    expect(await history()).toEqual([])
    expect(await synced(2)).toEqual([])
  })

  it("a check that confirms a chapter a Sighting raised on a Series no check read makes it the check's, with no New Chapter and no history row", async ({
    store,
    seed,
    synced,
    history,
  }) => {
    await seed({})
    await recordSighting(store.db, { ...key, readerId: alice, chapter: 7, sightedAt: 100, now: 100 })
    const report = await recordCheckResult(store.db, { ...key, found: found(7), now: 500 })
    expect(report).toMatchObject({ move: 'confirmed', newChapter: false })
    const stored = await requireSeries(store.db, key)
    expect(stored).toMatchObject({
      latest_chapter: 7,
      latest_source: 'check',
      checked_chapter: 7,
      latest_chapter_label: 'Chapter 7',
      latest_chapter_url: 'https://a.example/c/7',
      // Where the Sighting put it: a confirmation is no New Chapter.
      latest_changed_at: 100,
    })
    expect(report.series).toEqual(stored)
    // Only the Sighting's raise: the confirmation adds no row.
    expect(await history()).toEqual([{ chapter: 7, source: 'sighting', at: 100 }])
    expect(await synced(500)).toEqual(['x'])
  })

  it('a check that finds the chapter a Sighting raised past a checked one is a New Chapter past the checked one (docs/adr/0119-…)', async ({
    store,
    seed,
    history,
  }) => {
    await seed({ latest: 10 })
    await recordSighting(store.db, { ...key, readerId: alice, chapter: 12, sightedAt: 100, now: 100 })
    const report = await recordCheckResult(store.db, { ...key, found: found(12), now: 500 })
    expect(report).toMatchObject({ move: 'up', newChapter: true, previous: 10 })
    expect(await requireSeries(store.db, key)).toMatchObject({ latest_chapter: 12, latest_changed_at: 500, checked_chapter: 12 })
    expect(await history()).toEqual([
      { chapter: 12, source: 'check', at: 500 },
      { chapter: 12, source: 'sighting', at: 100 },
    ])
  })

  it('a correction down is written in the history as a correction, is no New Chapter, and Readers sync it', async ({
    store,
    seed,
    synced,
    history,
  }) => {
    await seed({ latest: 10 })
    await recordSighting(store.db, { ...key, readerId: alice, chapter: 20, sightedAt: 100, now: 100 })
    const report = await recordCheckResult(store.db, { ...key, found: found(10), now: 500 })
    expect(report).toMatchObject({ move: 'corrected-down', newChapter: false, previous: 10 })
    expect(await requireSeries(store.db, key)).toMatchObject({ latest_chapter: 10, latest_changed_at: 100, latest_source: 'check' })
    expect(await history()).toEqual([
      { chapter: 10, source: 'correction', at: 500 },
      { chapter: 20, source: 'sighting', at: 100 },
    ])
    expect(await synced(500)).toEqual(['x'])
  })

  it('a New Chapter is written in the history as a check, and Readers see it through the latest change, their bookmarks untouched', async ({
    store,
    seed,
    synced,
    history,
  }) => {
    await seed({ latest: 10 })
    const report = await recordCheckResult(store.db, { ...key, found: found(11), now: 500 })
    expect(report.newChapter).toBe(true)
    expect(await history()).toEqual([{ chapter: 11, source: 'check', at: 500 }])
    expect(await synced(500)).toEqual(['x'])
    const bookmark = await store.db.selectFrom('bookmarks').select('updated_at').executeTakeFirstOrThrow()
    expect(bookmark.updated_at).toBe(1)
  })

  it('the first chapter found is written in the history as a check', async ({ store, seed, history }) => {
    await seed()
    await recordCheckResult(store.db, { ...key, found: found(3), now: 500 })
    expect(await history()).toEqual([{ chapter: 3, source: 'check', at: 500 }])
  })

  it('never moves the Latest Chapter down after a check, over a run of checks', async ({ store, seed, history }) => {
    await seed()
    const latest: Array<number | null> = []
    for (const [i, chapter] of [5, 3, 7, 7, 6, 2, 9].entries()) {
      await recordCheckResult(store.db, { ...key, found: found(chapter), now: 100 + i })
      latest.push((await requireSeries(store.db, key)).latest_chapter)
    }
    expect(latest).toEqual([5, 5, 7, 7, 7, 7, 9])
    expect((await history()).map((h) => h.chapter)).toEqual([9, 7, 5])
  })
})

describe('a check and the title', () => {
  it('a new title is stored and synced; the same title, or none, changes nothing a Reader syncs', async ({
    store,
    seed,
    synced,
    history,
  }) => {
    await seed({ latest: 10, title: 'Old' })
    await recordCheckResult(store.db, { ...key, found: found(10), title: 'Old', now: 300 })
    await recordCheckResult(store.db, { ...key, found: found(10), now: 310 })
    expect(await synced(2)).toEqual([])
    const report = await recordCheckResult(store.db, { ...key, found: found(10), title: 'New', now: 400 })
    expect(report.series.title).toBe('New')
    expect((await requireSeries(store.db, key)).title).toBe('New')
    expect(await synced(400)).toEqual(['x'])
    expect(await history()).toEqual([])
  })
})

describe("a check's outcome", () => {
  it('a check found a chapter: the outcome says so, clears the last error and is dated', async ({ store, seed }) => {
    await seed({ latest: 10 })
    await recordCheckOutcome(store.db, key, { outcome: 'no-chapter', reason: 'nothing on the page', at: 100 })
    await recordCheckResult(store.db, { ...key, found: found(10), now: 200, outcome: true })
    expect(await requireSeries(store.db, key)).toMatchObject({ last_outcome: 'chapter', last_error: '', last_outcome_at: 200 })
  })

  it('without the outcome, a result leaves the last outcome as it was', async ({ store, seed }) => {
    await seed({ latest: 10 })
    await recordCheckOutcome(store.db, key, { outcome: 'no-chapter', reason: 'nothing on the page', at: 100 })
    await recordCheckResult(store.db, { ...key, found: found(11), now: 200 })
    expect(await requireSeries(store.db, key)).toMatchObject({
      last_outcome: 'no-chapter',
      last_error: 'nothing on the page',
      last_outcome_at: 100,
    })
  })

  it('a failure keeps its reason, cut to 300 characters; a chapter keeps none', async ({ store, seed }) => {
    await seed()
    await recordCheckOutcome(store.db, key, { outcome: 'error', reason: 'e'.repeat(400), at: 100 })
    expect((await requireSeries(store.db, key)).last_error).toBe('e'.repeat(300))
    await recordCheckOutcome(store.db, key, { outcome: 'chapter', reason: 'ignored', at: 110 })
    expect(await requireSeries(store.db, key)).toMatchObject({ last_outcome: 'chapter', last_error: '', last_outcome_at: 110 })
  })
})

describe('a Series added or asked for', () => {
  it('added with no title or URL has empty ones, unchecked and with no Latest Chapter', async ({ store }) => {
    expect(await addSeries(store.db, { ...key, now: 7 })).toMatchObject({
      title: '',
      series_url: '',
      latest_chapter: null,
      latest_checked_at: 0,
      created_at: 7,
    })
  })

  it('that does not exist is refused, naming it', async ({ store }) => {
    await expect(requireSeries(store.db, { site: 'a', seriesId: 'nope' })).rejects.toThrow('no Series a/nope')
    await expect(finishSeries(store.db, { site: 'b', seriesId: 'gone' }, 1)).rejects.toThrow('no Series b/gone')
  })
})

describe('the check stamp', () => {
  it('is refused for a Series that does not exist', async ({ store, seed }) => {
    expect(await markLatestChecked(store.db, { site: 'a', seriesId: 'nope' }, 10)).toBe(false)
    await seed()
    expect(await markLatestChecked(store.db, key, 10)).toBe(true)
  })

  it("a never-checked, never-forced Series is not pending in the owner's list", async ({ store, seed }) => {
    await seed()
    expect((await getSeriesListRow(store.db, key))?.pending).toBe(false)
    await seed({ id: 'forced', forcedAt: 5 })
    expect((await getSeriesListRow(store.db, { site: 'a', seriesId: 'forced' }))?.pending).toBe(true)
  })
})

describe('still due, read just before the request', () => {
  const at = 1_000
  it.for<[string, Partial<SeedSeries>, number, boolean]>([
    ['as the due query saw it', {}, at, true],
    ['checked since the due query read it', {}, at - 1, false],
    ['checked since, but a Check now asks again', { forcedAt: at + 5 }, at - 1, true],
    ['Finished', { finishedAt: 50 }, at, false],
    ['Finished, but forced', { finishedAt: 50, forcedAt: at + 5 }, at, true],
    ['forced at the very stamp of its check (served)', { finishedAt: 50, forcedAt: at }, at, false],
    ['without a URL', { url: '' }, at, false],
    ['held by no Reader', { readers: [] }, at, false],
  ])('%s', async ([_name, over, seen, due], { store, seed }) => {
    await seed({ checkedAt: at, ...over })
    expect(await stillDue(store.db, key, seen)).toBe(due ? 'https://a.example/manga/x' : null)
  })

  it('a Series that no longer exists is not due', async ({ store }) => {
    expect(await stillDue(store.db, { site: 'a', seriesId: 'gone' }, 0)).toBeNull()
  })
})

describe('the history', () => {
  it('is read newest first, 50 by default, fewer when asked', async ({ store, seed }) => {
    await seed()
    for (let chapter = 1; chapter <= 60; chapter++) await recordCheckResult(store.db, { ...key, found: found(chapter), now: chapter })
    const all = await latestChapterHistory(store.db, key)
    expect(all).toHaveLength(50)
    expect(all[0]).toMatchObject({ chapter: 60, label: 'Chapter 60', site: 'a', series_id: 'x' })
    expect((await latestChapterHistory(store.db, key, 3)).map((h) => h.chapter)).toEqual([60, 59, 58])
    expect(await latestChapterHistory(store.db, { site: 'a', seriesId: 'other' })).toEqual([])
  })
})

describe('orphans and stamps ahead of the clock', () => {
  it("an orphan created or checked at the retention's boundary stays", async ({ store }) => {
    await seedSeries(store.db, { id: 'checked-late', checkedAt: 100 })
    await seedSeries(store.db, { id: 'old', checkedAt: 99 })
    // Both were created at 1.
    expect(await pruneOrphanSeries(store.db, 1)).toBe(0)
    expect(await pruneOrphanSeries(store.db, 100)).toBe(1)
    expect(store.sqlite.prepare('SELECT series_id FROM series').all()).toEqual([{ series_id: 'checked-late' }])
  })

  it('Sighting and change stamps ahead of the clock come back to it; a Site with none ahead is left alone', async ({ store, seed }) => {
    const now = 10_000_000
    await seed({ checkedAt: now - 10, sightedAt: now + 5_000 })
    await store.db
      .updateTable('series')
      .set({ latest_changed_at: now + 7_000 })
      .execute()
    expect(await repairFutureStamps(store.db, 'b', now)).toBe(0)
    expect(await repairFutureStamps(store.db, 'a', now)).toBe(1)
    expect(await requireSeries(store.db, key)).toMatchObject({
      latest_checked_at: now - 10,
      latest_sighted_at: now,
      latest_changed_at: now,
    })
    expect(await repairFutureStamps(store.db, 'a', now)).toBe(0)
  })
  it('a step back the Lane saw moves every planned check still ahead by the step; unseen, only those checked ahead', async ({ store }) => {
    const now = 50 * 3_600_000
    const hour = 3_600_000
    await seedSeries(store.db, { id: 'resting', checkedAt: now - 3 * hour })
    await seedSeries(store.db, { id: 'due', checkedAt: now - 5 * hour })
    await seedSeries(store.db, { id: 'fixed', checkedAt: now - 2 * hour })
    const plan = (id: string, at: number) => store.db.updateTable('series').set({ next_check_at: at }).where('series_id', '=', id).execute()
    await plan('resting', now + 20 * hour)
    await plan('due', now - hour)
    const at = async (id: string) => (await requireSeries(store.db, { site: 'a', seriesId: id })).next_check_at
    // Not seen (a step while the app was closed): nothing was checked ahead of the clock, so nothing moves.
    expect(await repairFutureStamps(store.db, 'a', now)).toBe(0)
    expect(await at('resting')).toBe(now + 20 * hour)
    // Seen: 6 h back. The plan ahead moves by it; one already due and one with no plan stay.
    expect(await repairFutureStamps(store.db, 'a', now, 6 * hour)).toBe(1)
    expect(await at('resting')).toBe(now + 14 * hour)
    expect(await at('due')).toBe(now - hour)
    expect(await at('fixed')).toBe(0)
    expect(await requireSeries(store.db, { site: 'a', seriesId: 'resting' })).toMatchObject({ latest_checked_at: now - 3 * hour })
  })
})
