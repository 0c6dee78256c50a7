/** The stored chapter lists (docs/adr/0072, 0073): what a check keeps, and what a Reader's Progress makes of it. A real SQLite file. */
import { describe, expect, test } from '../testing/fixtures'
import { seedReader, seedSeries } from '../testing/store'
import { addBookmark, updateBookmark } from './bookmarks'
import {
  KEEP_MAX,
  KEEP_NEWEST,
  chapterKey,
  chapterList,
  factsFromList,
  keptWindow,
  liveLists,
  lowestFirst,
  nextChapterFor,
  readerChapterFacts,
  readerUpdates,
  storeChapters,
  unreadCount,
  unreadCounts,
  type ServedChapter,
} from './chapters'

let alice: number
const key = { site: 'a', seriesId: 'x' }
const ch = (n: number, extra: Partial<ServedChapter> = {}): ServedChapter => ({
  number: n,
  label: `Chapter ${n}`,
  url: `https://a.example/x/${n}`,
  ...extra,
})
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => ch(from + i))
/** `rows()`: the numbers of the Series' stored chapters, newest first. */
const it = test.extend(
  'rows',
  ({ store }) =>
    async () =>
      (await chapterList(store.db, key, { limit: 5_000 })).map((r) => r.number),
)

it.beforeEach(async ({ store }) => {
  alice = await seedReader(store.db, 'alice')
  await seedSeries(store.db, { id: 'x', latest: 10, readers: [alice], progress: 10 })
})

describe('what a check keeps', () => {
  it('the first list is stored whole, none of it arrived; a chapter above the Latest Chapter arrives', async ({ store, rows }) => {
    expect(await storeChapters(store.db, key, range(1, 10), 1_000, 10)).toMatchObject({ added: 10 })
    expect(await rows()).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
    expect(await storeChapters(store.db, key, range(1, 11), 2_000, 10)).toEqual({ added: 1, changed: 0, vanished: 0, dropped: 0 })
    const [eleven, ten] = await chapterList(store.db, key, { limit: 2 })
    expect(eleven).toMatchObject({ number: 11, arrived: 1, first_seen_at: 2_000, vanished_at: 0 })
    expect(ten).toMatchObject({ number: 10, arrived: 0, first_seen_at: 1_000 })
  })

  it('the same list again writes nothing', async ({ store }) => {
    await storeChapters(store.db, key, range(1, 10), 1_000, 10)
    expect(await storeChapters(store.db, key, range(1, 10), 2_000, 10)).toEqual({ added: 0, changed: 0, vanished: 0, dropped: 0 })
  })

  it('a re-labelled chapter takes its new label and URL, keeping when it was first seen', async ({ store }) => {
    await storeChapters(store.db, key, range(1, 10), 1_000, 10)
    const served = range(1, 10).map((c) => (c.number === 7 ? ch(7, { label: 'Ch. 7 — The Bridge', url: 'https://a.example/x/7b' }) : c))
    expect(await storeChapters(store.db, key, served, 2_000, 10)).toMatchObject({ changed: 1 })
    expect((await chapterList(store.db, key, { before: 8, limit: 1 }))[0]).toMatchObject({
      number: 7,
      label: 'Ch. 7 — The Bridge',
      url: 'https://a.example/x/7b',
      first_seen_at: 1_000,
    })
  })

  it('a chapter gone from the Site is kept as vanished; listed again, it is back — never arrived anew', async ({ store }) => {
    await storeChapters(store.db, key, range(1, 11), 1_000, 10)
    const without = range(1, 11).filter((c) => c.number !== 11 && c.number !== 5)
    expect(await storeChapters(store.db, key, without, 2_000, 11)).toMatchObject({ vanished: 2 })
    const list = await chapterList(store.db, key, { limit: 20 })
    expect(list.filter((r) => r.vanished_at === 2_000).map((r) => r.number)).toEqual([11, 5])
    // The Site re-uploads its whole list: nothing is added, nothing arrives again.
    expect(await storeChapters(store.db, key, range(1, 11), 3_000, 11)).toEqual({ added: 0, changed: 2, vanished: 0, dropped: 0 })
    const back = await chapterList(store.db, key, { limit: 1 })
    expect(back[0]).toMatchObject({ number: 11, vanished_at: 0, first_seen_at: 1_000, arrived: 1 })
  })

  it('one row per number: a number served twice keeps the first; a release date is kept', async ({ store }) => {
    await storeChapters(store.db, key, [ch(3, { released: 5_000 }), ch(3, { label: 'dupe' }), ch(2)], 1_000, null)
    expect(await chapterList(store.db, key, { limit: 5 })).toMatchObject([
      { number: 3, label: 'Chapter 3', released_at: 5_000 },
      { number: 2, released_at: 0 },
    ])
  })
})

describe('the window kept (a Series with thousands of chapters)', () => {
  it('the newest 100 when every Reader is caught up; rows below the window go', async ({ store, rows }) => {
    await updateBookmark(store.db, alice, key, { progress: 3_000, progressAt: 5 }, 5)
    await storeChapters(store.db, key, range(1, 3_000), 1_000, 3_000)
    expect(await rows()).toHaveLength(KEEP_NEWEST)
    expect((await rows()).at(-1)).toBe(2_901)
  })

  it('everything above the lowest Progress, at most 1,000; a Reader catching up lets the rest go', async ({ store, rows }) => {
    await updateBookmark(store.db, alice, key, { progress: 2_500, progressAt: 5 }, 5)
    await storeChapters(store.db, key, range(1, 3_000), 1_000, 3_000)
    expect(await rows()).toHaveLength(500)
    await updateBookmark(store.db, alice, key, { progress: 10, progressAt: 6 }, 6)
    await storeChapters(store.db, key, range(1, 3_000), 2_000, 3_000)
    expect(await rows()).toHaveLength(KEEP_MAX)
    await updateBookmark(store.db, alice, key, { progress: 2_990, progressAt: 7 }, 7)
    expect(await storeChapters(store.db, key, range(1, 3_000), 3_000, 3_000)).toMatchObject({
      dropped: KEEP_MAX - KEEP_NEWEST,
      vanished: 0,
    })
  })

  it('a Site listing only its newest 12: chapters a Reader has yet to read stay when they scroll off the page', async ({ store, rows }) => {
    await updateBookmark(store.db, alice, key, { progress: 30, progressAt: 5 }, 5)
    await storeChapters(store.db, key, range(29, 40), 1_000, 40)
    await storeChapters(store.db, key, range(35, 46), 2_000, 40)
    // 31–34 are off the page, not vanished: kept, unread; 29 and 30 are read, let go.
    expect((await rows()).at(-1)).toBe(31)
    expect(await nextChapterFor(store.db, alice, key)).toMatchObject({ number: 31 })
    expect((await chapterList(store.db, key, { limit: 100 })).every((r) => r.vanished_at === 0)).toBe(true)
  })

  it('a bookmark added with no Progress, however it is added (an import writes rows itself), starts caught up', async ({ store }) => {
    const bob = await seedReader(store.db, 'bob')
    await store.db
      .insertInto('bookmarks')
      .values({ reader_id: bob, site: 'a', series_id: 'x', progress: null, progress_at: 0, created_at: 5, updated_at: 5 })
      .execute()
    await seedSeries(store.db, { id: 'later', latest: null })
    await store.db
      .insertInto('bookmarks')
      .values({ reader_id: bob, site: 'a', series_id: 'later', progress: null, progress_at: 0, created_at: 5, updated_at: 5 })
      .execute()
    // A Mihon backup's read chapters are a Progress given: kept.
    await seedSeries(store.db, { id: 'read', latest: 50 })
    await store.db
      .insertInto('bookmarks')
      .values({ reader_id: bob, site: 'a', series_id: 'read', progress: 20, progress_at: 0, created_at: 5, updated_at: 5 })
      .execute()
    await store.db.updateTable('series').set({ latest_chapter: 7 }).where('series_id', '=', 'later').execute()
    const progress = await store.db
      .selectFrom('bookmarks')
      .select(['series_id', 'progress', 'progress_at'])
      .where('reader_id', '=', bob)
      .orderBy('series_id')
      .execute()
    expect(progress).toEqual([
      { series_id: 'later', progress: 7, progress_at: 0 },
      { series_id: 'read', progress: 20, progress_at: 0 },
      { series_id: 'x', progress: 10, progress_at: 0 },
    ])
  })

  it('keptWindow is a top slice by number, whatever order the page lists them in', () => {
    const served = [ch(2), ch(9), ch(1), ch(5.5), ch(7)]
    expect(keptWindow(served, 100).map((c) => c.number)).toEqual([9, 7, 5.5, 2, 1])
    expect(keptWindow(range(1, 300), 250).map((c) => c.number)).toHaveLength(100)
    expect(keptWindow(range(1, 300), 150).at(-1)?.number).toBe(151)
  })
})

describe('what a Reader makes of it', () => {
  it('counts stored chapters one by one: fractional ones count, missing numbers do not', async ({ store }) => {
    const served = [ch(1), ch(2), ch(3), ch(4), ch(5), ch(5.1), ch(5.2), ch(5.5), ch(6), ch(10)]
    await storeChapters(store.db, key, served, 1_000, null)
    await store.db.updateTable('series').set({ latest_chapter: 10 }).execute()
    await updateBookmark(store.db, alice, key, { progress: 5, progressAt: 5 }, 5)
    // 5.1, 5.2, 5.5, 6, 10 — where subtraction would say 5 by luck; at 6 it would say 4, not 1.
    expect((await unreadCounts(store.db, alice)).get(chapterKey('a', 'x'))).toBe(5)
    await updateBookmark(store.db, alice, key, { progress: 6, progressAt: 6 }, 6)
    expect((await unreadCounts(store.db, alice)).get(chapterKey('a', 'x'))).toBe(1)
    expect(await nextChapterFor(store.db, alice, key)).toEqual({ number: 10, label: 'Chapter 10', url: 'https://a.example/x/10' })
  })

  it('below the stored list and above it (a Sighting) by subtraction; no list, subtraction alone', () => {
    const facts = { next: null, storedUnread: 12, lowest: 14, highest: 25 }
    expect(unreadCount(25, 0, facts)).toBe(25)
    expect(unreadCount(25, null, facts)).toBe(25)
    expect(unreadCount(27, 25, { ...facts, storedUnread: 0 })).toBe(2)
    expect(unreadCount(25, 20.5, undefined)).toBe(5)
    expect(unreadCount(null, 3, undefined)).toBe(0)
  })

  it("a digest's live lists: one per Series held in memory, lowest first, vanished ones out, facts as SQL's", async ({ store }) => {
    await seedSeries(store.db, { id: 'y', latest: 3, readers: [alice], progress: null })
    const served = [ch(10), ch(2), ch(5.5), ch(1), ch(11), ch(3)]
    await storeChapters(store.db, key, served, 1_000, 11)
    await storeChapters(
      store.db,
      key,
      served.filter((c) => c.number !== 5.5),
      2_000,
      11,
    )
    await storeChapters(store.db, { site: 'a', seriesId: 'y' }, [ch(3), ch(1)], 1_000, 3)
    const lists = await liveLists(store.db, [key, { site: 'a', seriesId: 'y' }, key, { site: 'a', seriesId: 'none' }])
    expect([...lists.keys()]).toEqual([chapterKey('a', 'x'), chapterKey('a', 'y')])
    expect(lists.get(chapterKey('a', 'x'))).toEqual({
      numbers: [1, 2, 3, 10, 11],
      urls: [1, 2, 3, 10, 11].map((n) => `https://a.example/x/${n}`),
    })
    const same = async (series: string, progress: number | null) => {
      const sql = (await readerChapterFacts(store.db, alice, [{ site: 'a', seriesId: series }])).get(chapterKey('a', series))!
      const { next, ...counts } = factsFromList(lists.get(chapterKey('a', series)), progress)
      expect({ ...counts, next }).toEqual({ ...sql, next: sql.next && { number: sql.next.number, url: sql.next.url } })
    }
    await same('y', null)
    for (const [at, progress] of [0, 2, 2.5, 10, 11, 12].entries()) {
      await updateBookmark(store.db, alice, key, { progress, progressAt: 20 + at }, 20 + at)
      await same('x', progress)
    }
    expect(factsFromList(undefined, 4)).toEqual({ next: null, storedUnread: 0, lowest: null, highest: null })
  })

  it('a list read out of order is put lowest first, each page with its number', () => {
    expect(lowestFirst([3, 1, 2.5], ['c', 'a', 'b'])).toEqual({ numbers: [1, 2.5, 3], urls: ['a', 'b', 'c'] })
    const sorted = { numbers: [1, 2], urls: ['a', 'b'] }
    expect(lowestFirst(sorted.numbers, sorted.urls)).toEqual(sorted)
  })

  it('the next chapter skips vanished ones; nothing above Progress is none', async ({ store }) => {
    await storeChapters(store.db, key, range(1, 12), 1_000, 10)
    await storeChapters(
      store.db,
      key,
      range(1, 12).filter((c) => c.number !== 11),
      2_000,
      12,
    )
    expect(await nextChapterFor(store.db, alice, key)).toMatchObject({ number: 12 })
    await updateBookmark(store.db, alice, key, { progress: 12, progressAt: 5 }, 5)
    expect(await nextChapterFor(store.db, alice, key)).toBeNull()
  })

  it("a Reader's Updates: chapters that arrived after the bookmark, above Progress, newest first", async ({ store }) => {
    await storeChapters(store.db, key, range(1, 10), 1_000, 10)
    await storeChapters(store.db, key, range(1, 11), 2_000, 10)
    await storeChapters(store.db, key, range(1, 12), 3_000, 11)
    await seedSeries(store.db, { id: 'y', title: 'Yarrow', latest: 4 })
    await addBookmark(store.db, { site: 'a', seriesId: 'y', readerId: alice, now: 2_500 })
    const y = { site: 'a', seriesId: 'y' }
    await storeChapters(store.db, y, range(1, 5), 2_600, 4)
    await storeChapters(store.db, y, range(1, 6), 4_000, 5)
    expect((await readerUpdates(store.db, alice, { limit: 10 })).map((u) => [u.series_id, u.number, u.first_seen_at])).toEqual([
      ['y', 6, 4_000],
      ['x', 12, 3_000],
      ['y', 5, 2_600],
      ['x', 11, 2_000],
    ])
    await updateBookmark(store.db, alice, key, { progress: 11, progressAt: 9 }, 9)
    expect((await readerUpdates(store.db, alice, { limit: 10, before: 4_000 })).map((u) => u.number)).toEqual([12, 5])
  })
})
